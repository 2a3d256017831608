// Package config reads bimri-hook's one config file, which holds the
// memory rules' numbers (memfile.Config) and the hooks' knobs
// (hooks.Settings): each package reads its own fields, and a field no part
// of the program knows is refused.
package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
	"github.com/bimri/bimri-hook/store/safefile"
	"github.com/tidwall/gjson"
)

const maxSize = 1 << 20

// Name is the workspace's config file, beside Claude Code's settings.
const Name = ".claude/bimri.json"

// EnvVar names a config file for every command, as --config does.
const EnvVar = "BIMRI_CONFIG"

type Config struct {
	Memory memfile.Config
	Hooks  hooks.Settings
	Path   string // the file read; "" for the defaults
}

// Default is the config without a file: the claude-code profile.
func Default() Config {
	return Config{Memory: memfile.DefaultConfig(), Hooks: hooks.DefaultSettings()}
}

// Load reads the file given (--config or $BIMRI_CONFIG), else the
// workspace's .claude/bimri.json if it exists; the defaults when there is
// none, or with the error that says why it did not load.
func Load(given, root string) (Config, error) {
	path := cmp.Or(given, filepath.Join(root, filepath.FromSlash(Name)))
	data, err := safefile.Read(path, maxSize)
	if errors.Is(err, fs.ErrNotExist) && given == "" {
		return Default(), nil
	}
	if err != nil {
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err // the path is said once, below
		}
		return Default(), fmt.Errorf("config %s: %w", path, err)
	}
	cfg, err := parse(data)
	if err != nil {
		return Default(), fmt.Errorf("config %s: %w", path, err)
	}
	cfg.Path = path
	return cfg, nil
}

// parse reads one JSON object whose every field is known, so a typo never
// silently falls back to a default.
func parse(data []byte) (Config, error) {
	if !gjson.ValidBytes(data) {
		return Config{}, errors.New("not valid JSON")
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return Config{}, errors.New("not a JSON object")
	}
	known := slices.Concat(memfile.ConfigKeys, hooks.SettingsKeys)
	var unknown []string
	root.ForEach(func(k, _ gjson.Result) bool {
		if !slices.Contains(known, k.String()) {
			unknown = append(unknown, k.String())
		}
		return true
	})
	if len(unknown) > 0 {
		return Config{}, fmt.Errorf("unknown field %q (known: %s)", slices.Min(unknown), strings.Join(known, ", "))
	}
	mem, err := memfile.ParseConfig(root)
	if err != nil {
		return Config{}, err
	}
	settings, err := hooks.ParseSettings(root)
	if err != nil {
		return Config{}, err
	}
	return Config{Memory: mem, Hooks: settings}, nil
}
