package wiring

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// Install then uninstall with the install's receipt gives back the file
// byte for byte, whatever empty lists and objects it held, and leaves no
// file where there was none. The installed bytes are golden files.
func TestUninstallReceiptExact(t *testing.T) {
	cases := []struct {
		name, in string
		binary   string
	}{
		{name: "no-file", in: ""},
		{name: "hooks-empty", in: `{"hooks":{}}` + "\n"},
		{name: "stop-empty", in: `{"hooks":{"Stop":[]}}` + "\n"},
		{name: "allow-empty", in: `{"permissions":{"allow":[]}}` + "\n"},
		{name: "pretty-empties", in: "{\n  \"hooks\": {},\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n"},
		{name: "own-rule", in: "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read\",\n      \"Bash(bimri-hook remember:*)\"\n    ]\n  }\n}\n", binary: Name},
		{name: "lookalikes", in: `{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {"type": "command", "command": "/opt/tools/run-with-vault.sh bimri-hook-audit hook"}
        ]
      }
    ],
    "Notification": [
      {
        "hooks": [
          {"type": "command", "command": "notify-send bimri-hook hook"}
        ]
      }
    ]
  },
  "permissions": {
    "allow": ["Bash(bimri-hook-audit remember:*)", "Bash(echo bimri-hook remember:*)"]
  }
}
`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			binary := tc.binary
			if binary == "" {
				binary = "/usr/local/bin/bimri-hook"
			}
			c := Command{Binary: binary}
			out, receipt, changed, err := Claude.Install([]byte(tc.in), c, Receipt{})
			is.NoErr(err)
			is.True(changed)
			golden(t, filepath.Join("testdata", "golden", "receipt-"+tc.name+".install.json"), out)
			is.Equal(strings.Count(string(out), jsonText(c.Hook())), len(Events())) // wired once per event

			// Installing again, with the receipt, changes nothing, and the
			// receipt stays as the first install wrote it.
			again, receipt2, changed, err := Claude.Install(out, c, receipt)
			is.NoErr(err)
			is.True(!changed)
			is.Equal(string(again), string(out))
			is.Equal(receipt2, receipt)

			back, remove, changed, err := Claude.Uninstall(out, &receipt)
			is.NoErr(err)
			is.True(changed)
			is.Equal(remove, tc.in == "") // no file before: the file goes
			if !remove {
				is.Equal(string(back), tc.in) // byte for byte
			}
		})
	}
}

// Commands and rules that merely mention bimri-hook are someone else's:
// install adds its own beside them, and uninstall (with or without a
// receipt) leaves them.
func TestLookalikesUntouched(t *testing.T) {
	is := is.New(t)
	for _, command := range []string{
		"/opt/tools/run-with-vault.sh bimri-hook-audit hook",
		"notify-send bimri-hook hook",
		`"/opt/bimri-hook-audit" hook`,
		`"${HOME}/bin/bimri-hook" hook`,
		`bimri-hook hook --quiet`,
		`"/usr/bin/bimri-hook" hook; rm -rf ~`,
	} {
		is.True(!isHookCommand(command))
	}
	for _, command := range []string{`"/usr/local/bin/bimri-hook" hook`, `bimri-hook hook`, `"bimri-hook" hook`,
		`"C:\Program Files\bimri\bimri-hook.exe" hook`, `'/opt/my tools/bimri-hook' hook`} {
		is.True(isHookCommand(command))
	}
	for _, rule := range []string{"Bash(bimri-hook-audit remember:*)", "Bash(echo bimri-hook remember:*)", "Bash(bimri-hook remember)", "Bash(bimri-hook:*)"} {
		is.True(!isAgentRule(rule))
	}
	for _, rule := range []string{"Bash(bimri-hook remember:*)", "Bash(/usr/local/bin/bimri-hook remember:*)", "Bash('/opt/my tools/bimri-hook' remember:*)"} {
		is.True(isAgentRule(rule))
	}
}

// With two "hooks" keys the client reads the last and an edit would change
// the first: refuse, and say why.
func TestDuplicateKeysRefused(t *testing.T) {
	c := Command{Binary: "/usr/local/bin/bimri-hook"}
	for _, in := range []string{
		`{"hooks":{},"model":"x","hooks":{"Stop":[]}}`,
		`{"permissions":{"allow":[]},"permissions":{}}`,
		`{"hooks":{"Stop":[],"Stop":[]}}`,
		`{"permissions":{"allow":[],"allow":["Read"]}}`,
	} {
		is := is.New(t)
		_, _, err := install([]byte(in), c)
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), "appears twice"))
		_, _, _, err = Claude.Uninstall([]byte(in), nil)
		is.True(err != nil)
	}
	// Duplicates elsewhere are not ours to judge.
	_, _, err := install([]byte(`{"env":{"A":"1","A":"2"}}`), c)
	is.New(t).NoErr(err)
}

// An uninstall after the user edited the file still removes only what is
// bimri-hook's, and keeps the user's new rule.
func TestUninstallReceiptAfterEdits(t *testing.T) {
	is := is.New(t)
	c := Command{Binary: "/usr/local/bin/bimri-hook"}
	out, receipt, _, err := Claude.Install(nil, c, Receipt{})
	is.NoErr(err)
	edited := strings.Replace(string(out), `"allow": [`, `"allow": [`+"\n      \"Read\",", 1)
	back, remove, changed, err := Claude.Uninstall([]byte(edited), &receipt)
	is.NoErr(err)
	is.True(changed && !remove) // the user's rule keeps the file
	is.True(strings.Contains(string(back), `"Read"`))
	is.True(!strings.Contains(string(back), Name))
	_ = os.Remove // keep imports honest if cases change
}
