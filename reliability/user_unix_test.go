//go:build unix

package reliability

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// Root reads and writes whatever the permission bits say, so a test of an
// unreadable file or a read-only folder means nothing as root. As root,
// such cases run the binary as the conventional unprivileged user "nobody"
// on a workspace handed to that user; as anyone else they run as is.
const otherID = 65534

// permissionsApply says whether this platform can run the permission cases.
func permissionsApply() bool { return true }

func runAs(cmd *exec.Cmd) {
	if os.Geteuid() != 0 {
		return
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: otherID, Gid: otherID}}
}

// giveToOther hands a tree to the user runAs runs as (a no-op unless root)
// and opens its parent folders for traversal.
func giveToOther(root string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	err := filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, otherID, otherID)
	})
	if err != nil {
		return err
	}
	// Open the folders above for traversal, but only the test's own:
	// anything above the temp folder must already be open.
	tmp := filepath.Clean(os.TempDir())
	for dir := filepath.Dir(root); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if info.Mode().Perm()&0o001 != 0 {
			continue
		}
		if rel, err := filepath.Rel(tmp, dir); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			return fmt.Errorf("%s is closed to other users", dir)
		}
		if err := os.Chmod(dir, info.Mode().Perm()|0o711); err != nil {
			return err
		}
	}
	return nil
}
