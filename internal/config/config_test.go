package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/matryer/is"
)

func TestParseReadsBothParts(t *testing.T) {
	is := is.New(t)
	c, err := parse([]byte(`{"profile": "cowork", "tier2_budget": 9000, "stop_policy": "once", "lock_timeout": 0.5}`))
	is.NoErr(err)
	is.Equal(c.Memory.Profile, "cowork")
	is.Equal(c.Memory.Budgets[1], 9000)
	is.Equal(c.Hooks.StopPolicy, hooks.PolicyOnce)
	is.Equal(c.Hooks.LockTimeout, 500*time.Millisecond)

	c, err = parse([]byte(`{}`))
	is.NoErr(err)
	is.Equal(c, Default())
}

// TestUnknownFieldListsEveryKnownField: a typo is refused, and the error
// lists every field a config may hold, the hooks' included.
func TestUnknownFieldListsEveryKnownField(t *testing.T) {
	is := is.New(t)
	_, err := parse([]byte(`{"tier2_budget": 100, "tresh0ld": 1.5, "zzz": 1}`))
	is.True(err != nil)
	msg := err.Error()
	is.True(strings.HasPrefix(msg, `unknown field "tresh0ld" (known: `)) // the first, sorted
	for _, k := range append(append([]string{}, memfile.ConfigKeys...), hooks.SettingsKeys...) {
		is.True(strings.Contains(msg, k)) // each known field is listed
	}
	for _, k := range []string{"stop_policy", "lock_timeout", "nudge_prompts"} {
		is.True(strings.Contains(msg, k)) // the ones the list once left out
	}
}

func TestNotAConfigObject(t *testing.T) {
	for _, in := range []string{``, `{`, `{"profile": }`, `[1,2]`, `"cowork"`, `42`} {
		t.Run(in, func(t *testing.T) {
			is := is.New(t)
			_, err := parse([]byte(in))
			is.True(err != nil)
			is.True(err.Error() == "not valid JSON" || err.Error() == "not a JSON object")
		})
	}
}

// TestErrorsNameTheFileOnce: whatever is wrong with which field, the
// error says "config FILE:" once and nothing repeats the label.
func TestErrorsNameTheFileOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.json")
	cases := []string{`{"budget": 1}`, `[1]`, `{`}
	for _, k := range slices.Concat(memfile.ConfigKeys, hooks.SettingsKeys) {
		cases = append(cases, `{"`+k+`": {"not": "a value"}}`) // an object is no field's value
	}
	for _, body := range cases {
		t.Run(body, func(t *testing.T) {
			is := is.New(t)
			is.NoErr(os.WriteFile(path, []byte(body), 0o644))
			_, err := Load(path, dir)
			is.True(err != nil)
			msg := err.Error()
			is.True(strings.HasPrefix(msg, "config "+path+": "))
			is.Equal(strings.Count(msg, path), 1)     // the file named once
			is.Equal(strings.Count(msg, "config"), 1) // the label once
		})
	}
}

func TestLoadFindsTheFile(t *testing.T) {
	is := is.New(t)
	root := t.TempDir()

	c, err := Load("", root) // no file: the defaults
	is.NoErr(err)
	is.Equal(c, Default())
	is.Equal(c.Path, "")

	_, err = Load(filepath.Join(root, "missing.json"), root) // a file given must exist
	is.True(err != nil)
	is.True(errors.Is(err, fs.ErrNotExist))
	is.True(strings.HasPrefix(err.Error(), "config "+filepath.Join(root, "missing.json")+": "))

	ws := filepath.Join(root, filepath.FromSlash(Name))
	is.NoErr(os.MkdirAll(filepath.Dir(ws), 0o755))
	is.NoErr(os.WriteFile(ws, []byte(`{"stop_policy": "never"}`), 0o644))
	c, err = Load("", root) // the workspace's file
	is.NoErr(err)
	is.Equal(c.Hooks.StopPolicy, hooks.PolicyNever)
	is.Equal(c.Path, ws)

	given := filepath.Join(root, "given.json")
	is.NoErr(os.WriteFile(given, []byte(`{"profile": "cowork"}`), 0o644))
	c, err = Load(given, root) // a file given wins over the workspace's
	is.NoErr(err)
	is.Equal(c.Memory.Profile, "cowork")
	is.Equal(c.Hooks.StopPolicy, hooks.PolicyNudge)
	is.Equal(c.Path, given)
}
