package projconf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// fileJSON is the shape of .trestle.json.
type fileJSON struct {
	Selections map[string]Selection `json:"selections"`
	Tasks      map[string]taskJSON  `json:"tasks"`
}

type taskJSON struct {
	Command []string `json:"command"`
	Dir     string   `json:"dir"`
	Timeout string   `json:"timeout"`
}

// Parse parses the content of a .trestle.json named name (used in messages)
// and merges it over the defaults. On any error it returns the defaults and
// an error of the form "name:line:col: what is wrong" (or "name: key: what is
// wrong" for a value that is well-formed JSON but not a valid setting).
func Parse(name string, data []byte) (Config, error) {
	var f fileJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Defaults(), decodeError(name, data, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		line, col := position(data, int(dec.InputOffset()))
		return Defaults(), fmt.Errorf("%s:%d:%d: unexpected data after the top-level object", name, line, col)
	}
	cfg, err := merge(f)
	if err != nil {
		return Defaults(), fmt.Errorf("%s: %w", name, err)
	}
	return cfg, nil
}

// merge validates f and lays it over the defaults.
func merge(f fileJSON) (Config, error) {
	cfg := Defaults()
	for _, key := range slices.Sorted(maps.Keys(f.Selections)) {
		if key == "" {
			return Config{}, errors.New(`selections: a selection name is empty`)
		}
		cfg.Selections[key] = f.Selections[key]
	}
	for _, key := range slices.Sorted(maps.Keys(f.Tasks)) {
		t, err := validTask(key, f.Tasks[key])
		if err != nil {
			return Config{}, fmt.Errorf("tasks.%s: %w", key, err)
		}
		cfg.Tasks[key] = t
	}
	return cfg, nil
}

// validTask checks one task: a command, a folder inside the project and a
// positive timeout.
func validTask(name string, raw taskJSON) (Task, error) {
	t := Task{Name: name, Command: raw.Command, Dir: raw.Dir}
	if name == "" {
		return Task{}, errors.New("the task name is empty")
	}
	if len(raw.Command) == 0 || raw.Command[0] == "" {
		return Task{}, errors.New(`"command" is missing or empty; want an argv array like ["go", "test", "./..."]`)
	}
	if raw.Dir != "" {
		clean := filepath.Clean(filepath.FromSlash(raw.Dir))
		if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
			return Task{}, fmt.Errorf(`"dir" %q leaves the project; want a folder relative to the project root`, raw.Dir)
		}
		t.Dir = filepath.ToSlash(clean)
	}
	if raw.Timeout != "" {
		d, err := time.ParseDuration(raw.Timeout)
		if err != nil || d <= 0 {
			return Task{}, fmt.Errorf(`"timeout" %q is not a positive duration like "90s" or "5m"`, raw.Timeout)
		}
		t.Timeout = d
	}
	return t, nil
}

var unknownField = regexp.MustCompile(`^json: unknown field "(.*)"$`)

// decodeError turns a decoding error into "name:line:col: message".
func decodeError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, int(syn.Offset))
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		line, col := position(data, int(typ.Offset))
		return fmt.Errorf("%s:%d:%d: %s: a JSON %s is not valid here, want %s", name, line, col, pathAt(data, int(typ.Offset)), typ.Value, typ.Type)
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s:1:1: the file is empty; want a JSON object like {\"tasks\": {}}", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(data, len(data))
		return fmt.Errorf("%s:%d:%d: unexpected end of the file", name, line, col)
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		line, col := keyPosition(data, m[1])
		return fmt.Errorf("%s:%d:%d: unknown key %q (known: selections, tasks; a selection has tags, env, preload, interpret; a task has command, dir, timeout)", name, line, col, m[1])
	}
	return fmt.Errorf("%s: %w", name, err)
}

// position converts the decoder's offset (the byte count read when the
// error was found) to a 1-based line and column of the offending byte.
func position(data []byte, offset int) (line, col int) {
	offset = min(max(offset-1, 0), len(data))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = offset - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// keyPosition finds the first occurrence of "key" used as an object key.
func keyPosition(data []byte, key string) (line, col int) {
	quoted, _ := json.Marshal(key)
	re := regexp.MustCompile(regexp.QuoteMeta(string(quoted)) + `\s*:`)
	loc := re.FindIndex(data)
	if loc == nil {
		return 1, 1
	}
	return position(data, loc[0]+1)
}
