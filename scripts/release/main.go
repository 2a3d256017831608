// Command release builds what a bimri-hook release publishes, the same
// bytes from the same source on any machine: `make release` and `make
// plugin` run it.
//
//	go run ./scripts/release -version 0.1.0 -dist dist            # archives, checksums.txt, the Homebrew cask
//	go run ./scripts/release -version 0.1.0 -dist dist -plugin    # and dist/plugin, the marketplace + plugin folder
//
// The four programs built for six platforms (linux, darwin, windows x
// amd64, arm64), with CGO_ENABLED=0, -trimpath, no VCS stamp and
// fixed ldflags; archives
// whose entries are sorted and carry a fixed time, owner and mode; a
// SHA-256 checksums.txt in sha256sum's format. Plain go build rather than
// GoReleaser: GoReleaser's module graph is about 340 modules that CI
// would download and compile on every fresh machine (see the commit that
// added this), for what six builds and this file do.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"text/template"
	"time"
)

// platform is one release target.
type platform struct{ OS, Arch string }

// platforms are the six targets, in the order they are built.
var platforms = []platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func (p platform) String() string { return p.OS + "-" + p.Arch }

// programs are what a release carries: the hook binary, the command line
// it runs every other command with, the MCP server that `bimri-hook mcp`
// runs, and the terminal UI that `bimri-hook browse` runs. Each is a
// program of its own so that what the others link never starts with a
// hook.
var programs = []string{"bimri-hook", "bimri-hook-cli", "bimri-hook-mcp", "bimri-hook-browse"}

// source is the package program is built from and its build tags:
// bimri-hook and bimri-hook-cli are both ./cmd/bimri-hook, the first
// built to run only the hooks (cmd/bimri-hook/commands_hookonly.go).
func source(program string) (pkg, tags string) {
	switch program {
	case "bimri-hook":
		return "./cmd/bimri-hook", buildTags + ",hookonly"
	case "bimri-hook-cli":
		return "./cmd/bimri-hook", buildTags
	}
	return "./cmd/" + program, buildTags
}

// exe is the file name of program on the platform.
func (p platform) exe(program string) string {
	if p.OS == "windows" {
		return program + ".exe"
	}
	return program
}

// pluginPath is where the plugin folder keeps program for the platform.
// Windows runs bin/bimri-hook.exe for the hooks' exec-form command
// bin/bimri-hook, so the windows/amd64 programs sit in bin/ beside it;
// the others are libexec/<program>-<os>-<arch>, where the dispatcher
// bin/bimri-hook finds the hook binary. Either way bimri-hook finds
// bimri-hook-cli, bimri-hook-mcp and bimri-hook-browse beside itself,
// named as it is with -cli, -mcp or -browse after bimri-hook.
func (p platform) pluginPath(program string) string {
	if p == (platform{"windows", "amd64"}) {
		return filepath.Join("bin", p.exe(program))
	}
	return filepath.Join("libexec", program+"-"+p.String()+p.exe(""))
}

// archiveName is the release archive's file name.
func (p platform) archiveName(version string) string {
	ext := ".tar.gz"
	if p.OS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("bimri-hook_%s_%s_%s%s", version, p.OS, p.Arch, ext)
}

// epoch is the time every archived file carries: no build's clock
// reaches its bytes. Zip cannot go earlier than 1980.
var epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// buildTags and ldflags are those of make build, with the version filled in.
const buildTags = "urfave_cli_no_docs"

func ldflags(version string) string { return "-s -w -X main.version=" + version }

func main() {
	version := flag.String("version", "", "the release version (the VERSION file)")
	dist := flag.String("dist", "dist", "the folder to write into")
	plugin := flag.Bool("plugin", false, "also write dist/plugin, the marketplace + plugin folder")
	root := flag.String("root", ".", "the repository to build")
	flag.Parse()
	if err := run(*root, *dist, *version, *plugin); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(root, dist, version string, plugin bool) error {
	if version == "" {
		return errors.New("no -version")
	}
	bins, err := buildAll(root, filepath.Join(dist, "build"), version)
	if err != nil {
		return err
	}
	if err := packageAll(root, dist, version, bins); err != nil {
		return err
	}
	fmt.Printf("release: archives, checksums.txt and homebrew/Casks/bimri-hook.rb in %s\n", dist)
	if plugin {
		dir := filepath.Join(dist, "plugin")
		if err := pluginFolder(root, dir, bins); err != nil {
			return err
		}
		fmt.Printf("release: the plugin in %s\n", dir)
	}
	return nil
}

// buildAll builds the programs of every platform into out/<os>-<arch>/ and
// returns those folders by platform.
func buildAll(root, out, version string) (map[platform]string, error) {
	dirs := map[platform]string{}
	for _, p := range platforms {
		dir, err := filepath.Abs(filepath.Join(out, p.String()))
		if err != nil {
			return nil, err
		}
		for _, prog := range programs {
			pkg, tags := source(prog)
			cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-tags", tags,
				"-ldflags", ldflags(version), "-o", filepath.Join(dir, p.exe(prog)), pkg)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOOS="+p.OS, "GOARCH="+p.Arch, "CGO_ENABLED=0", "GOFLAGS=")
			if msg, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("go build %s for %s: %v\n%s", prog, p, err, msg)
			}
		}
		dirs[p] = dir
	}
	return dirs, nil
}

// file is one archived file: its name in the archive, its bytes, its mode.
type file struct {
	name string
	data []byte
	mode int64
}

// packageAll writes the archives (the four programs, LICENSE, README.md),
// checksums.txt and the Homebrew cask; bins are Build's folders.
func packageAll(root, dist, version string, bins map[platform]string) error {
	docs, err := readFiles(root, "LICENSE", "README.md")
	if err != nil {
		return err
	}
	sums := map[string]string{}
	for _, p := range platforms {
		var files []file
		for _, prog := range programs {
			exe, err := os.ReadFile(filepath.Join(bins[p], p.exe(prog)))
			if err != nil {
				return err
			}
			files = append(files, file{p.exe(prog), exe, 0o755})
		}
		files = append(files, docs...)
		var data []byte
		if p.OS == "windows" {
			data, err = zipFiles(files)
		} else {
			data, err = tarGz(files)
		}
		if err != nil {
			return err
		}
		name := p.archiveName(version)
		if err := os.WriteFile(filepath.Join(dist, name), data, 0o644); err != nil {
			return err
		}
		sums[name] = sha256Hex(data)
	}
	if err := os.WriteFile(filepath.Join(dist, "checksums.txt"), checksums(sums), 0o644); err != nil {
		return err
	}
	cask, err := cask(version, sums)
	if err != nil {
		return err
	}
	casks := filepath.Join(dist, "homebrew", "Casks")
	if err := os.MkdirAll(casks, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(casks, "bimri-hook.rb"), cask, 0o644)
}

func readFiles(root string, names ...string) ([]file, error) {
	var out []file
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			return nil, err
		}
		out = append(out, file{n, b, 0o644})
	}
	return out, nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// checksums is sha256sum's format, sorted by name: `sha256sum -c` checks it.
func checksums(sums map[string]string) []byte {
	var names []string
	for n := range sums {
		names = append(names, n)
	}
	slices.Sort(names)
	var b bytes.Buffer
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return b.Bytes()
}

// tarGz archives files in order, with a fixed time and owner, in a gzip
// stream that names no file and no time.
func tarGz(files []file) ([]byte, error) {
	var b bytes.Buffer
	gz, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: epoch,
			Typeflag: tar.TypeReg, Uname: "root", Gname: "root", Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func zipFiles(files []file) ([]byte, error) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: epoch}
		h.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// caskTemplate is the Homebrew cask (macOS and Linux): the archive of the
// machine's platform, checked against its SHA-256.
var caskTemplate = template.Must(template.New("cask").Parse(`cask "bimri-hook" do
  version "{{.Version}}"

  on_macos do
    on_arm do
      url "https://github.com/bimri/bimri-hook/releases/download/v#{version}/bimri-hook_#{version}_darwin_arm64.tar.gz"
      sha256 "{{index .Sums "darwin_arm64"}}"
    end
    on_intel do
      url "https://github.com/bimri/bimri-hook/releases/download/v#{version}/bimri-hook_#{version}_darwin_amd64.tar.gz"
      sha256 "{{index .Sums "darwin_amd64"}}"
    end
  end
  on_linux do
    on_arm do
      url "https://github.com/bimri/bimri-hook/releases/download/v#{version}/bimri-hook_#{version}_linux_arm64.tar.gz"
      sha256 "{{index .Sums "linux_arm64"}}"
    end
    on_intel do
      url "https://github.com/bimri/bimri-hook/releases/download/v#{version}/bimri-hook_#{version}_linux_amd64.tar.gz"
      sha256 "{{index .Sums "linux_amd64"}}"
    end
  end

  name "bimri-hook"
  desc "Persistent, self-maintaining memory for Claude Code"
  homepage "https://github.com/bimri/bimri-hook"
{{range .Programs}}
  binary "{{.}}"{{end}}

  postflight do
    if OS.mac?{{range .Programs}}
      system_command "/usr/bin/xattr", args: ["-dr", "com.apple.quarantine", "#{staged_path}/{{.}}"]{{end}}
    end
  end
end
`))

// cask is the Homebrew cask of version, from the archives' checksums.
func cask(version string, sums map[string]string) ([]byte, error) {
	bySlot := map[string]string{}
	for _, p := range platforms {
		if p.OS != "windows" {
			bySlot[p.OS+"_"+p.Arch] = sums[p.archiveName(version)]
		}
	}
	var b bytes.Buffer
	err := caskTemplate.Execute(&b, struct {
		Version  string
		Sums     map[string]string
		Programs []string
	}{version, bySlot, programs})
	return b.Bytes(), err
}

// pluginFolder writes dir, the marketplace + plugin folder a release publishes
// (the release branch): the plugin's manifest, hooks, dispatcher and
// fallback launcher from the repository, the four programs of each of
// the six platforms at their PluginPath, and a marketplace whose one
// plugin is the folder itself.
func pluginFolder(root, dir string, bins map[platform]string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	copies := []struct {
		from, to string
		mode     os.FileMode
	}{
		{".claude-plugin/plugin.json", ".claude-plugin/plugin.json", 0o644},
		{"hooks/hooks.json", "hooks/hooks.json", 0o644},
		{"bin/bimri-hook", "bin/bimri-hook", 0o755},
		{"scripts/launch.sh", "scripts/launch.sh", 0o755},
		{"VERSION", "VERSION", 0o644},
		{"LICENSE", "LICENSE", 0o644},
		{"README.md", "README.md", 0o644},
		{".mcp.json", ".mcp.json", 0o644}, // the MCP server, once the plugin declares one
	}
	for _, c := range copies {
		if err := copyFile(filepath.Join(root, c.from), filepath.Join(dir, c.to), c.mode); err != nil {
			if errors.Is(err, os.ErrNotExist) && c.from == ".mcp.json" {
				continue
			}
			return err
		}
	}
	if err := copyTree(filepath.Join(root, "skills"), filepath.Join(dir, "skills")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, p := range platforms {
		for _, prog := range programs {
			if err := copyFile(filepath.Join(bins[p], p.exe(prog)), filepath.Join(dir, p.pluginPath(prog)), 0o755); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(dir, ".claude-plugin", "marketplace.json"), []byte(releaseMarketplace), 0o644)
}

// releaseMarketplace is the marketplace of the release folder: the plugin
// is the folder itself.
const releaseMarketplace = `{
  "name": "bimri",
  "owner": {
    "name": "bimri"
  },
  "metadata": {
    "description": "bimri-hook, built for every platform: nothing to install but the plugin."
  },
  "plugins": [
    {
      "name": "bimri-hook",
      "source": "./",
      "description": "Persistent project memory for Claude Code: one bimri.md per workspace, loaded at session start and kept up to date by a fast Go hook.",
      "category": "productivity"
    }
  ]
}
`

func copyFile(from, to string, mode os.FileMode) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		return err
	}
	return os.Chmod(to, mode) // whatever the umask
}

func copyTree(from, to string) error {
	if _, err := os.Stat(from); err != nil {
		return err
	}
	return filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		return copyFile(path, filepath.Join(to, rel), 0o644)
	})
}
