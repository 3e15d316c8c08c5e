package store

import (
	"fmt"
	"os"
	"path/filepath"
)

// ConfigDir returns the folder where Trestle keeps everything per user: the
// registry, the store and the scratch project. TRESTLE_CONFIG_DIR overrides
// it outright; otherwise it is os.UserConfigDir()/trestle, so XDG_CONFIG_HOME
// moves it. The folder is not created here.
func ConfigDir() (string, error) {
	if dir := os.Getenv("TRESTLE_CONFIG_DIR"); dir != "" {
		return filepath.Abs(dir)
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the user config folder (set TRESTLE_CONFIG_DIR or HOME): %w", err)
	}
	return filepath.Join(base, "trestle"), nil
}

// FileName is the store's file in ConfigDir.
const FileName = "state.db"

// DefaultPath is the store's file in ConfigDir: where every Trestle
// process of this user keeps its state.
func DefaultPath() (string, error) {
	dir, err := ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, FileName), nil
}
