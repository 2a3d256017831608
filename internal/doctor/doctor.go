// Package doctor checks an installation: one line a check, in the order
// a person would fix things. Only FAIL (memory does not work) makes
// doctor exit 1; WARN: it works less well than it could.
package doctor

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/bimri/bimri-hook/internal/config"
	"github.com/bimri/bimri-hook/internal/event"
	"github.com/bimri/bimri-hook/internal/inspect"
	"github.com/bimri/bimri-hook/internal/install"
	"github.com/bimri/bimri-hook/internal/workspace"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/bimri/bimri-hook/wiring"
)

const (
	statusOK   = "OK"
	statusWarn = "WARN"
	statusFail = "FAIL"
)

// Options say what doctor examines.
type Options struct {
	Root       string // the workspace, absolute
	ConfigPath string // --config or $BIMRI_CONFIG, or "" for the workspace's
	Binary     string // the one hooks tell the agent to run
	Version    string
}

type doctor struct {
	w      io.Writer
	root   string
	repo   bool // root is in a git work tree
	failed int
}

// Report runs every check and prints one line for each; the error counts
// the checks that failed.
func Report(w io.Writer, opt Options) error {
	d := &doctor{w: w, root: opt.Root}
	_, code := d.git("rev-parse", "--is-inside-work-tree")
	d.repo = code == 0
	status, detail, fix := binaryHealth(opt.Binary, d.root)
	d.add(status, "binary", fmt.Sprintf("%s (bimri-hook %s)", detail, opt.Version), fix)
	cfg := d.checkConfig(opt.ConfigPath)
	d.checkClients(cfg.Hooks.LockTimeout)
	if st, err := store.OpenStore(d.root, cfg.Memory, store.StoreOptions{LockTimeout: cfg.Hooks.LockTimeout}); err != nil {
		d.add(statusFail, "workspace", err.Error(), "run doctor in the workspace, or give --dir")
	} else {
		d.checkMemory(st, cfg.Memory)
		d.checkSide(st, "backup", st.Names().Backup, "one is taken before every change")
		d.checkSide(st, "archive", st.Names().Archive, "the first pruned entry starts it")
		d.checkLock(st)
		d.checkGlobal(cfg)
	}
	if d.repo {
		d.checkIgnored()
		d.checkGit()
	}
	if d.failed > 0 {
		return fmt.Errorf("doctor found %s", inspect.Plural(d.failed, "problem", "problems"))
	}
	return nil
}

// add prints one check's line; an OK line has no fix.
func (d *doctor) add(status, name, detail, fix string) {
	if fix != "" {
		detail += " (fix: " + fix + ")"
	}
	fmt.Fprintf(d.w, "%-4s %s: %s\n", status, name, detail)
	if status == statusFail {
		d.failed++
	}
}

// git runs git in the workspace; RunGit gives "" and -1 when it could not.
func (d *doctor) git(args ...string) (string, int) {
	out, code, _ := install.RunGit(d.root, args...)
	return out, code
}

// addNew appends the items list lacks.
func addNew(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}

// binaryHealth says whether a binary named in settings can run. A bare
// name is only warned about when not on PATH: the agent's PATH may differ
// from this shell's.
func binaryHealth(binary, root string) (status, detail, fix string) {
	if !strings.ContainsAny(binary, `/\`) {
		found, err := exec.LookPath(binary)
		if err != nil {
			return statusWarn, binary + " is not on PATH here",
				"put bimri-hook on the PATH the agent runs with, or run bimri-hook install to use its absolute path"
		}
		return statusOK, fmt.Sprintf("%s, found on PATH at %s", binary, found), ""
	}
	path := inspect.Pick(filepath.IsAbs(binary), binary, filepath.Join(root, binary))
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return statusFail, binary + " does not exist", "reinstall bimri-hook, then run bimri-hook install"
	case err != nil:
		return statusFail, fmt.Sprintf("%s cannot be read: %v", binary, err), "fix its permissions"
	case info.IsDir():
		return statusFail, binary + " is a directory", "run bimri-hook install to point at the binary"
	case runtime.GOOS != "windows" && info.Mode().Perm()&0o111 == 0:
		return statusFail, binary + " is not executable", "chmod +x " + binary
	}
	return statusOK, binary, ""
}

// checkClients reports each client's wiring in each of its scopes, Claude
// Code's last, then what Claude Code runs as a whole: the other clients
// are read first, so its missing wiring is a warning where one runs bimri-hook.
func (d *doctor) checkClients(lockTimeout time.Duration) {
	var claude []install.Status
	other := false
	for _, cl := range append(slices.Clone(wiring.Clients), wiring.Claude) {
		for _, scope := range install.Scopes {
			st := install.Check(cl, scope, d.root)
			if cl.Agent != wiring.Claude.Agent {
				other = other || len(st.Events) > 0
			} else if st.Err == nil {
				claude = append(claude, st)
			}
			d.checkClient(st)
		}
	}
	plugin := d.checkWiring(claude, other)
	if workspace.IsOff(d.root) {
		d.add(statusWarn, "switch", "memory is off in this workspace (bimri-hook off): every hook answers nothing, so no session gets or records memory",
			"bimri-hook on")
	}
	d.checkPermission(claude, plugin)
	d.checkLockTimeout(lockTimeout, claude)
}

// checkClient reports in one row the events one client's file runs
// bimri-hook at, those it misses, whether the binaries it names can run
// and, for Codex, whether Codex runs them. Files with nothing of ours
// are left out: most people use one client, and Claude Code's wiring row
// says what runs it.
func (d *doctor) checkClient(st install.Status) {
	cl, hooks, claude := st.Client, st.Hooks(), st.Client.Agent == wiring.Claude.Agent
	name, fix := cl.Agent+" "+st.File.Scope, "bimri-hook install "+inspect.Pick(claude, "", "--agent "+cl.Agent+" ")+"--scope "+st.File.Scope
	switch {
	case st.File.Path == "" && claude: // Claude Code's scope with no place
		d.add(statusWarn, name, st.Err.Error(), "")
		return
	case st.File.Path == "" || (st.Err == nil && len(st.Events) == 0 && !st.MCP):
		return
	case st.Err != nil:
		d.add(statusFail, name, st.Err.Error(), "fix the file or its permissions; "+cl.Name+" cannot use it either"+inspect.Pick(claude, "", ", then "+fix))
		return
	case len(st.Events) == 0:
		d.add(statusWarn, name, fmt.Sprintf("%s registers the MCP server, but %s runs no hook of bimri-hook's", st.File.Path, hooks), fix)
		return
	}
	status, why := statusOK, ""
	var commands, missing, notes []string
	note := func(s, text, f string) { // the first of the worst problems gives the fix
		notes = append(notes, text)
		if rank(s) > rank(status) {
			status, why = s, f
		}
	}
	for _, h := range st.Handlers {
		if !slices.Contains(commands, h.Command) {
			commands = append(commands, h.Command)
			binary, _ := wiring.HookBinary(strings.TrimSuffix(h.Command, " "+cl.Agent))
			if s, text, f := binaryHealth(binary, d.root); s != statusOK {
				note(s, text, f)
			}
		}
	}
	if len(commands) == 0 { // its own file, whole
		commands = []string{wiring.Name + " hook " + cl.Agent}
	}
	detail := fmt.Sprintf("%s runs %s on %s", hooks, strings.Join(commands, " and "), strings.Join(st.Events, ", "))
	for _, e := range cl.Events {
		if !slices.Contains(st.Events, e.Name) {
			missing = append(missing, e.Name)
		}
	}
	if len(missing) > 0 {
		note(statusWarn, "not on "+strings.Join(missing, ", "), fix)
	}
	switch {
	case len(st.Skipped) > 0:
		note(statusFail, fmt.Sprintf("Codex will skip %d of its %d hooks: their hash is not trusted in %s",
			len(st.Skipped), len(st.States), filepath.Join(install.CodexHome(), "config.toml")), fix+", or trust them in Codex's /hooks")
	case len(st.States) > 0:
		detail += ", each hook trusted by Codex"
	case cl.Agent == wiring.Cursor.Agent:
		detail += " (unverified: no Cursor client was tried)"
	}
	if st.ProjectUntrusted {
		note(statusFail, fmt.Sprintf("Codex does not read %s: the project is not trusted in Codex", filepath.Dir(hooks)),
			"run codex in the project once and trust it (or codex exec --trust)")
	}
	if codex := cl.Agent == wiring.Codex.Agent; (cl.MCPKey != "" || codex) && !st.MCP {
		note(statusWarn, fmt.Sprintf("no MCP server %q in %s: the agent records through its shell only", wiring.MCPServer,
			inspect.Pick(codex, "Codex's config.toml", st.File.Path)), fix)
	}
	d.add(status, name, strings.Join(append([]string{detail}, notes...), "; "), why)
}

func rank(status string) int { return strings.Index("OK WARN FAIL", status) }

// checkWiring says whether anything runs bimri-hook in Claude Code, and
// whether twice; plugin: its plugin is on.
func (d *doctor) checkWiring(all []install.Status, other bool) (plugin bool) {
	off := applyPluginPrecedence(all)
	var plugins, commands, via []string
	for _, s := range all {
		plugins = append(plugins, s.Plugins...)
		if len(s.Handlers) > 0 {
			via = append(via, s.File.Scope)
		}
		for _, h := range s.Handlers {
			commands = addNew(commands, h.Command)
		}
	}
	none := len(commands) == 0 && len(plugins) == 0
	switch {
	case none && len(off) > 0:
		d.add(statusWarn, "wiring", "the bimri-hook plugin is turned off here ("+strings.Join(off, "; ")+"), and no settings file runs bimri-hook, so Claude Code never calls it",
			"remove that enabledPlugins entry to turn it back on")
	case none && len(all) == len(install.Scopes) && exists(filepath.Join(d.root, memfile.MemoryName)):
		// Uninstalled with the memory kept is a choice; a settings file
		// doctor could not read leaves it unknown: FAIL below.
		d.add(statusOK, "wiring", "not installed in this workspace; bimri.md kept (uninstall never deletes the memory), and Claude Code neither reads nor updates it until bimri-hook install", "")
	case none:
		d.add(inspect.Pick(other, statusWarn, statusFail), "wiring", "no settings file runs bimri-hook and its plugin is not enabled, so Claude Code never calls it"+inspect.Pick(other, " (another agent here runs it)", ""),
			"bimri-hook install, or bimri-hook install --scope user for every workspace")
	case len(commands) > 0 && len(plugins) > 0:
		d.add(statusWarn, "wiring", fmt.Sprintf("both the plugin (%s) and %s settings run bimri-hook, so every event runs twice", strings.Join(plugins, ", "), strings.Join(via, ", ")),
			"disable the plugin, or bimri-hook uninstall --scope "+strings.Join(via, " and --scope "))
	case len(commands) > 1:
		d.add(statusWarn, "wiring", fmt.Sprintf("settings run %d different bimri-hook commands (%s), so every event runs more than once", len(commands), strings.Join(commands, " | ")),
			"keep one; bimri-hook uninstall --scope SCOPE removes the one in SCOPE ("+strings.Join(via, ", ")+")")
	case len(plugins) > 0:
		d.add(statusOK, "wiring", "the bimri-hook plugin is enabled ("+strings.Join(plugins, ", ")+")", "")
	} // else each settings file that runs it said so in its row
	return len(plugins) > 0
}

// applyPluginPrecedence drops from each scope's Plugins those a more
// specific scope turns off (Claude Code merges enabledPlugins key by key,
// local over project over user), and says where.
func applyPluginPrecedence(all []install.Status) (off []string) {
	rank := map[string]int{install.ScopeUser: 0, install.ScopeProject: 1, "local": 2}
	for i, s := range all {
		var kept []string
		for _, p := range s.Plugins {
			by := ""
			for _, o := range all {
				if rank[o.File.Scope] > rank[s.File.Scope] && slices.Contains(o.PluginsOff, p) {
					by = o.File.Path
				}
			}
			if by == "" {
				kept = append(kept, p)
			} else {
				off = append(off, fmt.Sprintf("%s is enabled in %s and set to false in %s", p, s.File.Path, by))
			}
		}
		all[i].Plugins = kept
	}
	return off
}

// checkPermission: whether rules let the agent run the memory commands
// without asking, and Claude Code applies them; one line per outcome.
func (d *doctor) checkPermission(all []install.Status, plugin bool) {
	var want []string
	for _, s := range all {
		for _, h := range s.Handlers {
			binary, _ := wiring.HookBinary(h.Command)
			want = addNew(want, (wiring.Command{Binary: binary}).Rules()...)
		}
	}
	commands := strings.Join(wiring.MemoryCommands, ", ")
	if plugin {
		d.add(statusOK, "permission", "the plugin's PreToolUse hook approves the agent's bimri-hook "+commands+", with no rule", "")
	} else if len(want) == 0 {
		d.add(statusWarn, "permission", "no permissions.allow rule lets the agent run bimri-hook "+commands+", so it must ask before each", "bimri-hook install")
	}
	var ok, missing, untrusted, untrustedScopes []string
	for _, rule := range want {
		var scopes []string
		for _, s := range all {
			if slices.Contains(s.Rules, rule) {
				scopes = append(scopes, s.File.Scope)
			}
		}
		switch {
		case len(scopes) == 0:
			missing = append(missing, rule)
		case !slices.Contains(scopes, install.ScopeUser) && !install.WorkspaceTrusted(d.root):
			untrusted = append(untrusted, rule)
			untrustedScopes = addNew(untrustedScopes, scopes...)
		default:
			ok = append(ok, fmt.Sprintf("%s (%s settings)", rule, strings.Join(scopes, " and ")))
		}
	}
	if len(ok) > 0 {
		d.add(statusOK, "permission", strings.Join(ok, ", "), "")
	}
	one := len(missing) == 1
	for _, g := range []struct {
		rules             []string
		detail, fix, also string // also: a plugin user's fix, which adds the rules alone (install would wire every event twice)
	}{
		{missing, fmt.Sprintf("no settings allow %s, %s the agent is given, so it must ask before running %s",
			inspect.JoinAnd(missing), inspect.Pick(one, "a command", "commands"), inspect.Pick(one, "it", "them")), "bimri-hook install", "add "},
		{untrusted, fmt.Sprintf("%s %s in the %s settings, which Claude Code applies only once this workspace is trusted, and it is not marked trusted",
			inspect.JoinAnd(untrusted), inspect.Pick(len(untrusted) == 1, "is", "are"), strings.Join(untrustedScopes, " and ")),
			wiring.TrustAdvice(wiring.Command{Binary: wiring.Name}), "accept this workspace's trust dialog in Claude Code, or add "},
	} {
		if len(g.rules) == 0 {
			continue
		} else if plugin {
			q := make([]string, len(g.rules))
			for i, r := range g.rules {
				q[i] = fmt.Sprintf("%q", r)
			}
			g.fix = g.also + inspect.JoinAnd(q) + ` to "permissions"."allow" in ~/.claude/settings.json`
		}
		d.add(statusWarn, "permission", g.detail, g.fix)
	}
}

// checkConfig: a broken config fails every hook; the other checks go on
// with the defaults.
func (d *doctor) checkConfig(path string) config.Config {
	cfg, err := config.Load(path, d.root)
	switch {
	case err != nil:
		d.add(statusFail, "config", err.Error(), "fix or remove the config file")
	case cfg.Path == "":
		d.add(statusOK, "config", fmt.Sprintf("no %s; the %s profile's defaults", config.Name, cfg.Memory.Profile), "")
	default:
		d.add(statusOK, "config", fmt.Sprintf("%s: profile %s, stop policy %s", cfg.Path, cfg.Memory.Profile, cfg.Hooks.StopPolicy), "")
	}
	return cfg
}

// lockHeadroom is a hook's own work beside its lock wait, on a loaded machine.
const lockHeadroom = 2 * time.Second

// checkLockTimeout warns when a hook that waited out lock_timeout would be
// killed at its timeout (60 s when none is set) before it answers.
// SessionEnd caps its own wait; PreToolUse takes no lock.
func (d *doctor) checkLockTimeout(wait time.Duration, all []install.Status) {
	var short []string
	check := func(where, ev string, timeout int) {
		t := time.Duration(timeout) * time.Second
		if t <= 0 {
			t = 60 * time.Second
		}
		if ev != string(event.SessionEnd) && ev != string(event.PreToolUse) && wait+lockHeadroom > t {
			short = append(short, fmt.Sprintf("%s in %s (timeout %s)", ev, where, t))
		}
	}
	plugin := false
	for _, s := range all {
		plugin = plugin || len(s.Plugins) > 0
		for _, h := range s.Handlers {
			check(s.File.Scope+" settings", h.Event, h.Timeout)
		}
	}
	for _, e := range wiring.PluginEvents() {
		if plugin {
			check("the plugin", e.Name, e.Timeout)
		}
	}
	if len(short) > 0 {
		d.add(statusWarn, "lock_timeout", fmt.Sprintf("lock_timeout %s leaves less than %s of the timeout of %s: a hook that waits it out is killed before it answers",
			wait, lockHeadroom, strings.Join(short, ", ")),
			fmt.Sprintf("lower lock_timeout to at most %s below the shortest hook timeout (the default, 2 s, is enough; remember and forget wait longer on their own)", lockHeadroom))
	}
}

func (d *doctor) checkMemory(st *store.Store, cfg memfile.Config) {
	path := st.Path(st.Names().Memory)
	read, err := st.Read()
	switch {
	case err != nil:
		d.add(statusFail, "memory", err.Error(),
			"bimri-hook restore puts the backup back; the next session would set the broken file aside and do the same")
		return
	case !read.Exists:
		d.add(statusOK, "memory", path+" does not exist yet; the next session creates it", "")
		return
	}
	f := read.File
	detail := fmt.Sprintf("%s: %s, %s, %s", path, inspect.Plural(len(f.Entries(1))+len(f.Entries(2)), "entry", "entries"),
		inspect.Plural(len(f.Patterns()), "pattern", "patterns"), inspect.Plural(f.Header.Sessions, "session", "sessions"))
	// Lines read leniently are not problems: the next update rewrites them.
	problems := slices.DeleteFunc(slices.Clone(read.Warnings), func(w memfile.Warning) bool { return w.Converted })
	if converted := len(read.Warnings) - len(problems); converted > 0 {
		detail += fmt.Sprintf("; %s written loosely, converted at the next update", inspect.Plural(converted, "line", "lines"))
	}
	if len(problems) > 0 {
		d.add(statusWarn, "memory", fmt.Sprintf("%s; %d warnings, the first: %s", detail, len(problems), problems[0]),
			"bimri-hook show lists them; fix the lines by hand")
	} else {
		d.add(statusOK, "memory", detail, "")
	}
	if unread := f.Unread(); len(unread) > 0 {
		var where []string
		for _, n := range unread {
			first := ""
			if len(n.Lines) > 0 {
				first = strings.TrimSpace(n.Lines[0])
				if r := []rune(first); len(r) > 60 {
					first = string(r[:60]) + "..."
				}
			}
			where = append(where, fmt.Sprintf("line %d (note %s): %q", n.Line, memfile.NoteID(n), first))
		}
		d.add(statusWarn, "unread", fmt.Sprintf("%s: %s in Tier 2 and 3 not read as entries (they never decay or leave): %s",
			path, inspect.Plural(len(unread), "run of lines", "runs of lines"), strings.Join(where, "; ")),
			"record each as an entry with bimri-hook remember, then remove it with bimri-hook forget NOTE-ID")
	}
	tok := memfile.Estimate(f)
	used := []int{tok.Tiers[0], tok.Tiers[1], tok.Tiers[2], tok.Total}
	budgets := []int{cfg.Budgets[0], cfg.Budgets[1], cfg.Budgets[2], cfg.TotalBudget}
	var parts []string
	status, fix := statusOK, ""
	for i, label := range []string{"tier1", "tier2", "tier3", "total"} {
		parts = append(parts, fmt.Sprintf("%s ~%d/%d", label, used[i], budgets[i]))
		if used[i] > budgets[i] {
			status, fix = statusWarn, "bimri-hook maintain archives the lowest weights now; the next session end does it anyway"
		}
	}
	d.add(status, "tokens", strings.Join(parts, ", ")+" (estimated)"+inspect.Pick(status == statusOK, "", ": over budget"), fix)
}

// checkSide: a backup that does not parse restore would refuse; archive
// lines that do not, search skips.
func (d *doctor) checkSide(st *store.Store, name, file, absent string) {
	path := st.Path(file)
	data, exists, err := install.ReadOptional(path)
	status, detail, fix := statusOK, path+" parses", ""
	switch {
	case err != nil:
		status, detail, fix = statusWarn, fmt.Sprintf("%s cannot be read: %v", path, err), "fix its permissions"
	case !exists:
		detail = "no " + file + " yet; " + absent
	case name == "archive":
		recs, warnings := memfile.ParseArchive(data)
		detail = fmt.Sprintf("%s: %s", path, inspect.Plural(len(recs), "record", "records"))
		if len(warnings) > 0 {
			status, detail, fix = statusWarn, fmt.Sprintf("%s: %d records, %d lines unreadable, the first: %s", path, len(recs), len(warnings), warnings[0]),
				"search skips them; fix the lines by hand if they matter"
		}
	default:
		if _, _, err := memfile.Parse(data); err != nil {
			status, detail, fix = statusWarn, fmt.Sprintf("%s: %v, so restore would refuse it", path, err), "the next change to bimri.md writes a new backup"
		}
	}
	d.add(status, name, detail, fix)
}

// checkLock takes and releases the lock where bimri-hook's files are;
// anywhere else it would leave a state folder behind. The state folder
// must never reach git: in a repository checkIgnored asks git, outside
// one its own .gitignore decides.
func (d *doctor) checkLock(st *store.Store) {
	if !exists(st.StatePath()) && !exists(st.Path(st.Names().Memory)) {
		d.add(statusOK, "lock", "no state folder yet; the first session makes it", "")
		return
	}
	switch err := st.CheckLock(); {
	case err != nil:
		d.add(statusFail, "lock", err.Error(), inspect.Pick(errors.Is(err, store.ErrBusy),
			"a bimri-hook is still running or hung: wait for it, or end that process; the lock is freed when it exits", ""))
	default:
		d.add(statusOK, "lock", filepath.Join(st.StatePath(), "lock")+" can be taken", "")
	}
	rel := filepath.ToSlash(st.Names().State)
	ignore, err := safefile.Read(filepath.Join(st.StatePath(), ".gitignore"), 1<<20)
	switch {
	case d.repo || !exists(st.StatePath()):
	case err == nil && slices.Contains(strings.Fields(string(ignore)), "*"):
		d.add(statusOK, "state", rel+" ignores itself in git", "")
	default:
		d.add(statusWarn, "state", rel+" has no .gitignore holding *, so git would commit it once this is a repository",
			"put a .gitignore holding the line * in "+rel)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// checkGlobal: the hooks skip a broken global memory silently.
func (d *doctor) checkGlobal(cfg config.Config) {
	global, err := workspace.GlobalStore(cfg, time.Now)
	if err != nil {
		return
	}
	path := global.Path(global.Names().Memory)
	switch read, err := global.Read(); {
	case err != nil:
		d.add(statusFail, "global memory", fmt.Sprintf("%s: %v; sessions start without it", path, err),
			"fix it by hand, or put "+global.Names().Backup+" beside it in its place")
	case read.Exists:
		d.add(statusOK, "global memory", fmt.Sprintf("%s: %s", path, inspect.Plural(len(read.File.Entries(1))+len(read.File.Entries(2)), "entry", "entries")), "")
	}
}

// checkIgnored asks git about a name each personal side file's rule
// covers, so a rule written anywhere counts and a committed file does not.
func (d *doctor) checkIgnored() {
	var names []string
	for _, rule := range wiring.IgnoreLines {
		name := strings.ReplaceAll(strings.TrimPrefix(rule, "/"), "*", "1")
		if strings.HasSuffix(name, "/") {
			name += "lock"
		}
		names = append(names, name)
	}
	out, code := d.git(append([]string{"check-ignore", "--"}, names...)...)
	if code < 0 || code > 1 {
		return
	}
	var open []string
	for i, name := range names {
		if !slices.Contains(strings.Fields(out), name) {
			open = append(open, wiring.IgnoreLines[i])
		}
	}
	if len(open) == 0 {
		d.add(statusOK, "ignored", "git ignores every personal side file ("+strings.Join(wiring.IgnoreLines, " ")+")", "")
		return
	}
	d.add(statusWarn, "ignored", "git would commit these personal side files: "+strings.Join(open, " "),
		"start a session (it adds them to .git/info/exclude), or add the lines to .gitignore; a file already committed needs git rm --cached")
}

func (d *doctor) checkGit() {
	attr, code := d.git("check-attr", "merge", "--", memfile.MemoryName)
	if code != 0 {
		return
	}
	hasAttr := strings.HasSuffix(strings.TrimSpace(attr), ": merge: "+wiring.MergeDriver)
	driver, code := d.git("config", "--get", "merge."+wiring.MergeDriver+".driver")
	hasDriver := code == 0 && strings.TrimSpace(driver) != ""
	// git reads a removed .gitattributes from the index until the removal
	// is committed (uninstall --git).
	removed := func() bool {
		out, _ := d.git("status", "--porcelain", "--", ":/.gitattributes")
		return strings.HasPrefix(out, " D ")
	}
	switch {
	case hasAttr && hasDriver:
		d.add(statusOK, "git", "bimri.md merges with the bimri merge driver: "+strings.TrimSpace(driver), "")
	case hasAttr && removed():
		d.add(statusOK, "git", ".gitattributes is removed but still in git's index, which gives bimri.md the bimri merge driver until the removal is committed (git commit .gitattributes); then bimri.md merges line by line", "")
	case hasAttr:
		d.add(statusWarn, "git", ".gitattributes gives bimri.md the bimri merge driver, but this clone does not define it, so git merges it line by line",
			"bimri-hook install --git")
	case hasDriver:
		d.add(statusWarn, "git", "the bimri merge driver is defined, but .gitattributes does not give it to bimri.md", "bimri-hook install --git")
	default:
		d.add(statusOK, "git", "bimri.md merges line by line; if the team shares it, bimri-hook install --git merges it entry by entry", "")
	}
}
