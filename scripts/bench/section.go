package main

import (
	"fmt"
	"os"
	"strings"
)

// The markers around the generated section of docs/performance.md.
const (
	startMarker = "<!-- bench:start -->"
	endMarker   = "<!-- bench:end -->"
)

// updateDoc replaces what lies between the markers in the file at path
// with section, keeping the rest of the file.
func updateDoc(path, section string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	out, err := replaceSection(string(data), section)
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	return os.WriteFile(path, []byte(out), 0o644)
}

// replaceSection returns doc with the text between the markers replaced.
func replaceSection(doc, section string) (string, error) {
	before, rest, ok := strings.Cut(doc, startMarker)
	if !ok {
		return "", fmt.Errorf("no %s marker", startMarker)
	}
	_, after, ok := strings.Cut(rest, endMarker)
	if !ok {
		return "", fmt.Errorf("no %s marker after %s", endMarker, startMarker)
	}
	return before + startMarker + "\n" + strings.TrimRight(section, "\n") + "\n" + endMarker + after, nil
}
