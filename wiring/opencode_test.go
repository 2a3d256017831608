package wiring

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/tidwall/gjson"
)

// Install registers the MCP server under "mcp" beside the user's own
// servers; twice changes nothing; uninstall gives back the file's bytes,
// and a file install created is to be removed.
func TestInstallOpenCodeKeepsTheUsersConfig(t *testing.T) {
	is := is.New(t)
	user := "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    \"other\": {\n      \"type\": \"local\",\n      \"command\": [\"other-server\"]\n    }\n  }\n}\n"
	c := Command{Binary: "/opt/bin/bimri-hook"}
	out, r, changed, err := OpenCode.Install([]byte(user), c, Receipt{})
	is.NoErr(err)
	is.True(changed)
	doc := gjson.ParseBytes(out)
	is.Equal(doc.Get("mcp.other.command.0").Str, "other-server")
	is.Equal(doc.Get("mcp.bimri.type").Str, "local")
	is.Equal(doc.Get("mcp.bimri.command.0").Str, "/opt/bin/bimri-hook")
	is.Equal(doc.Get("mcp.bimri.command.1").Str, "mcp")
	w, err := OpenCode.Inspect(out)
	is.NoErr(err)
	is.True(w.MCP)

	again, _, changed, err := OpenCode.Install(out, c, r)
	is.NoErr(err)
	is.True(!changed)
	is.Equal(string(again), string(out))

	back, remove, _, err := OpenCode.Uninstall(out, &r)
	is.NoErr(err)
	is.True(!remove)
	is.Equal(string(back), user)

	fresh, r, _, err := OpenCode.Install(nil, c, Receipt{})
	is.NoErr(err)
	_, remove, _, err = OpenCode.Uninstall(fresh, &r)
	is.NoErr(err)
	is.True(remove)
}

// A server named bimri that is not bimri-hook's is refused, not
// overwritten; an mcp that is not an object is refused.
func TestInstallOpenCodeRefusesOthersServer(t *testing.T) {
	is := is.New(t)
	c := Command{Binary: "bimri-hook"}
	_, _, _, err := OpenCode.Install([]byte(`{"mcp":{"bimri":{"type":"local","command":["other","mcp"]}}}`), c, Receipt{})
	is.True(err != nil && strings.Contains(err.Error(), `"mcp.bimri" runs`))
	_, _, _, err = OpenCode.Install([]byte(`{"mcp":[]}`), c, Receipt{})
	is.True(err != nil && strings.Contains(err.Error(), "not an object"))
}

// The plugin runs the binary it was written for, JSON-quoted into its
// source, and is told apart from a user's file of the same name.
func TestOpenCodePlugin(t *testing.T) {
	is := is.New(t)
	src := OpenCode.Own(Command{Binary: `/opt/my "bin"/bimri-hook`})
	is.True(strings.Contains(string(src), `const BINARY = "/opt/my \"bin\"/bimri-hook"`))
	is.True(!strings.Contains(string(src), "__BIMRI_BINARY__"))
	is.True(OpenCode.IsOwn(src))
	is.True(!OpenCode.IsOwn([]byte("export const Mine = async () => ({})\n")))
	for _, hook := range []string{`"experimental.chat.system.transform"`, `"chat.message"`, `"session.idle"`, `["hook", "opencode"]`} {
		is.True(strings.Contains(string(src), hook)) // the events the adapter in package hooks expects
	}
}
