package projconf

import "testing"

// TestUntrustedTasksThatRunProjectCodeNeedTrust: of the default tasks an
// untrusted project keeps, only go test runs the project's own code; the
// trusted configuration marks nothing.
func TestUntrustedTasksThatRunProjectCodeNeedTrust(t *testing.T) {
	tests := []struct {
		name  string
		needs bool
	}{
		{"build", false},
		{"vet", false},
		{"test", true},
	}
	untrusted := Defaults().Untrusted()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tk, _ := untrusted.Task(tt.name)
			if (tk.NeedsTrust != "") != tt.needs {
				t.Errorf("untrusted %s: NeedsTrust %q, want set %v", tt.name, tk.NeedsTrust, tt.needs)
			}
			if tk, _ := Defaults().Task(tt.name); tk.NeedsTrust != "" {
				t.Errorf("trusted %s: NeedsTrust %q", tt.name, tk.NeedsTrust)
			}
		})
	}
	if untrusted.Withheld != nil {
		t.Errorf("the defaults withhold %+v", untrusted.Withheld)
	}
}
