package install

// Where each client keeps its files in a scope, and one install, uninstall
// and check for them all.

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/wiring"
)

// location is where a client keeps its files: its JSON file and
// bimri-hook's own file, if it takes one, under the workspace and under
// the client's user folder, which is $env, else dflt in the home folder.
type location struct {
	env, dflt     string
	project, user [2]string
}

var locations = map[string]location{
	"claude": {"CLAUDE_CONFIG_DIR", ".claude", [2]string{".claude/settings.json"}, [2]string{"settings.json"}},
	"codex":  {"CODEX_HOME", ".codex", [2]string{".codex/hooks.json"}, [2]string{"hooks.json"}},
	"gemini": {"GEMINI_CLI_HOME", "", [2]string{".gemini/settings.json"}, [2]string{".gemini/settings.json"}},
	// OpenCode reads ~/.config/opencode on every platform.
	"opencode": {"XDG_CONFIG_HOME", ".config", [2]string{"opencode.json", ".opencode/plugins/bimri-hook.js"},
		[2]string{"opencode/opencode.json", "opencode/plugins/bimri-hook.js"}},
	// Copilot loads every *.json of its hooks folder.
	"copilot": {"COPILOT_HOME", ".copilot", [2]string{".github/mcp.json", ".github/hooks/bimri-hook.json"},
		[2]string{"mcp-config.json", "hooks/bimri-hook.json"}},
	"cursor": {"HOME", "", [2]string{".cursor/hooks.json"}, [2]string{".cursor/hooks.json"}},
}

// CodexHome is Codex's own folder: $CODEX_HOME, else ~/.codex.
func CodexHome() string { return workspace.UserDir("CODEX_HOME", ".codex") }

// Places is where one client's wiring lives in one scope.
type Places struct {
	Client  wiring.Client
	File    SettingsFile // its JSON file: the hooks, the MCP server, or both
	Own     string       // bimri-hook's own file, "" when the client takes none
	receipt string       // the receipt of what install added: beside File, or in .claude (which git ignores) at project scope
	folders [][2]string  // the folders above Own that install may create, innermost first, with the receipt's name for each
}

// Hooks is the file that runs bimri-hook's hooks.
func (p Places) Hooks() string { return cmp.Or(p.Own, p.File.Path) }

// PlacesFor is where cl's wiring lives in scope, for the workspace root.
func PlacesFor(cl wiring.Client, scope, root string) (Places, error) {
	loc := locations[cl.Agent]
	p := Places{Client: cl}
	claude := cl.Agent == wiring.Claude.Agent
	var names [2]string
	dir := root
	switch {
	case scope == ScopeProject:
		names = loc.project
	case scope == scopeLocal && claude:
		names = [2]string{".claude/settings.local.json"}
	case scope == ScopeUser:
		if dir = workspace.UserDir(loc.env, loc.dflt); dir == "" && claude {
			return p, errors.New("no home folder for the user's Claude Code settings")
		} else if dir == "" {
			return p, fmt.Errorf("no home folder for %s's config (set %s)", cl.Name, loc.env)
		}
		names = loc.user
	case claude:
		return p, fmt.Errorf("--scope %q is not one of %s", scope, strings.Join(Scopes, ", "))
	default:
		return p, fmt.Errorf("--scope %q: %s has project and user config", scope, cl.Name)
	}
	p.File = SettingsFile{scope, filepath.Join(dir, names[0])}
	p.receipt = p.File.Path + ".bimri-receipt"
	if name := filepath.Base(p.File.Path); scope == ScopeProject && !claude {
		if !strings.HasPrefix(name, cl.Agent) {
			name = cl.Agent + "-" + name
		}
		p.receipt = filepath.Join(root, ".claude", name+".bimri-receipt")
	}
	if names[1] != "" {
		p.Own = filepath.Join(dir, names[1])
		inner := filepath.Dir(p.Own)
		p.folders = [][2]string{{filepath.Base(inner) + " folder", inner}, {cl.Agent + " folder", filepath.Dir(inner)}}
	}
	return p, nil
}

// Request is what install or uninstall is asked to do.
type Request struct {
	Client  wiring.Client
	Root    string // the workspace
	Scope   string
	Binary  string       // --binary, or ""
	Git     bool         // Claude Code: also the merge driver in the repository
	NoTrust bool         // Codex: leave the hooks to its /hooks review
	Purge   *store.Store // uninstall: also the memory's side files
}

// Install wires the binary (--binary, or BinaryFor's) into the client's
// files in the scope, with a receipt of what it added (Codex: also its
// config.toml, with the hooks' trust unless NoTrust; Claude Code: then
// --git, which fails before anything is written), and says what it did.
// A file where bimri-hook's own goes (OpenCode's plugin, Copilot's hooks
// file) that is not bimri-hook's is refused.
func Install(w io.Writer, q Request) error {
	binary, err := BinaryFor(q.Scope, q.Binary)
	if err != nil {
		return err
	}
	cl, command := q.Client, wiring.Command{Binary: binary}
	f, repo, prev, err := begin(q)
	if err != nil {
		return err
	} else if prev == nil {
		prev = &wiring.Receipt{}
	}
	if f.ownTaken {
		return fmt.Errorf("%s is not bimri-hook's %s: rename it, then try again", f.Own, cl.OwnName)
	}
	var want []byte
	if f.Own != "" {
		want = cl.Own(command)
	}
	after, receipt, changed, err := cl.Install(f.data, command, *prev)
	if err != nil {
		return fmt.Errorf("%s: %w", f.File.Path, err)
	}
	codex := ""
	if cl.Agent == wiring.Codex.Agent {
		if codex, err = wireCodex(f, q.Root, after, binary, q.NoTrust); err != nil {
			return err
		}
	}
	for _, folder := range f.folders {
		_, err := os.Stat(folder[1])
		receipt.Note(folder[0], err == nil)
	}
	ownChanged := string(f.own) != string(want)
	if changed || ownChanged {
		err = writeReceipt(f.receipt, receipt)
		if err == nil && ownChanged {
			err = writeReplacing(f.Own, want)
		}
		if err == nil && changed {
			err = writeReplacing(f.File.Path, after)
		}
		if err != nil {
			return err
		}
	}
	if cl.Agent == wiring.Claude.Agent {
		return installedClaude(w, q, repo, f.File, command, f.Wiring, changed)
	}
	verb, mcp := inspect.Pick(changed || ownChanged, "wired", "already wired"), ""
	if cl.MCPKey != "" {
		mcp = fmt.Sprintf(" and its MCP server %q", wiring.MCPServer)
		if f.Own != "" {
			mcp += " in " + f.File.Path
		}
	}
	fmt.Fprintf(w, "%s: %s %s (%s)%s%s\n", cl.Name, verb, f.Hooks(), EventList(cl.Events), mcp, notes[cl.Agent])
	if q.Scope == ScopeProject && trustNotes[cl.Agent] != "" {
		fmt.Fprintf(w, "%s: "+trustNotes[cl.Agent]+"\n", cl.Name, filepath.Dir(f.Hooks()))
	}
	fmt.Fprint(w, codex)
	return workspaceNotes(w, q.Root, q.Scope, f.File.Path, binary, "--scope user")
}

// notes end a client's install line; trustNotes follow at project scope.
var (
	notes      = map[string]string{"cursor": ", from Cursor's documentation: not tried on a Cursor client"}
	trustNotes = map[string]string{
		"gemini":  "Gemini reads %s only in a folder you trust, and warns once before it runs a project's new hooks",
		"copilot": "Copilot reads %s only in a folder you trust (its first-run dialog); a copilot -p in another skips them without a word",
	}
)

// Uninstall takes out what Install put in, guided by the receipt, and
// says so; Claude Code: also --git and, with Purge, the side files.
func Uninstall(w io.Writer, q Request) error {
	cl := q.Client
	f, repo, r, err := begin(q)
	if err != nil {
		return err
	}
	after, remove, changed, err := cl.Uninstall(f.data, r)
	if err != nil {
		return fmt.Errorf("%s: %w", f.File.Path, err)
	}
	configChanged := false
	if cl.Agent == wiring.Codex.Agent {
		if configChanged, err = unwireCodex(f, q.Root); err != nil {
			return err
		}
	}
	claude := cl.Agent == wiring.Claude.Agent
	if f.own != nil {
		err = os.Remove(f.Own) // it, the file and the receipt are there: read just now
	}
	switch {
	case err != nil:
	case remove:
		err = os.Remove(f.File.Path)
		if f.Own == "" && !claude {
			_ = os.Remove(filepath.Dir(f.File.Path)) // only when empty
		}
	case changed:
		err = writeReplacing(f.File.Path, after)
	}
	if err == nil && r != nil {
		err = os.Remove(f.receipt)
		if !claude {
			_ = os.Remove(filepath.Dir(f.receipt))
		}
	}
	for _, folder := range f.folders {
		if err == nil && r.Made(folder[0]) {
			_ = os.Remove(folder[1]) // only when empty: nothing of the user's goes
		}
	}
	if err != nil {
		return err
	}
	paths := inspect.Pick(f.Own != "", f.Own+" and "+f.File.Path, f.File.Path)
	switch {
	case claude:
		return uninstalledClaude(w, q, repo, f.File, f.Wiring, changed)
	case cl.Agent == wiring.Codex.Agent && (changed || configChanged):
		fmt.Fprintf(w, "Codex: unwired %s, and took bimri-hook's trust and MCP server out of Codex's config.toml where they were\n", paths)
	case changed || f.own != nil:
		fmt.Fprintf(w, "%s: took bimri-hook's wiring out of %s\n", cl.Name, paths)
	default:
		fmt.Fprintf(w, "%s: nothing of bimri-hook's in %s\n", cl.Name, paths)
	}
	return nil
}

// begin reads what Install and Uninstall start from: the client's files
// in the scope, the repository's top for --git, the receipt (or nil).
func begin(q Request) (f Status, repo string, r *wiring.Receipt, err error) {
	if f = Check(q.Client, q.Scope, q.Root); f.Err != nil {
		return f, "", nil, f.Err
	}
	if repo, err = gitTop(q.Git, q.Root); err == nil {
		r, err = readReceipt(f.receipt)
	}
	return f, repo, r, err
}

// Status is what one client's files in one scope hold of bimri-hook's.
type Status struct {
	Places
	wiring.Wiring
	Events []string // the events that run bimri-hook's hook: its JSON file's, or the client's when its own file is ours
	Err    error    // a file cannot be read or is not the client's
	// Codex: its hooks, those it will skip, whether it reads the project.
	States, Skipped  []wiring.CodexHookState
	ProjectUntrusted bool

	data, own []byte // the JSON file, and bimri-hook's own file when it is ours
	ownTaken  bool   // a file not bimri-hook's is where its own goes
}

// Check reads cl's wiring in scope; a scope with no place has Err and
// no File.Path.
func Check(cl wiring.Client, scope, root string) Status {
	p, err := PlacesFor(cl, scope, root)
	st := Status{Places: p, Err: err}
	if err != nil {
		st.File.Scope = scope
		return st
	}
	if st.data, _, err = ReadOptional(p.File.Path); err != nil {
		st.Err = fmt.Errorf("%s cannot be read: %w", p.File.Path, err)
		return st
	}
	if st.Wiring, err = cl.Inspect(st.data); err != nil {
		st.Err = fmt.Errorf("%s: %w", p.File.Path, err)
		return st
	}
	st.Events, _ = st.Wiring.Events(cl.Events)
	if p.Own != "" {
		own, exists, err := ReadOptional(p.Own)
		switch {
		case err != nil:
			st.Err = err
		case exists && cl.IsOwn(own):
			st.own, st.Events = own, strings.Split(EventList(cl.Events), ", ")
		default:
			st.ownTaken = exists
		}
	}
	if st.Err == nil && cl.Agent == wiring.Codex.Agent {
		st.Err = checkCodex(&st, root)
	}
	return st
}

// EventList names events for a message: "SessionStart, Stop".
func EventList(events []wiring.Event) string {
	names := make([]string, len(events))
	for i, e := range events {
		names[i] = e.Name
	}
	return strings.Join(names, ", ")
}
