//go:build hookonly

package main

// A release's bimri-hook (and make build's) is built with -tags hookonly:
// it runs `bimri-hook hook [AGENT]` itself and every other command
// through bimri-hook-cli, this same program built without the tag, found
// beside it. The command line is what makes the difference: its help
// printer runs text/template, whose reflection (MethodByName) keeps every
// exported method of the program's types in the binary, a third of its
// size, and a hook on a fresh process pays for every page it touches.
// Without it a prompt takes some 5-11% less time (docs/performance.md).

// commands hands the command line to bimri-hook-cli, with this argv[0],
// so it wires and names this program (workspace.Executable).
func (a *app) commands(args []string) error {
	prog, err := companion("every command but hook", cliProgram)
	if err != nil {
		return err
	}
	return a.replaceWith(prog, args)
}
