//go:build hookonly

package main

// commands hands every command but the hooks to bimri-hook-cli (this
// program without -tags hookonly), keeping argv[0]: without the command
// line's text/template, whose MethodByName keeps every exported method,
// a hook starts sooner (docs/performance.md#what-a-hook-skips).
func (a *app) commands(args []string) error {
	prog, err := companion("every command but hook", "bimri-hook-cli")
	if err != nil {
		return err
	}
	return a.replaceWith(prog, args)
}
