package install

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/store/atomicfile"
)

// offNote is the off file's content, for a person who finds it.
const offNote = "bimri-hook off: memory is off in this workspace; bimri-hook on (or removing this file) turns it back on.\n"

// Turn sets the workspace's switch (bimri-hook off and on), a file in the
// state folder, which git ignores: this clone's choice, never a
// teammate's. The hook entry reads it first, for every route and agent.
func Turn(w io.Writer, st *store.Store, on bool) error {
	root := st.Root()
	path := workspace.OffPath(root)
	if on {
		err := os.Remove(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(w, "memory is already on in %s\n", root)
		case err != nil:
			return fmt.Errorf("turn memory on: %w", err)
		default:
			fmt.Fprintf(w, "memory is on again in %s: the next session starts with it\n", root)
		}
		return nil
	}
	if workspace.IsOff(root) {
		fmt.Fprintf(w, "memory is already off in %s (bimri-hook on turns it back on)\n", root)
		return nil
	}
	// The lock makes the state folder as every hook finds it: inside the
	// workspace, ignoring itself in git.
	if err := st.CheckLock(); err != nil {
		return fmt.Errorf("turn memory off: %w", err)
	}
	if err := atomicfile.WriteFile(path, []byte(offNote), atomicfile.Options{}); err != nil {
		return fmt.Errorf("turn memory off: %w", err)
	}
	fmt.Fprintf(w, "memory is off in %s: every hook answers nothing, whichever route or agent runs it; bimri.md and its files stay as they are\n", root)
	fmt.Fprintf(w, "  the switch is %s, which git does not carry; bimri-hook on turns memory back on\n", path)
	return nil
}
