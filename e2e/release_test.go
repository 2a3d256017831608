//go:build linux || darwin

package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestReleaseIsReproducible: a second `make release` of the same source
// writes the same bytes, archives, checksums.txt and cask alike, and
// checksums.txt checks out with sha256sum.
func TestReleaseIsReproducible(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	first := filepath.Dir(buildReleasePlugin(t))
	second := t.TempDir()
	cmd := exec.Command("go", "run", "./scripts/release", "-version", releaseVersion(t), "-dist", second)
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	is.NoErr(err)
	t.Logf("%s", out)
	var compared []string
	is.NoErr(filepath.WalkDir(second, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(second, path)
		a, err := os.ReadFile(filepath.Join(first, rel))
		if err != nil {
			t.Errorf("%s is in the second build only", rel)
			return nil
		}
		b, err := os.ReadFile(path)
		is.NoErr(err)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two builds of the same source", rel)
		}
		compared = append(compared, rel)
		return nil
	}))
	t.Logf("identical in both builds: %s", strings.Join(compared, ", "))
	is.True(len(compared) >= 6+6+2) // six binaries, six archives, checksums.txt, the cask
	if sum, err := exec.LookPath("sha256sum"); err == nil {
		check := exec.Command(sum, "-c", "checksums.txt")
		check.Dir = second
		out, err := check.CombinedOutput()
		t.Logf("sha256sum -c checksums.txt:\n%s", out)
		is.NoErr(err)
		is.Equal(strings.Count(string(out), ": OK"), 6)
	}
}

func releaseVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// TestInstallScript: install.sh, run as a user runs it, downloads this
// machine's archive of the release from a loopback server serving dist/,
// checks its SHA-256 and installs a binary that runs; an archive whose
// SHA-256 does not match is refused and nothing is installed.
func TestInstallScript(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dist := filepath.Dir(buildReleasePlugin(t))
	version := releaseVersion(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(dist)))
	t.Cleanup(srv.Close)
	script := filepath.Join(repoRoot(t), "install.sh")
	src, err := os.ReadFile(script)
	is.NoErr(err)
	is.True(strings.Contains(string(src), "version=${BIMRI_VERSION:-"+version+"}")) // installs this release by default
	install := func(base, bindir string) (string, error) {
		home := t.TempDir()
		cmd := exec.Command("/bin/sh", script)
		cmd.Env = []string{"HOME=" + home, "PATH=" + minimalPath, "BIMRI_BASE_URL=" + base, "BIMRI_BIN_DIR=" + bindir, "BIMRI_VERSION=" + version}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	bindir := filepath.Join(t.TempDir(), "bin")
	out, err := install(srv.URL, bindir)
	t.Logf("install.sh:\n%s", out)
	is.NoErr(err)
	is.True(strings.Contains(out, "installed bimri-hook "+version+" in "+bindir))
	is.True(strings.Contains(out, "is not on PATH")) // and says how to fix that
	got, err := exec.Command(filepath.Join(bindir, "bimri-hook"), "version").Output()
	is.NoErr(err)
	is.Equal(strings.TrimSpace(string(got)), "bimri-hook "+version)

	// The same release with this machine's archive corrupted.
	bad := t.TempDir()
	entries, err := os.ReadDir(dist)
	is.NoErr(err)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dist, e.Name()))
		is.NoErr(err)
		if strings.HasSuffix(e.Name(), ".tar.gz") {
			b = append(b, 0)
		}
		is.NoErr(os.WriteFile(filepath.Join(bad, e.Name()), b, 0o644))
	}
	badSrv := httptest.NewServer(http.FileServer(http.Dir(bad)))
	t.Cleanup(badSrv.Close)
	bindir = filepath.Join(t.TempDir(), "bin")
	out, err = install(badSrv.URL, bindir)
	t.Logf("install.sh from a corrupted release:\n%s", out)
	is.True(err != nil)
	is.True(strings.Contains(out, "checksums.txt says"))
	_, err = os.Stat(filepath.Join(bindir, "bimri-hook"))
	is.True(os.IsNotExist(err))
}
