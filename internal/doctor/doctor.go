// Package doctor checks an installation: the binary, the settings that
// wire it, the permission rule, the config, the memory files, the lock,
// the state folder, the global memory and git's merge driver. Each check
// gives one Check; the command prints them.
package doctor

// Over 500 lines: one check per thing that can be wrong, each short; they
// share the doctor's report, and splitting them by file would scatter one
// list that reads top to bottom in the order doctor prints it.

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

// Check outcomes. Only FAIL makes doctor exit 1: it means memory does not
// work; WARN means it works less well than it could.
const (
	statusOK   = "OK"
	statusWarn = "WARN"
	statusFail = "FAIL"
)

// Check is one line of doctor's report.
type Check struct {
	Status string
	Name   string
	Detail string
	Fix    string // what to do about a WARN or FAIL
}

// Options say what doctor examines.
type Options struct {
	Root       string // the workspace, absolute
	ConfigPath string // the config file given (--config, $BIMRI_CONFIG), or "" for the workspace's
	Binary     string // this binary, the one hooks tell the agent to run
	Version    string // this binary's version
}

// Report runs every check and prints one line for each; the error counts
// the checks that failed.
func Report(w io.Writer, opt Options) error {
	d := &doctor{root: opt.Root, configFlag: opt.ConfigPath, binary: opt.Binary, version: opt.Version}
	checks := d.run()
	Print(w, checks)
	failed := 0
	for _, ch := range checks {
		if ch.Status == statusFail {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("doctor found %s", inspect.Plural(failed, "problem", "problems"))
	}
	return nil
}

// doctor holds what the checks share.
type doctor struct {
	root       string
	configFlag string // --config, if given
	binary     string
	version    string
	checks     []Check
}

func (d *doctor) add(status, name, detail, fix string) {
	d.checks = append(d.checks, Check{Status: status, Name: name, Detail: detail, Fix: fix})
}

func (d *doctor) run() []Check {
	d.checkBinary()
	wired := d.checkSettings()
	d.checkPermission(wired)
	cfg := d.checkConfig()
	d.checkLockTimeout(cfg.Hooks.LockTimeout, wired)
	d.checkFiles(cfg)
	d.checkIgnored()
	d.checkGit()
	d.checkAgents()
	return d.checks
}

// checkBinary: the binary this doctor is, the one hooks tell the agent to
// run.
func (d *doctor) checkBinary() {
	status, detail, fix := binaryHealth(d.binary, d.root)
	d.add(status, "binary", fmt.Sprintf("%s (bimri-hook %s)", detail, d.version), fix)
}

// binaryHealth says whether a binary named in settings can run: an
// absolute path must be an executable file; a bare name is looked up on
// PATH, and only warned about when missing, because Claude Code's PATH
// may differ from this shell's.
func binaryHealth(binary, root string) (status, detail, fix string) {
	if !strings.ContainsAny(binary, `/\`) {
		found, err := exec.LookPath(binary)
		if err != nil {
			return statusWarn, fmt.Sprintf("%s is not on PATH here", binary),
				"put bimri-hook on the PATH Claude Code runs with, or run bimri-hook install to use its absolute path"
		}
		return statusOK, fmt.Sprintf("%s, found on PATH at %s", binary, found), ""
	}
	path := binary
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return statusFail, fmt.Sprintf("%s does not exist", binary), "reinstall bimri-hook, then run bimri-hook install"
	case err != nil:
		return statusFail, fmt.Sprintf("%s cannot be read: %v", binary, err), "fix its permissions"
	case info.IsDir():
		return statusFail, fmt.Sprintf("%s is a directory", binary), "run bimri-hook install to point at the binary"
	case runtime.GOOS != "windows" && info.Mode().Perm()&0o111 == 0:
		return statusFail, fmt.Sprintf("%s is not executable", binary), "chmod +x " + binary
	}
	return statusOK, binary, ""
}

// scopeWiring is what one settings file holds of bimri-hook's.
type scopeWiring struct {
	file   install.SettingsFile
	wiring wiring.Wiring
}

// checkSettings reports each scope's settings and, last, whether anything
// at all makes Claude Code run bimri-hook.
func (d *doctor) checkSettings() []scopeWiring {
	var all []scopeWiring
	for _, scope := range install.Scopes {
		file, err := install.SettingsFor(scope, d.root)
		name := "settings (" + scope + ")"
		if err != nil {
			d.add(statusWarn, name, err.Error(), "")
			continue
		}
		data, exists, err := install.ReadOptional(file.Path)
		if err != nil {
			d.add(statusFail, name, fmt.Sprintf("%s cannot be read: %v", file.Path, err), "fix its permissions")
			continue
		}
		w, err := wiring.Inspect(data)
		if err != nil {
			d.add(statusFail, name, fmt.Sprintf("%s: %v", file.Path, err), "fix the file; Claude Code cannot use it either")
			continue
		}
		all = append(all, scopeWiring{file, w})
		d.checkScope(name, file, exists, w)
	}

	off := applyPluginPrecedence(all)
	var plugins []string
	var commands []string
	var via []string
	for _, s := range all {
		plugins = append(plugins, s.wiring.Plugins...)
		if len(s.wiring.Handlers) > 0 {
			via = append(via, s.file.Scope)
		}
		for _, h := range s.wiring.Handlers {
			if !slices.Contains(commands, h.Command) {
				commands = append(commands, h.Command)
			}
		}
	}
	switch {
	case len(commands) == 0 && len(plugins) == 0 && len(off) > 0:
		d.add(statusWarn, "wiring", "the bimri-hook plugin is turned off here ("+strings.Join(off, "; ")+"), and no settings file runs bimri-hook, so Claude Code never calls it",
			"remove that enabledPlugins entry to turn it back on")
	case len(commands) == 0 && len(plugins) == 0 && len(all) == len(install.Scopes) &&
		exists(filepath.Join(d.root, memfile.MemoryName)):
		// Uninstalled, or never installed here, with the memory kept:
		// a state the user chose, not a broken one. (A settings file
		// doctor could not read leaves the wiring unknown: FAIL below.)
		d.add(statusOK, "wiring", "not installed in this workspace; bimri.md kept (uninstall never deletes the memory), and Claude Code neither reads nor updates it until bimri-hook install", "")
	case len(commands) == 0 && len(plugins) == 0:
		d.add(statusFail, "wiring", "no settings file runs bimri-hook and its plugin is not enabled, so Claude Code never calls it",
			"bimri-hook install, or bimri-hook install --scope user for every workspace")
	case len(commands) > 0 && len(plugins) > 0:
		d.add(statusWarn, "wiring", fmt.Sprintf("both the plugin (%s) and %s settings run bimri-hook, so every event runs twice", strings.Join(plugins, ", "), strings.Join(via, ", ")),
			"disable the plugin, or bimri-hook uninstall --scope "+strings.Join(via, " and --scope "))
	case len(commands) > 1:
		d.add(statusWarn, "wiring", fmt.Sprintf("settings run %d different bimri-hook commands (%s), so every event runs more than once", len(commands), strings.Join(commands, " | ")),
			"keep one; bimri-hook uninstall --scope SCOPE removes the one in SCOPE ("+strings.Join(via, ", ")+")")
	case len(plugins) > 0:
		d.add(statusOK, "wiring", "the bimri-hook plugin is enabled ("+strings.Join(plugins, ", ")+")", "")
	default:
		d.add(statusOK, "wiring", "Claude Code runs bimri-hook through the "+strings.Join(via, " and ")+" settings", "")
	}
	if workspace.IsOff(d.root) {
		d.add(statusWarn, "switch", "memory is off in this workspace (bimri-hook off): every hook answers nothing, so no session gets or records memory",
			"bimri-hook on")
	}
	return all
}

// applyPluginPrecedence drops from each scope's Plugins those a more
// specific scope turns off: Claude Code merges enabledPlugins key by key,
// local settings over project over user. It returns, for each plugin so
// turned off, where.
func applyPluginPrecedence(all []scopeWiring) (off []string) {
	rank := map[string]int{install.ScopeUser: 0, install.ScopeProject: 1, "local": 2}
	for i := range all {
		var kept []string
		for _, p := range all[i].wiring.Plugins {
			by := ""
			for _, o := range all {
				if rank[o.file.Scope] > rank[all[i].file.Scope] && slices.Contains(o.wiring.PluginsOff, p) {
					by = o.file.Path
				}
			}
			if by == "" {
				kept = append(kept, p)
				continue
			}
			off = append(off, fmt.Sprintf("%s is enabled in %s and set to false in %s", p, all[i].file.Path, by))
		}
		all[i].wiring.Plugins = kept
	}
	return off
}

// checkScope reports one settings file: the events it wires, the events it
// misses, and whether the binary its hooks run can run.
func (d *doctor) checkScope(name string, file install.SettingsFile, exists bool, w wiring.Wiring) {
	switch {
	case !exists:
		d.add(statusOK, name, file.Path+" does not exist", "")
		return
	case len(w.Handlers) == 0:
		detail := file.Path + " runs nothing of bimri-hook's"
		if len(w.Plugins) > 0 {
			detail += "; it enables the plugin " + strings.Join(w.Plugins, ", ")
		}
		d.add(statusOK, name, detail, "")
		return
	}
	status, fix := statusOK, ""
	var notes []string
	var seen []string
	for _, h := range w.Handlers {
		if slices.Contains(seen, h.Command) {
			continue
		}
		seen = append(seen, h.Command)
		binary, ok := wiring.HookBinary(h.Command)
		if !ok {
			notes = append(notes, fmt.Sprintf("cannot tell which binary %q runs", h.Command))
			status, fix = worse(status, statusWarn), "bimri-hook install --scope "+file.Scope
			continue
		}
		s, detail, f := binaryHealth(binary, d.root)
		if s != statusOK {
			notes = append(notes, detail)
			if worse(status, s) != status {
				fix = f
			}
			status = worse(status, s)
		}
	}
	detail := fmt.Sprintf("%s runs %s on %s", file.Path, strings.Join(seen, " and "), strings.Join(w.Events(), ", "))
	if missing := w.Missing(); len(missing) > 0 {
		detail += "; not on " + strings.Join(missing, ", ")
		if status == statusOK {
			status, fix = statusWarn, "bimri-hook install --scope "+file.Scope
		}
	}
	if len(notes) > 0 {
		detail += "; " + strings.Join(notes, "; ")
	}
	d.add(status, name, detail, fix)
}

// worse returns the more serious of two statuses.
func worse(a, b string) string {
	rank := map[string]int{statusOK: 0, statusWarn: 1, statusFail: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// checkPermission: the rules that let the agent run each memory command
// the hooks teach it (wiring.MemoryCommands) without asking, for the
// binary the hooks run, and whether Claude Code applies them: one check
// per rule.
func (d *doctor) checkPermission(all []scopeWiring) {
	var want []string // rules the wired binaries need
	need := func(c wiring.Command) {
		for _, rule := range c.Rules() {
			if !slices.Contains(want, rule) {
				want = append(want, rule)
			}
		}
	}
	for _, s := range all {
		for _, h := range s.wiring.Handlers {
			if binary, ok := wiring.HookBinary(h.Command); ok {
				need(wiring.Command{Binary: binary})
			}
		}
	}
	where := func(rule string) []install.SettingsFile {
		var files []install.SettingsFile
		for _, s := range all {
			if slices.Contains(s.wiring.Rules, rule) {
				files = append(files, s.file)
			}
		}
		return files
	}
	plugin := false
	for _, s := range all {
		plugin = plugin || len(s.wiring.Plugins) > 0
	}
	if plugin {
		// The plugin's hooks tell the agent to run the plugin's
		// bin/bimri-hook by its bare name, and its PreToolUse hook
		// approves exactly those commands: no rule is needed.
		d.add(statusOK, "permission", "the plugin's PreToolUse hook approves the agent's bimri-hook "+strings.Join(wiring.MemoryCommands, ", ")+", with no rule", "")
		if len(want) == 0 {
			return
		}
	}
	if len(want) == 0 {
		d.add(statusWarn, "permission", "no permissions.allow rule lets the agent run bimri-hook "+strings.Join(wiring.MemoryCommands, ", ")+", so it must ask before each",
			"bimri-hook install")
		return
	}
	var untrusted []string // rules the client ignores until the workspace is trusted
	var untrustedScopes []string
	defer func() {
		if len(untrusted) > 0 {
			verb := "are"
			if len(untrusted) == 1 {
				verb = "is"
			}
			d.add(statusWarn, "permission", fmt.Sprintf("%s %s in the %s settings, which Claude Code applies only once this workspace is trusted, and it is not marked trusted",
				joinAnd(untrusted), verb, strings.Join(untrustedScopes, " and ")), trustFix(plugin, untrusted))
		}
	}()
	for _, rule := range want {
		files := where(rule)
		if len(files) == 0 {
			// A plugin user who runs install would wire every event twice:
			// tell them the one rule to add instead.
			fix := "bimri-hook install"
			if plugin {
				fix = fmt.Sprintf("add %q to \"permissions\".\"allow\" in ~/.claude/settings.json", rule)
			}
			d.add(statusWarn, "permission", fmt.Sprintf("no settings allow %s, a command the agent is given, so it must ask before running it", rule), fix)
			continue
		}
		var scopesWith []string
		needsTrust := true
		for _, f := range files {
			scopesWith = append(scopesWith, f.Scope)
			if f.Scope == install.ScopeUser {
				needsTrust = false
			}
		}
		if needsTrust && !install.WorkspaceTrusted(d.root) {
			untrusted = append(untrusted, rule)
			for _, sc := range scopesWith {
				if !slices.Contains(untrustedScopes, sc) {
					untrustedScopes = append(untrustedScopes, sc)
				}
			}
			continue
		}
		d.add(statusOK, "permission", fmt.Sprintf("%s (%s settings)", rule, strings.Join(scopesWith, " and ")), "")
	}
}

// joinAnd is items joined by commas and a last "and".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// trustFix is the advice for a rule the client ignores until the workspace
// is trusted. For plugin users, install would wire every event twice.
func trustFix(plugin bool, rules []string) string {
	if plugin {
		quoted := make([]string, len(rules))
		for i, r := range rules {
			quoted[i] = fmt.Sprintf("%q", r)
		}
		return fmt.Sprintf("accept this workspace's trust dialog in Claude Code, or add %s to \"permissions\".\"allow\" in ~/.claude/settings.json", joinAnd(quoted))
	}
	return wiring.TrustAdvice(wiring.Command{Binary: wiring.Name})
}

// checkConfig reads the config file; a broken one is a failure (every
// hook would stop on it), and the other checks go on with the defaults.
func (d *doctor) checkConfig() config.Config {
	cfg, err := config.Load(d.configFlag, d.root)
	if err != nil {
		d.add(statusFail, "config", err.Error(), "fix or remove the config file")
		return config.Default()
	}
	if cfg.Path == "" {
		d.add(statusOK, "config", fmt.Sprintf("no %s; the %s profile's defaults", config.Name, cfg.Memory.Profile), "")
		return cfg
	}
	d.add(statusOK, "config", fmt.Sprintf("%s: profile %s, stop policy %s", cfg.Path, cfg.Memory.Profile, cfg.Hooks.StopPolicy), "")
	return cfg
}

// lockHeadroom is the time a hook needs beside its lock wait: its own
// work, milliseconds alone, seconds on a loaded machine.
const lockHeadroom = 2 * time.Second

// defaultHookTimeout is Claude Code's timeout for a command hook whose
// settings give none.
const defaultHookTimeout = 60 * time.Second

// checkLockTimeout warns when lock_timeout leaves a hook too little of its
// timeout: Claude Code kills a hook at its timeout, so a hook that waited
// the whole lock_timeout for a busy lock is killed before it answers (a
// Stop that waited the lock and then did its work outlived a 10 s
// timeout). SessionEnd waits at most
// 0.8 s whatever the config says. Only a problem is reported.
func (d *doctor) checkLockTimeout(wait time.Duration, all []scopeWiring) {
	type wired struct {
		where, event string
		timeout      time.Duration
	}
	var hooks []wired
	plugin := false
	for _, s := range all {
		plugin = plugin || len(s.wiring.Plugins) > 0
		for _, h := range s.wiring.Handlers {
			hooks = append(hooks, wired{s.file.Scope + " settings", h.Event, time.Duration(h.Timeout) * time.Second})
		}
	}
	if plugin {
		for _, e := range wiring.PluginEvents() {
			if e.Name == string(event.PreToolUse) {
				continue // takes no lock
			}
			hooks = append(hooks, wired{"the plugin", e.Name, time.Duration(e.Timeout) * time.Second})
		}
	}
	var short []string
	for _, h := range hooks {
		if h.event == string(event.SessionEnd) {
			continue
		}
		if h.timeout <= 0 {
			h.timeout = defaultHookTimeout
		}
		if wait+lockHeadroom > h.timeout {
			short = append(short, fmt.Sprintf("%s in %s (timeout %s)", h.event, h.where, h.timeout))
		}
	}
	if len(short) > 0 {
		d.add(statusWarn, "lock_timeout", fmt.Sprintf("lock_timeout %s leaves less than %s of the timeout of %s: a hook that waits it out is killed before it answers",
			wait, lockHeadroom, strings.Join(short, ", ")),
			fmt.Sprintf("lower lock_timeout to at most %s below the shortest hook timeout (the default, 2 s, is enough; remember and forget wait longer on their own)", lockHeadroom))
	}
}

// checkFiles: bimri.md and its budgets, the backup, the archive, the lock
// and the state folder, then the global memory.
func (d *doctor) checkFiles(cfg config.Config) {
	st, err := store.OpenStore(d.root, cfg.Memory, store.StoreOptions{LockTimeout: cfg.Hooks.LockTimeout})
	if err != nil {
		d.add(statusFail, "workspace", err.Error(), "run doctor in the workspace, or give --dir")
		return
	}
	d.checkMemory(st, cfg.Memory)
	d.checkBackup(st)
	d.checkArchive(st)
	d.checkLock(st)
	d.checkState(st)
	d.checkGlobal(cfg)
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
	// Lines read leniently are not problems: the next update writes them
	// in the canonical form.
	var problems []memfile.Warning
	converted := 0
	for _, w := range read.Warnings {
		if w.Converted {
			converted++
		} else {
			problems = append(problems, w)
		}
	}
	if converted > 0 {
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
			where = append(where, fmt.Sprintf("line %d (note %s): %q", n.Line, memfile.NoteID(n), firstLine(n.Lines)))
		}
		d.add(statusWarn, "unread", fmt.Sprintf("%s: %s in Tier 2 and 3 not read as entries (they never decay or leave): %s",
			path, inspect.Plural(len(unread), "run of lines", "runs of lines"), strings.Join(where, "; ")),
			"record each as an entry with bimri-hook remember, then remove it with bimri-hook forget NOTE-ID")
	}

	tok := memfile.Estimate(f)
	used := []int{tok.Tiers[0], tok.Tiers[1], tok.Tiers[2], tok.Total}
	budgets := []int{cfg.Budgets[0], cfg.Budgets[1], cfg.Budgets[2], cfg.TotalBudget}
	var parts []string
	over := false
	for i, label := range []string{"tier1", "tier2", "tier3", "total"} {
		parts = append(parts, fmt.Sprintf("%s ~%d/%d", label, used[i], budgets[i]))
		over = over || used[i] > budgets[i]
	}
	if over {
		d.add(statusWarn, "tokens", strings.Join(parts, ", ")+" (estimated): over budget",
			"bimri-hook maintain archives the lowest weights now; the next session end does it anyway")
		return
	}
	d.add(statusOK, "tokens", strings.Join(parts, ", ")+" (estimated)", "")
}

func (d *doctor) checkBackup(st *store.Store) {
	path := st.Path(st.Names().Backup)
	data, exists, err := install.ReadOptional(path)
	switch {
	case err != nil:
		d.add(statusWarn, "backup", fmt.Sprintf("%s cannot be read: %v", path, err), "fix its permissions")
	case !exists:
		d.add(statusOK, "backup", "no "+st.Names().Backup+" yet; one is taken before every change", "")
	default:
		if _, _, err := memfile.Parse(data); err != nil {
			d.add(statusWarn, "backup", fmt.Sprintf("%s: %v, so restore would refuse it", path, err),
				"the next change to bimri.md writes a new backup")
			return
		}
		d.add(statusOK, "backup", path+" parses", "")
	}
}

func (d *doctor) checkArchive(st *store.Store) {
	path := st.Path(st.Names().Archive)
	data, exists, err := install.ReadOptional(path)
	switch {
	case err != nil:
		d.add(statusWarn, "archive", fmt.Sprintf("%s cannot be read: %v", path, err), "fix its permissions")
	case !exists:
		d.add(statusOK, "archive", "no "+st.Names().Archive+" yet; the first pruned entry starts it", "")
	default:
		recs, warnings := memfile.ParseArchive(data)
		if len(warnings) > 0 {
			d.add(statusWarn, "archive", fmt.Sprintf("%s: %d records, %d lines unreadable, the first: %s", path, len(recs), len(warnings), warnings[0]),
				"search skips them; fix the lines by hand if they matter")
			return
		}
		d.add(statusOK, "archive", fmt.Sprintf("%s: %s", path, inspect.Plural(len(recs), "record", "records")), "")
	}
}

// checkLock takes and releases the lock, but only in a workspace that has
// bimri-hook's files: doctor run anywhere else must not leave a state
// folder behind.
func (d *doctor) checkLock(st *store.Store) {
	lockPath := filepath.Join(st.StatePath(), "lock")
	if !exists(st.StatePath()) && !exists(st.Path(st.Names().Memory)) {
		d.add(statusOK, "lock", "no state folder yet; the first session makes it", "")
		return
	}
	err := st.CheckLock()
	switch {
	case errors.Is(err, store.ErrBusy):
		d.add(statusFail, "lock", err.Error(),
			"a bimri-hook is still running or hung: wait for it, or end that process; the lock is freed when it exits")
	case err != nil:
		d.add(statusFail, "lock", err.Error(), "")
	default:
		d.add(statusOK, "lock", lockPath+" can be taken", "")
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// checkState: the lock and per-session state must never reach git.
func (d *doctor) checkState(st *store.Store) {
	dir := st.StatePath()
	rel := filepath.ToSlash(st.Names().State)
	if !exists(dir) {
		d.add(statusOK, "state", "no "+rel+" yet", "")
		return
	}
	fix := "put a .gitignore holding the line * in " + rel
	if _, code, err := install.RunGit(d.root, "rev-parse", "--is-inside-work-tree"); err == nil && code == 0 {
		// check-ignore exits 0 for an ignored path, 1 for one git would
		// add, and 128 when it cannot tell (then the .gitignore decides).
		switch _, code, err := install.RunGit(d.root, "check-ignore", "-q", rel+"/lock"); {
		case err == nil && code == 0:
			d.add(statusOK, "state", rel+" is ignored by git", "")
			return
		case err == nil && code == 1:
			d.add(statusWarn, "state", rel+" (the lock and session state) is not ignored by git and would be committed", fix)
			return
		}
	}
	ignore, err := safefile.Read(filepath.Join(dir, ".gitignore"), 1<<20)
	if err == nil && slices.Contains(strings.Fields(string(ignore)), "*") {
		d.add(statusOK, "state", rel+" ignores itself in git", "")
		return
	}
	d.add(statusWarn, "state", rel+" has no .gitignore holding *, so git would commit it once this is a repository", fix)
}

// checkGlobal reads the user's memory across workspaces, when there is
// one: the hooks skip a broken one silently, so only doctor can tell.
func (d *doctor) checkGlobal(cfg config.Config) {
	global, err := workspace.GlobalStore(cfg, time.Now)
	if err != nil {
		return
	}
	path := global.Path(global.Names().Memory)
	read, err := global.Read()
	switch {
	case err != nil:
		d.add(statusFail, "global memory", fmt.Sprintf("%s: %v; sessions start without it", path, err),
			"fix it by hand, or put "+global.Names().Backup+" beside it in its place")
	case read.Exists:
		d.add(statusOK, "global memory", fmt.Sprintf("%s: %s", path, inspect.Plural(len(read.File.Entries(1))+len(read.File.Entries(2)), "entry", "entries")), "")
	}
}

// checkIgnored: in a repository, whether git ignores every personal side
// file (wiring.IgnoreLines), asked of git itself for a name each rule
// covers, so a rule written anywhere (.gitignore, .git/info/exclude, the
// user's excludes) counts, and a side file committed once does not.
func (d *doctor) checkIgnored() {
	if _, code, err := install.RunGit(d.root, "rev-parse", "--is-inside-work-tree"); err != nil || code != 0 {
		return
	}
	var names []string
	for _, rule := range wiring.IgnoreLines {
		name := strings.ReplaceAll(strings.TrimPrefix(rule, "/"), "*", "1")
		if strings.HasSuffix(name, "/") {
			name += "lock"
		}
		names = append(names, name)
	}
	// check-ignore prints the names git ignores and exits 1 when none
	// is; 128 is an error.
	out, code, err := install.RunGit(d.root, append([]string{"check-ignore", "--"}, names...)...)
	if err != nil || code > 1 {
		return
	}
	ignored := strings.Fields(out)
	var open []string
	for i, name := range names {
		if !slices.Contains(ignored, name) {
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

// checkGit: in a repository, whether bimri.md merges with its driver.
// Outside one there is nothing to say.
func (d *doctor) checkGit() {
	if _, code, err := install.RunGit(d.root, "rev-parse", "--is-inside-work-tree"); err != nil || code != 0 {
		return
	}
	attr, code, err := install.RunGit(d.root, "check-attr", "merge", "--", memfile.MemoryName)
	if err != nil || code != 0 {
		return
	}
	hasAttr := strings.HasSuffix(strings.TrimSpace(attr), ": merge: "+wiring.MergeDriver)
	driver, code, err := install.RunGit(d.root, "config", "--get", "merge."+wiring.MergeDriver+".driver")
	hasDriver := err == nil && code == 0 && strings.TrimSpace(driver) != ""
	switch {
	case hasAttr && hasDriver:
		d.add(statusOK, "git", "bimri.md merges with the bimri merge driver: "+strings.TrimSpace(driver), "")
	case hasAttr && attributesRemoved(d.root):
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

// attributesRemoved says whether the repository's top .gitattributes is
// deleted in the work tree but still in the index (uninstall --git
// removed it): git then reads it from the index.
func attributesRemoved(root string) bool {
	out, code, err := install.RunGit(root, "status", "--porcelain", "--", ":/.gitattributes")
	return err == nil && code == 0 && strings.HasPrefix(out, " D ")
}

// Print writes doctor's report: one line per check, its status
// first so a person, or grep, finds the problems.
func Print(w io.Writer, checks []Check) {
	for _, c := range checks {
		line := fmt.Sprintf("%-4s %s: %s", c.Status, c.Name, c.Detail)
		if c.Fix != "" && c.Status != statusOK {
			line += " (fix: " + c.Fix + ")"
		}
		fmt.Fprintln(w, line)
	}
}

// firstLine is a note's first line, trimmed, enough to find it.
func firstLine(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	l := strings.TrimSpace(lines[0])
	if r := []rune(l); len(r) > 60 {
		l = string(r[:60]) + "..."
	}
	return l
}
