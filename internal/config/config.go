// Package config finds and reads bimri-hook's one config file, which holds
// both the memory rules' numbers (memfile.Config) and the hooks' own knobs
// (hooks.Settings).
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bimri/bimri-hook/hooks"
	"github.com/bimri/bimri-hook/memfile"
)

// Name is the per-workspace config file, beside Claude Code's own
// settings.
const Name = ".claude/bimri.json"

// Config is everything the config file sets.
type Config struct {
	Memory memfile.Config
	Hooks  hooks.Settings
}

// Default is the config without a file: the claude-code profile.
func Default() Config {
	return Config{Memory: memfile.DefaultConfig(), Hooks: hooks.DefaultSettings()}
}

// Load reads an explicit config file, or the workspace's if it exists, or
// uses the defaults.
func Load(path, root string) (Config, error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join(root, filepath.FromSlash(Name))
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return Default(), nil
	}
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	cfg, err := memfile.LoadConfig(data, hooks.SettingsKeys...)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	settings, err := hooks.LoadSettings(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return Config{Memory: cfg, Hooks: settings}, nil
}
