package lsp

import "testing"

// TestDeclSyntaxTypeParamsAndIotaConstants: a generic function's and
// type's type parameters are kept (gopls's package_symbols detail leaves
// them out: slices.Clone read "func Clone(s S) S"), and a constant of a
// const group written without a value has the type and value Go gives it
// (fsnotify's Chmod read "const Chmod").
func TestDeclSyntaxTypeParamsAndIotaConstants(t *testing.T) {
	src := `package p

func Clone[S ~[]E, E any](s S) S { return s }

type List[K comparable, V any] struct{ k K; v V }

func (l *List[K, V]) Get(k K) V { return l.v }

type Op uint32

const (
	Create Op = 1 << iota
	Write
	Remove
	Rename
	Chmod
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
)

const (
	A = base + iota
	B
	s = "a"
	t
)
`
	d := parseDecls(src)
	for _, c := range []struct {
		line                  int
		name                  string
		tparams, recv, detail string
	}{
		{3, "Clone", "[S ~[]E, E any]", "", ""},
		{5, "List", "[K comparable, V any]", "", ""},
		{7, "Get", "", "*List[K, V]", ""},
		{12, "Create", "", "", "Op = 1"},
		{13, "Write", "", "", "Op = 2"},
		{16, "Chmod", "", "", "Op = 16"},
		{20, "KB", "", "", "= 1024"},
		{21, "MB", "", "", "= 1048576"},
		{25, "A", "", "", "= base + 0"},
		{26, "B", "", "", "= base + 1"},
		{27, "s", "", "", `= "a"`},
		{28, "t", "", "", `= "a"`},
	} {
		got, ok := d[declKey{c.line, c.name}]
		if !ok || got.tparams != c.tparams || got.recv != c.recv || got.detail != c.detail {
			t.Errorf("%s at line %d: %+v (found %v); want tparams %q recv %q detail %q", c.name, c.line, got, ok, c.tparams, c.recv, c.detail)
		}
	}
	if f := d[declKey{5, "k"}]; f.isType || f.tparams != "" {
		t.Errorf("the field k on List's line reads as the type: %+v", f)
	}
	if ty := d[declKey{5, "List"}]; !ty.isType {
		t.Errorf("List on the line of its fields is not a type: %+v", ty)
	}
}
