package wiring

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Handler is one of bimri-hook's hook handlers found in a client's JSON.
type Handler struct {
	Event   string
	Command string
	Timeout int // the client's unit; 0 when the handler sets none

	path          []string
	group, fields gjson.Result // its matcher group (none when flat) and itself
}

// Wiring is what a client's JSON file holds of bimri-hook's: the handlers
// and rules Install adds, the MCP server, and the Claude Code plugins it
// enables, which would answer the same events a second time.
type Wiring struct {
	Handlers   []Handler // by event in file order, then in file order
	Rules      []string  // permissions.allow rules for MemoryCommands, in file order
	MCP        bool      // the MCP server is bimri-hook's
	Plugins    []string  // enabledPlugins keys "bimri-hook@<marketplace>" set to true
	PluginsOff []string  // those set to false, which turn off one a wider scope enables
}

// Inspect reads what the client's JSON file holds of bimri-hook's; empty
// input holds nothing. Input Install would refuse is an error.
func (cl Client) Inspect(b []byte) (Wiring, error) {
	var w Wiring
	d, err := cl.parse(b)
	if err != nil {
		return w, err
	}
	for _, it := range d.ours(cl) {
		switch it.path[0] {
		case "hooks":
			h := d.get(it.path...)
			w.Handlers = append(w.Handlers, Handler{it.path[1], it.text, int(h.Get("timeout").Int()), it.path, d.get(it.path[:3]...), h})
		case "permissions":
			w.Rules = append(w.Rules, it.text)
		default:
			w.MCP = true
		}
	}
	for _, m := range members(d.get("enabledPlugins")) {
		if ours := strings.HasPrefix(m.key.Str, Name+"@"); ours && m.value.Type == gjson.True {
			w.Plugins = append(w.Plugins, m.key.Str)
		} else if ours && m.value.Type == gjson.False {
			w.PluginsOff = append(w.PluginsOff, m.key.Str)
		}
	}
	return w, nil
}

// Events lists the events w runs bimri-hook at, each once: those of want
// in its order, then any others (an older version's) in file order; and
// those of want it does not.
func (w Wiring) Events(want []Event) (wired, missing []string) {
	for _, e := range want {
		if slices.ContainsFunc(w.Handlers, func(h Handler) bool { return h.Event == e.Name }) {
			wired = append(wired, e.Name)
		} else {
			missing = append(missing, e.Name)
		}
	}
	for _, h := range w.Handlers {
		if !slices.Contains(wired, h.Event) {
			wired = append(wired, h.Event)
		}
	}
	return wired, missing
}

// HookBinary returns the binary a hook command of ours runs (Command.Hook,
// or one plain or single-quoted word); ok is false when only a shell could
// tell.
func HookBinary(command string) (binary string, ok bool) {
	word, found := strings.CutSuffix(strings.TrimSpace(command), " hook")
	if !found {
		return "", false
	}
	return shellUnquote(strings.TrimSpace(word))
}

// shellUnquote reads one shell word as shellQuote or ShellWord wrote it:
// undone, then checked by writing it again.
func shellUnquote(s string) (string, bool) {
	word := s
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		word = shellUnescape.Replace(s[1 : len(s)-1])
	} else if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		word = strings.ReplaceAll(s[1:len(s)-1], `'\''`, "'")
	}
	if shellQuote(word) != s && ShellWord(word) != s {
		return "", false
	}
	return word, true
}

// shellUnescape undoes the backslashes of shellQuote.
var shellUnescape = strings.NewReplacer(`\$`, "$", "\\`", "`", `\"`, `"`, `\\`, `\`, "\\\n", "\n")
