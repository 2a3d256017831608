package wiring

import (
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// Handler is one of bimri-hook's hook handlers found in a settings.json.
type Handler struct {
	Event   string
	Command string
	Timeout int // seconds; 0 when the handler sets none
}

// Wiring is what a settings.json holds of bimri-hook's: the handlers and
// rules Claude.Install adds, and the plugins it enables, which would
// answer the same events a second time.
type Wiring struct {
	Handlers   []Handler // by event in file order, then in file order
	Rules      []string  // permissions.allow rules for MemoryCommands, in file order
	Plugins    []string  // enabledPlugins keys "bimri-hook@<marketplace>" set to true
	PluginsOff []string  // those set to false, which turn off one a wider scope enables
}

// Inspect reads what a settings.json holds of bimri-hook's; empty input
// holds nothing. Input Claude.Install would refuse is an error.
func Inspect(settings []byte) (Wiring, error) {
	var w Wiring
	d, err := parseSettings(settings)
	if err != nil {
		return w, err
	}
	for _, event := range d.eventNames() {
		for _, r := range d.handlers(event, isHookCommand) {
			timeout := d.get(append(d.path(event, r), "timeout")...)
			w.Handlers = append(w.Handlers, Handler{Event: event, Command: r.command, Timeout: int(timeout.Int())})
		}
	}
	for _, i := range d.rules(isAgentRule) {
		w.Rules = append(w.Rules, members(d.get("permissions", "allow"))[i].value.Str)
	}
	for _, m := range members(d.get("enabledPlugins")) {
		if !strings.HasPrefix(m.key.Str, Name+"@") {
			continue
		}
		switch m.value.Type {
		case gjson.True:
			w.Plugins = append(w.Plugins, m.key.Str)
		case gjson.False:
			w.PluginsOff = append(w.PluginsOff, m.key.Str)
		}
	}
	return w, nil
}

// Events lists the events that run bimri-hook, each once: those of
// Events in their order, then any others (an older version's) in file
// order.
func (w Wiring) Events() []string {
	var events []string
	for _, e := range Events() {
		if slices.ContainsFunc(w.Handlers, func(h Handler) bool { return h.Event == e.Name }) {
			events = append(events, e.Name)
		}
	}
	for _, h := range w.Handlers {
		if !slices.Contains(events, h.Event) {
			events = append(events, h.Event)
		}
	}
	return events
}

// Missing lists the events of Events that w does not wire.
func (w Wiring) Missing() []string {
	wired := make(map[string]bool)
	for _, h := range w.Handlers {
		wired[h.Event] = true
	}
	var missing []string
	for _, e := range Events() {
		if !wired[e.Name] {
			missing = append(missing, e.Name)
		}
	}
	return missing
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

// shellUnquote reads one shell word written by shellQuote or ShellWord.
func shellUnquote(s string) (string, bool) {
	switch {
	case len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"':
		inner := s[1 : len(s)-1]
		var b strings.Builder
		for i := 0; i < len(inner); i++ {
			switch c := inner[i]; {
			case c == '\\' && i+1 < len(inner) && strings.IndexByte("$`\"\\\n", inner[i+1]) >= 0:
				i++
				b.WriteByte(inner[i])
			case c == '"' || c == '$' || c == '`':
				// An unescaped quote ends the word early; $ and ` expand.
				return "", false
			default:
				b.WriteByte(c)
			}
		}
		return b.String(), true
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		inner := s[1 : len(s)-1]
		if strings.Contains(strings.ReplaceAll(inner, `'\''`, ""), "'") {
			return "", false
		}
		return strings.ReplaceAll(inner, `'\''`, "'"), true
	default:
		if ShellWord(s) != s {
			return "", false
		}
		return s, true
	}
}
