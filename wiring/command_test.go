package wiring

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestCommandStrings(t *testing.T) {
	cases := []struct {
		binary, hook, rule, driver string // rule: the rules, space-separated
	}{
		{
			binary: "bimri-hook",
			hook:   `"bimri-hook" hook`,
			rule:   `Bash(bimri-hook remember:*) Bash(bimri-hook forget:*) Bash(bimri-hook revive:*)`,
			driver: `"bimri-hook" merge-driver %O %A %B`,
		},
		{
			binary: "/usr/local/bin/bimri-hook",
			hook:   `"/usr/local/bin/bimri-hook" hook`,
			rule:   `Bash(/usr/local/bin/bimri-hook remember:*) Bash(/usr/local/bin/bimri-hook forget:*) Bash(/usr/local/bin/bimri-hook revive:*)`,
			driver: `"/usr/local/bin/bimri-hook" merge-driver %O %A %B`,
		},
		{
			binary: "/Users/Jo Doe/go/bin/bimri-hook",
			hook:   `"/Users/Jo Doe/go/bin/bimri-hook" hook`,
			rule:   `Bash('/Users/Jo Doe/go/bin/bimri-hook' remember:*) Bash('/Users/Jo Doe/go/bin/bimri-hook' forget:*) Bash('/Users/Jo Doe/go/bin/bimri-hook' revive:*)`,
			driver: `"/Users/Jo Doe/go/bin/bimri-hook" merge-driver %O %A %B`,
		},
		{
			binary: "/home/josé/bin/bimri-hook",
			hook:   `"/home/josé/bin/bimri-hook" hook`,
			rule:   `Bash(/home/josé/bin/bimri-hook remember:*) Bash(/home/josé/bin/bimri-hook forget:*) Bash(/home/josé/bin/bimri-hook revive:*)`,
			driver: `"/home/josé/bin/bimri-hook" merge-driver %O %A %B`,
		},
		{
			binary: `C:\Program Files\bimri\bimri-hook.exe`,
			hook:   `"C:\Program Files\bimri\bimri-hook.exe" hook`,
			rule:   `Bash('C:\Program Files\bimri\bimri-hook.exe' remember:*) Bash('C:\Program Files\bimri\bimri-hook.exe' forget:*) Bash('C:\Program Files\bimri\bimri-hook.exe' revive:*)`,
			driver: `"C:\Program Files\bimri\bimri-hook.exe" merge-driver %O %A %B`,
		},
	}
	for _, tc := range cases {
		is := is.New(t)
		c := Command{Binary: tc.binary}
		is.Equal(c.Hook(), tc.hook)
		is.Equal(strings.Join(c.Rules(), " "), tc.rule)
		is.Equal(MergeDriverCommand(c), tc.driver)
	}
}

// The quoting must give the shell back the exact path, whatever it holds.
func TestShellQuoteRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, s := range []string{
		"/usr/local/bin/bimri-hook",
		"/Users/Jo Doe/bin/bimri-hook",
		`C:\Program Files\bimri\bimri-hook.exe`,
		`\\server\share\bimri-hook.exe`,
		`C:\odd dir\`,
		`/a/$HOME/b`,
		"/a/`date`/b",
		`/a/"quoted"/b`,
		`/a/\$x\"y\\z`,
		"/a/it's/b",
		"/a/new\nline",
		"/a/*?[x]/~/!/&;|<>(){}#",
		"",
	} {
		for _, quoted := range []string{shellQuote(s), ShellWord(s)} {
			out, err := exec.Command(sh, "-c", `printf %s `+quoted).Output()
			if err != nil {
				t.Fatalf("sh -c for %q: %v", s, err)
			}
			if string(out) != s {
				t.Errorf("%s gives %q back, want %q", quoted, out, s)
			}
		}
	}
}
