package wiring

import (
	"testing"

	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// bimri-hook's Copilot hooks file runs `hook copilot` at each event, in
// the shape Copilot loads (version 1, flat handler lists, PascalCase
// events); it is known for bimri-hook's, and a file with a handler of the
// user's in it is not.
func TestCopilotHooksFile(t *testing.T) {
	is := is.New(t)
	file := Copilot.Own(Command{Binary: "/opt/bin/bimri-hook"})
	doc := gjson.ParseBytes(file)
	is.Equal(doc.Get("version").Int(), int64(1))
	is.Equal(doc.Get("hooks.SessionStart.0.bash").Str, `"/opt/bin/bimri-hook" hook copilot`)
	is.Equal(doc.Get("hooks.UserPromptSubmit.0.timeoutSec").Int(), int64(10))
	is.True(Copilot.IsOwn(file))

	mine := `{"version":1,"hooks":{"SessionStart":[{"type":"command","bash":"/opt/bin/bimri-hook hook copilot"},{"type":"command","bash":"./audit.sh"}]}}`
	is.True(!Copilot.IsOwn([]byte(mine)))
	is.True(!Copilot.IsOwn([]byte(`{"version":1,"hooks":{}}`)))
	is.True(!Copilot.IsOwn([]byte(`not json "hook copilot"`)))
}

// The MCP server goes under mcpServers beside the user's own, as `copilot
// mcp add` writes one; uninstall gives the bytes back.
func TestInstallCopilotMCP(t *testing.T) {
	is := is.New(t)
	user := "{\n  \"mcpServers\": {\n    \"other\": {\n      \"type\": \"local\",\n      \"command\": \"other-server\",\n      \"args\": [],\n      \"tools\": [\"*\"]\n    }\n  }\n}\n"
	out, r, changed, err := Copilot.Install([]byte(user), Command{Binary: "/opt/bin/bimri-hook"}, Receipt{})
	is.NoErr(err)
	is.True(changed)
	is.Equal(gjson.GetBytes(out, "mcpServers.bimri.command").Str, "/opt/bin/bimri-hook")
	is.Equal(gjson.GetBytes(out, "mcpServers.bimri.tools.0").Str, "*")
	w, err := Copilot.Inspect(out)
	is.NoErr(err)
	is.True(w.MCP)
	back, remove, _, err := Copilot.Uninstall(out, &r)
	is.NoErr(err)
	is.True(!remove)
	is.Equal(string(back), user)
}
