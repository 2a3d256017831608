package wiring

import (
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/pelletier/go-toml/v2"
)

// The hashes Codex 0.171.0's app-server reported (hooks/list, currentHash)
// for the hooks install wrote with the binary /tmp/agents-probe/bin/bimri-hook
// into /tmp/agents-probe/m1/proj/.codex/hooks.json: Codex runs a hook only
// when its trust store holds exactly this.
func TestCodexHookHashMatchesCodex(t *testing.T) {
	is := is.New(t)
	const path = "/tmp/agents-probe/m1/proj/.codex/hooks.json"
	out, _, _, err := Codex.Install(nil, Command{Binary: "/tmp/agents-probe/bin/bimri-hook"}, Receipt{})
	is.NoErr(err)
	states, err := CodexHookStates(path, out)
	is.NoErr(err)
	want := map[string]string{
		path + ":session_start:0:0":      "sha256:b18eb4aa45f66cea759871c0fc1dd8425112d24a41088d8af0143541fa961b66",
		path + ":user_prompt_submit:0:0": "sha256:6cdbede0bf72aed7074ae06fec7c3c0fa3f5a82d9e7d413f866340d91b866cea",
		path + ":stop:0:0":               "sha256:ebdac0be163901df5bb83c2fb356313b9fd853e142949afe16733757603810bb",
	}
	is.Equal(len(states), len(want))
	for _, s := range states {
		is.Equal(s.Hash, want[s.Key])
	}
}

// A user's own hooks stay where they are, install twice changes nothing,
// and uninstall gives back the file's bytes.
func TestInstallCodexKeepsTheUsersHooks(t *testing.T) {
	is := is.New(t)
	user := "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"notify-send done\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	c := Command{Binary: "/opt/bin/bimri-hook"}
	out, r, changed, err := Codex.Install([]byte(user), c, Receipt{})
	is.NoErr(err)
	is.True(changed)
	states, err := CodexHookStates("/p/hooks.json", out)
	is.NoErr(err)
	is.Equal(len(states), 3)
	for _, s := range states {
		if s.Event == "Stop" {
			is.Equal(s.Key, "/p/hooks.json:stop:1:0") // after the user's group 0
		}
	}
	again, _, changed, err := Codex.Install(out, c, r)
	is.NoErr(err)
	is.True(!changed)
	is.Equal(string(again), string(out))
	back, remove, _, err := Codex.Uninstall(out, &r)
	is.NoErr(err)
	is.True(!remove)
	is.Equal(string(back), user)
	// A handler of another program that mentions bimri-hook is not ours.
	other := strings.Replace(user, "notify-send done", "bimri-hook hook codex --verbose", 1)
	states, _ = CodexHookStates("/p/hooks.json", []byte(other))
	is.Equal(len(states), 0)
}

// The config's own bytes stay; ours are taken out and written again; a
// file that is not TOML is refused.
func TestEditCodexConfig(t *testing.T) {
	is := is.New(t)
	config := "# mine\nmodel = \"o3\"\n\n[projects.\"/x\"]\ntrust_level = \"trusted\"\n"
	s := CodexHookState{Key: "/p/.codex/hooks.json:stop:0:0", Hash: "sha256:ab"}
	ours := []CodexHookState{s}
	out, changed, err := EditCodexConfig([]byte(config), ours, true, ours, "/opt/bin/bimri-hook")
	is.NoErr(err)
	is.True(changed)
	is.True(strings.HasPrefix(string(out), config))
	cfg, err := ReadCodexConfig(out)
	is.NoErr(err)
	is.True(cfg.Trusts(s))
	is.True(cfg.ProjectTrusted("/x"))
	is.Equal(cfg.MCPServers[MCPServer].Args, []string{"mcp"})
	again, changed, err := EditCodexConfig(out, ours, true, ours, "/opt/bin/bimri-hook")
	is.NoErr(err)
	is.True(!changed)
	is.Equal(string(again), string(out))
	back, _, err := EditCodexConfig(out, ours, true, nil, "")
	is.NoErr(err)
	is.Equal(string(back), config)
	_, _, err = EditCodexConfig([]byte("model = "), ours, true, ours, "/opt/bin/bimri-hook")
	is.True(err != nil)
	// The same table given as a dotted key elsewhere: refused, not doubled.
	dotted := config + "\n[hooks]\nstate.\"/p/.codex/hooks.json:stop:0:0\".trusted_hash = \"sha256:00\"\n"
	_, _, err = EditCodexConfig([]byte(dotted), ours, true, ours, "/opt/bin/bimri-hook")
	is.True(err != nil)
}

// A header is what TOML reads as one: a line inside a multi-line string
// that looks like our table's header is the user's text and stays, and an
// array of tables after our table is not taken out with it.
func TestEditCodexConfigFindsHeadersAsTOMLDoes(t *testing.T) {
	is := is.New(t)
	config := "instructions = \"\"\"\n[mcp_servers.bimri]\n\"\"\"\n\n[mcp_servers.bimri]\ncommand = \"old\"\n\n[[profiles]]\nname = \"a\"\n"
	out, changed, err := EditCodexConfig([]byte(config), nil, true, nil, "")
	is.NoErr(err)
	is.True(changed)
	is.Equal(string(out), "instructions = \"\"\"\n[mcp_servers.bimri]\n\"\"\"\n[[profiles]]\nname = \"a\"\n")
}

func TestTOMLStringRoundTrips(t *testing.T) {
	is := is.New(t)
	for _, s := range []string{`C:\Program Files\bimri-hook "x"`, "tab\tdel\x7fnl\n\x01\b\fé\u2028<&>"} {
		var v struct{ K string }
		is.NoErr(toml.Unmarshal([]byte("K = "+tomlString(s)), &v))
		is.Equal(v.K, s)
	}
}
