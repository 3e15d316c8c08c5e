package agent

import "testing"

// TestQuotedCommand: the dialog never shows one argument as two, nor a
// newline inside an argument as a second command line.
func TestQuotedCommand(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		want string
	}{
		{"plain", []string{"go", "test", "-run", "TestX", "./..."}, "go test -run TestX ./..."},
		{"spaces", []string{"sh", "-c", "echo one; rm -rf x"}, "sh -c 'echo one; rm -rf x'"},
		{"two args look like one", []string{"go", "test", "-run", "A ./x"}, "go test -run 'A ./x'"},
		{"quote", []string{"echo", "it's"}, `echo 'it'\''s'`},
		{"empty", []string{"go", "test", ""}, "go test ''"},
		{"newline", []string{"go", "test", "./...\ngo build ./..."}, `go test "./...\ngo build ./..."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QuotedCommand(tt.argv); got != tt.want {
				t.Fatalf("QuotedCommand(%q) = %s, want %s", tt.argv, got, tt.want)
			}
		})
	}
}
