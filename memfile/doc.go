// Package memfile is the pure core of bimri-hook: it reads bimri.md, the
// memory file of the BIMRI protocol, applies the protocol's rules to it
// and writes it back.
//
//	f, warnings, err := memfile.Parse(data)
//	f, report := memfile.Maintain(f, today, cfg, memfile.Options{})
//	data = memfile.Render(f)
//
// Parse is lenient, because people and models write the file by hand:
// what it cannot read as an entry or a pattern it keeps word for word as
// a Note. Render writes the canonical form, so Render(Parse(Render(f)))
// gives the same bytes. Maintain is the pass (reweigh, patterns, prune,
// budgets, header); ViewLayout is what a session sees at its start; Add,
// Consolidate, Promote, Supersede and the others apply what the agent
// asked for.
//
// Nothing here reads the clock, the environment or the disk: the day is
// passed in, so the same file, day and config always give the same bytes.
// The format and the rules are described in docs/design.md.
package memfile
