package search

import (
	"reflect"
	"testing"
)

func TestReplacements(t *testing.T) {
	const text = "foo(a)\nbar Foo(b) foo(c)\né foo"
	tests := []struct {
		name string
		q    Query
		repl string
		want []Edit
	}{
		{"literal, any case", Query{Pattern: "foo", IgnoreCase: true}, "baz",
			[]Edit{{0, 0, 3, "baz"}, {1, 4, 7, "baz"}, {1, 11, 14, "baz"}, {2, 2, 5, "baz"}}},
		{"literal, case", Query{Pattern: "Foo"}, "$1", []Edit{{1, 4, 7, "$1"}}},
		{"regexp with a group", Query{Pattern: `foo\((\w)\)`, Regexp: true}, "call($1)",
			[]Edit{{0, 0, 6, "call(a)"}, {1, 11, 17, "call(c)"}}},
		{"no empty matches", Query{Pattern: `x*`, Regexp: true}, "y", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Replacements(text, tt.q, tt.repl)
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Replacements = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	if _, err := Replacements(text, Query{Pattern: "(", Regexp: true}, "x"); err == nil {
		t.Error("a bad regexp gave no error")
	}
}
