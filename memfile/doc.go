// Package memfile is the pure core of bimri-hook: it reads bimri.md, the
// memory file of the BIMRI protocol, applies the protocol's rules to it
// and writes it back.
//
//	f, warnings, err := memfile.Parse(data)
//	f, report := memfile.Maintain(f, today, cfg, memfile.Options{})
//	data = memfile.Render(f)
//
// Parse is lenient (people and models write the file by hand); Maintain
// is the pass; ViewLayout is what a session sees at its start; Add,
// Consolidate and the others apply what the agent asked for. Nothing here
// reads the clock, the environment or the disk, so the same file, day and
// config always give the same bytes. docs/design.md describes the rules.
package memfile
