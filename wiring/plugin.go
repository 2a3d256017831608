package wiring

import (
	"bytes"
	"encoding/json"
)

// PluginCommand is what the hooks of the Claude Code plugin run: the
// launcher shipped in the plugin, which finds or builds the binary (see
// scripts/launch.sh). Claude Code sets CLAUDE_PLUGIN_ROOT to the plugin's
// folder; the double quotes keep a folder with spaces in one word and still
// let the shell expand the variable.
const PluginCommand = `"${CLAUDE_PLUGIN_ROOT}/scripts/launch.sh" hook`

// PluginEvents returns the events the plugin wires: the same as Events,
// with the same timeouts, since the launcher never makes an event wait
// for a build.
func PluginEvents() []Event { return Events() }

// PluginHooks returns the content of the plugin's hooks/hooks.json.
func PluginHooks() []byte {
	compact := `{"description":` + jsonString("bimri-hook: load bimri.md at session start, keep it up to date as the session goes") +
		`,"hooks":` + string(Hooks(PluginCommand, PluginEvents())) + `}`
	var buf bytes.Buffer
	_ = json.Indent(&buf, []byte(compact), "", "  ") // compact is valid JSON
	buf.WriteByte('\n')
	return buf.Bytes()
}
