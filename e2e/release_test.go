//go:build linux || darwin

package e2e

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/internal/slowtest"
	"github.com/matryer/is"
	"github.com/rogpeppe/go-internal/testscript"
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
	is.True(len(compared) >= 6*4+6+2) // four programs for six platforms, six archives, checksums.txt, the cask
	if sum, err := exec.LookPath("sha256sum"); err == nil {
		check := exec.Command(sum, "-c", "checksums.txt")
		check.Dir = second
		out, err := check.CombinedOutput()
		t.Logf("sha256sum -c checksums.txt:\n%s", out)
		is.NoErr(err)
		is.Equal(strings.Count(string(out), ": OK"), 6)
	}
}

// releasePlatforms are the release's six targets, as os-arch.
var releasePlatforms = []string{"linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"}

// releasePrograms are what a release carries: the hook binary and the
// three programs it runs, the command line (every command but the
// hooks), bimri-hook mcp's server and bimri-hook browse's terminal UI.
var releasePrograms = []string{"bimri-hook", "bimri-hook-cli", "bimri-hook-mcp", "bimri-hook-browse"}

// TestReleaseArchives: each platform's archive holds the four programs,
// built for that platform (read from the executable's own header), at
// mode 755, with LICENSE and README.md; the Windows archives hold the
// four .exe; the Homebrew cask installs the four.
func TestReleaseArchives(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dist := filepath.Dir(buildReleasePlugin(t))
	version := releaseVersion(t)
	for _, platform := range releasePlatforms {
		goos, arch, _ := strings.Cut(platform, "-")
		ext, archive := "", fmt.Sprintf("bimri-hook_%s_%s_%s.tar.gz", version, goos, arch)
		if goos == "windows" {
			ext, archive = ".exe", strings.TrimSuffix(archive, ".tar.gz")+".zip"
		}
		files, err := readArchive(filepath.Join(dist, archive))
		is.NoErr(err)
		var names []string
		for _, f := range files {
			names = append(names, f.name)
		}
		want := []string{}
		for _, prog := range releasePrograms {
			want = append(want, prog+ext)
		}
		want = append(want, "LICENSE", "README.md")
		is.Equal(names, want) // the archive's entries, in order
		for _, f := range files[:len(releasePrograms)] {
			got, err := executablePlatform(f.data)
			if err != nil {
				t.Errorf("%s: %s: %v", archive, f.name, err)
			}
			if got != platform || f.mode.Perm() != 0o755 {
				t.Errorf("%s: %s is a %s executable at mode %v, want %s at 0755", archive, f.name, got, f.mode.Perm(), platform)
			}
		}
	}
	cask, err := os.ReadFile(filepath.Join(dist, "homebrew", "Casks", "bimri-hook.rb"))
	is.NoErr(err)
	for _, prog := range releasePrograms {
		is.True(strings.Contains(string(cask), `binary "`+prog+`"`))
		is.True(strings.Contains(string(cask), "#{staged_path}/"+prog+`"]`)) // out of quarantine
	}
}

type archived struct {
	name string
	mode os.FileMode
	data []byte
}

// readArchive reads a release .tar.gz or .zip, in order.
func readArchive(path string) ([]archived, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []archived
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
			out = append(out, archived{f.Name, f.Mode(), data})
		}
		return out, nil
	}
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out = append(out, archived{h.Name, h.FileInfo().Mode(), data})
	}
}

// executablePlatform is the os-arch an executable was built for, read
// from its ELF, Mach-O or PE header; a Windows one must be a console
// program.
func executablePlatform(b []byte) (string, error) {
	r := bytes.NewReader(b)
	if f, err := elf.NewFile(r); err == nil {
		switch f.Machine {
		case elf.EM_X86_64:
			return "linux-amd64", nil
		case elf.EM_AARCH64:
			return "linux-arm64", nil
		}
		return "", fmt.Errorf("ELF for %v", f.Machine)
	}
	if f, err := macho.NewFile(r); err == nil {
		switch f.Cpu {
		case macho.CpuAmd64:
			return "darwin-amd64", nil
		case macho.CpuArm64:
			return "darwin-arm64", nil
		}
		return "", fmt.Errorf("Mach-O for %v", f.Cpu)
	}
	if f, err := pe.NewFile(r); err == nil {
		// A console program: the client hands a hook its event on stdin
		// and reads its answer on stdout, which a GUI program has not.
		if oh, ok := f.OptionalHeader.(*pe.OptionalHeader64); !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
			return "", fmt.Errorf("PE that is not a 64-bit console program (%T)", f.OptionalHeader)
		}
		switch f.Machine {
		case pe.IMAGE_FILE_MACHINE_AMD64:
			return "windows-amd64", nil
		case pe.IMAGE_FILE_MACHINE_ARM64:
			return "windows-arm64", nil
		}
		return "", fmt.Errorf("PE for machine %#x", f.Machine)
	}
	return "", fmt.Errorf("not an executable this release builds")
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
	reachesCompanions(t, filepath.Join(bindir, "bimri-hook"), t.TempDir())

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
	for _, prog := range releasePrograms {
		_, err = os.Stat(filepath.Join(bindir, prog))
		is.True(os.IsNotExist(err))
	}
}

// reachesCompanions: bin's `mcp` and `browse` run the programs of their
// own beside it: the MCP server answers an initialize request, and the
// terminal UI, given no terminal, says it needs one (rather than
// bimri-hook saying it found no bimri-hook-browse). ws is the workspace.
func reachesCompanions(t *testing.T, bin, ws string) {
	t.Helper()
	env := []string{"HOME=" + t.TempDir(), "PATH=" + minimalPath, "CLAUDE_PROJECT_DIR=" + ws}
	mcp := exec.Command(bin, "mcp")
	mcp.Dir, mcp.Env = ws, env
	var stderr bytes.Buffer
	mcp.Stderr = &stderr
	stdin, err := mcp.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := mcp.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := mcp.Start(); err != nil {
		t.Fatal(err)
	}
	defer time.AfterFunc(time.Minute, func() { _ = mcp.Process.Kill() }).Stop()
	// The answer comes before stdin closes: the server ends at its end.
	_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"0"}}}`+"\n")
	answer, err := bufio.NewReader(stdout).ReadString('\n')
	stdin.Close()
	if werr := mcp.Wait(); err == nil {
		err = werr
	}
	if err != nil || !strings.Contains(answer, `"serverInfo"`) {
		t.Errorf("%s mcp: %v\n%s%s", bin, err, answer, stderr.Bytes())
	}
	browse := exec.Command(bin, "browse")
	browse.Dir, browse.Env = ws, env
	out, err := browse.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "needs a terminal") {
		t.Errorf("%s browse, with no terminal: %v\n%s", bin, err, out)
	}
}

// TestMakeInstall runs testdata/script/make_install.txtar: make install
// as a user runs it in a clone, into a PREFIX of the test's own. $REPO is
// the repository; the Go caches are the test's own, so nothing is built
// twice.
func TestMakeInstall(t *testing.T) {
	slowtest.Gate(t)
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make install needs make: %v", err)
	}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	goEnv := strings.Fields(string(out))
	testscript.Run(t, testscript.Params{
		Files: []string{"testdata/script/make_install.txtar"},
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repoRoot(t))
			for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
				env.Setenv(name, goEnv[i])
			}
			return nil
		},
	})
}
