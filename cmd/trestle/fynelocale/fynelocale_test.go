package fynelocale

import "testing"

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		set  bool
	}{
		{"C.UTF-8 in LANG", map[string]string{"LANG": "C.UTF-8"}, true},
		{"C.utf8 in LC_ALL over a good LANG", map[string]string{"LC_ALL": "C.utf8", "LANG": "en_GB.UTF-8"}, true},
		{"POSIX with a codeset", map[string]string{"LC_MESSAGES": "POSIX.UTF-8"}, true},
		{"plain C is skipped by go-locale", map[string]string{"LANG": "C"}, false},
		{"plain POSIX", map[string]string{"LANG": "POSIX"}, false},
		{"a real locale", map[string]string{"LANG": "de_DE.UTF-8"}, false},
		{"LANGUAGE already says", map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "fr"}, false},
		{"nothing set", map[string]string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			set := normalize(func(k string) string { return tt.env[k] }, func(k, v string) error { got[k] = v; return nil })
			if set != tt.set || (set && got["LANGUAGE"] != "en") || (!set && len(got) > 0) {
				t.Fatalf("set %v, env %v", set, got)
			}
		})
	}
}
