//go:build unix

package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/matryer/is"
)

// withUmask runs fn under umask mask. The umask is the process's, so no
// test in this package runs in parallel.
func withUmask(mask int, fn func()) {
	old := syscall.Umask(mask)
	defer syscall.Umask(old)
	fn()
}

// TestNewFilesFollowTheUmask: a new file gets NewPerm less the umask, as
// os.Create would give it, so umask 077 keeps it private.
func TestNewFilesFollowTheUmask(t *testing.T) {
	cases := []struct {
		umask   int
		newPerm fs.FileMode
		want    fs.FileMode
	}{
		{0o022, 0, 0o644},
		{0o077, 0, 0o600},
		{0o002, 0, 0o664},
		{0o022, 0o600, 0o600},
		{0o077, 0o644, 0o600},
	}
	for _, tc := range cases {
		t.Run(fs.FileMode(tc.umask).String()+" "+tc.newPerm.String(), func(t *testing.T) {
			is := is.New(t)
			path := filepath.Join(t.TempDir(), "new.md")
			withUmask(tc.umask, func() {
				is.NoErr(WriteFile(path, []byte("x"), Options{NewPerm: tc.newPerm}))
			})
			info, err := os.Stat(path)
			is.NoErr(err)
			is.Equal(info.Mode().Perm(), tc.want)
		})
	}
}
