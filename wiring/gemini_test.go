package wiring

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// Install wires Gemini's three events, with timeouts in milliseconds, and
// the MCP server; the user's settings stay; install twice changes
// nothing; uninstall gives back the file's bytes.
func TestInstallGeminiKeepsTheUsersSettings(t *testing.T) {
	is := is.New(t)
	user := "{\n  \"theme\": \"GitHub\",\n  \"hooks\": {\n    \"SessionEnd\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"notify-send done\"\n          }\n        ]\n      }\n    ]\n  },\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"other-server\"\n    }\n  }\n}\n"
	c := Command{Binary: "/opt/bin/bimri-hook"}
	out, r, changed, err := Gemini.Install([]byte(user), c, Receipt{})
	is.NoErr(err)
	is.True(changed)
	doc := gjson.ParseBytes(out)
	is.Equal(doc.Get("theme").Str, "GitHub")
	is.Equal(doc.Get("hooks.SessionEnd.0.hooks.0.command").Str, "notify-send done")
	is.Equal(doc.Get("hooks.SessionEnd.1.hooks.0.command").Str, `"/opt/bin/bimri-hook" hook gemini`)
	is.Equal(doc.Get("hooks.BeforeAgent.0.hooks.0.timeout").Int(), int64(10000))
	is.Equal(doc.Get("mcpServers.other.command").Str, "other-server")
	is.Equal(doc.Get("mcpServers.bimri.command").Str, "/opt/bin/bimri-hook")
	is.Equal(doc.Get("mcpServers.bimri.args.0").Str, "mcp")
	is.True(doc.Get("mcpServers.bimri.trust").Bool()) // else gemini -p declares none of its tools
	w, err := Gemini.Inspect(out)
	is.NoErr(err)
	events, _ := w.Events(Gemini.Events)
	is.Equal(strings.Join(events, ","), "SessionStart,BeforeAgent,SessionEnd")
	is.True(w.MCP)

	again, _, changed, err := Gemini.Install(out, c, r)
	is.NoErr(err)
	is.True(!changed)
	is.Equal(string(again), string(out))

	back, remove, _, err := Gemini.Uninstall(out, &r)
	is.NoErr(err)
	is.True(!remove)
	is.Equal(string(back), user)
}

// Into no file, install writes one that uninstall removes again.
func TestInstallGeminiNewFile(t *testing.T) {
	is := is.New(t)
	out, r, changed, err := Gemini.Install(nil, Command{Binary: "bimri-hook"}, Receipt{})
	is.NoErr(err)
	is.True(changed)
	is.True(gjson.ValidBytes(out))
	_, remove, _, err := Gemini.Uninstall(out, &r)
	is.NoErr(err)
	is.True(remove)
}

// A server of another program under bimri-hook's name is not replaced.
func TestInstallGeminiRefusesAnotherServer(t *testing.T) {
	is := is.New(t)
	_, _, _, err := Gemini.Install([]byte(`{"mcpServers": {"bimri": {"command": "other"}}}`), Command{Binary: "bimri-hook"}, Receipt{})
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), `"mcpServers.bimri" runs "other"`))
}
