package fynelocale

import (
	"os"
	"strings"
)

// Set is true when this package set LANGUAGE.
var Set bool

func init() { Set = normalize(os.Getenv, os.Setenv) }

// normalize sets LANGUAGE=en when the locale go-locale would read is a C
// or POSIX locale with a codeset (C.UTF-8, POSIX.utf8) and LANGUAGE is
// unset, and reports whether it did.
func normalize(getenv func(string) string, setenv func(string, string) error) bool {
	loc := ""
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = getenv(name); loc != "" {
			break
		}
	}
	if loc == "C" || loc == "POSIX" || getenv("LANGUAGE") != "" {
		return false
	}
	lang, _, _ := strings.Cut(loc, ".")
	lang, _, _ = strings.Cut(lang, "@")
	if lang != "C" && lang != "POSIX" {
		return false
	}
	return setenv("LANGUAGE", "en") == nil
}
