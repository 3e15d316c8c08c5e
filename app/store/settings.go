package store

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"trestle/app/errdefs"
)

// Themes a person can pick.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Settings are the person's preferences for every project.
type Settings struct {
	Listener    bool    `json:"listener"`     // serve MCP on loopback
	TabWidth    int     `json:"tab_width"`    // columns a tab shows as
	Theme       string  `json:"theme"`        // ThemeSystem, ThemeLight or ThemeDark
	FontSize    float32 `json:"font_size"`    // 0: the theme's size
	HideIgnored bool    `json:"hide_ignored"` // hide, rather than dim, what .gitignore ignores
	// EvalDeadline is the person's evaluation deadline in seconds; 0 means
	// the evaluator's default (10 s). Agents give theirs per call.
	EvalDeadline int `json:"eval_deadline_seconds"`
	// EvalMemoryMiB is each evaluator worker's memory (address space)
	// limit in MiB; 0 means a quarter of the machine's memory. It takes
	// effect at the next start of Trestle.
	EvalMemoryMiB int `json:"eval_memory_mib"`
	// ChangeSetRetentionDays is how long a decided change set (applied,
	// rejected, withdrawn, reverted) is kept before it is pruned.
	ChangeSetRetentionDays int `json:"change_set_retention_days"`
	// FormatOnSave formats Go files with gopls (gofmt, organized imports) as they are saved.
	FormatOnSave bool `json:"format_on_save"`
}

// DefaultChangeSetRetentionDays keeps a decided change set a month: long
// enough to revert it or read why it was rejected, short enough that the
// store does not grow without end.
const DefaultChangeSetRetentionDays = 30

// MaxChangeSetRetentionDays bounds the retention a person can set.
const MaxChangeSetRetentionDays = 3650

// ChangeSetRetention is the retention of decided change sets, the
// default when none is set.
func (s Settings) ChangeSetRetention() time.Duration {
	days := s.ChangeSetRetentionDays
	if days <= 0 {
		days = DefaultChangeSetRetentionDays
	}
	return time.Duration(days) * 24 * time.Hour
}

// MinEvalMemoryMiB and MaxEvalMemoryMiB bound the evaluator memory limit a
// person can set: below 256 MiB a worker with the standard library linked
// in cannot start; above 1 TiB is no limit.
const (
	MinEvalMemoryMiB = 256
	MaxEvalMemoryMiB = 1 << 20
)

// MaxEvalDeadline is the longest evaluation deadline, in seconds (the
// evaluator caps a longer one at the same bound).
const MaxEvalDeadline = 60

// DefaultSettings are the settings before the person changes any.
func DefaultSettings() Settings {
	return Settings{Listener: true, TabWidth: 4, Theme: ThemeSystem, EvalDeadline: 10, ChangeSetRetentionDays: DefaultChangeSetRetentionDays, FormatOnSave: true}
}

// Validate reports the first setting out of range, for a person to fix.
func (s Settings) Validate() error {
	switch {
	case s.TabWidth < 1 || s.TabWidth > 16:
		return fmt.Errorf("tab width %d is outside 1..16: %w", s.TabWidth, errdefs.ErrInvalid)
	case s.Theme != ThemeSystem && s.Theme != ThemeLight && s.Theme != ThemeDark:
		return fmt.Errorf("theme %q is not system, light or dark: %w", s.Theme, errdefs.ErrInvalid)
	case s.EvalDeadline < 0 || s.EvalDeadline > MaxEvalDeadline:
		return fmt.Errorf("evaluation deadline %d s is outside 1..%d: %w", s.EvalDeadline, MaxEvalDeadline, errdefs.ErrInvalid)
	case s.FontSize != 0 && (s.FontSize < 8 || s.FontSize > 40):
		return fmt.Errorf("font size %.0f is outside 8..40: %w", s.FontSize, errdefs.ErrInvalid)
	case s.EvalMemoryMiB != 0 && (s.EvalMemoryMiB < MinEvalMemoryMiB || s.EvalMemoryMiB > MaxEvalMemoryMiB):
		return fmt.Errorf("evaluator memory %d MiB is outside %d..%d (0 for a quarter of the machine's): %w",
			s.EvalMemoryMiB, MinEvalMemoryMiB, MaxEvalMemoryMiB, errdefs.ErrInvalid)
	case s.ChangeSetRetentionDays < 0 || s.ChangeSetRetentionDays > MaxChangeSetRetentionDays:
		return fmt.Errorf("change set retention %d days is outside 1..%d (0 for the default): %w", s.ChangeSetRetentionDays, MaxChangeSetRetentionDays, errdefs.ErrInvalid)
	}
	return nil
}

const settingsKey = "settings"

// Settings returns the stored settings, or the defaults when none are stored.
func (s *Store) Settings() (Settings, error) {
	set := DefaultSettings()
	err := s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketSettings).Get([]byte(settingsKey)); v != nil {
			return json.Unmarshal(v, &set)
		}
		return nil
	})
	if err != nil {
		return DefaultSettings(), fmt.Errorf("read settings: %w", err)
	}
	return set, nil
}

// SaveSettings validates and stores set.
func (s *Store) SaveSettings(set Settings) error {
	if err := set.Validate(); err != nil {
		return err
	}
	return s.putJSON(bucketSettings, settingsKey, set, "save settings")
}

func (s *Store) putJSON(bucket []byte, key string, v any, what string) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	err = s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put([]byte(key), data) })
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
