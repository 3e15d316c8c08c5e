package ui

import (
	"slices"
	"testing"

	"trestle/app"
)

func TestTabList(t *testing.T) {
	got := tabList([]string{"a.go", "b.go"}, 1)
	want := []app.Tab{{Path: "a.go"}, {Path: "b.go", Active: true}}
	if !slices.Equal(got, want) {
		t.Errorf("tabList = %v, want %v", got, want)
	}
	if got := tabList(nil, -1); got == nil || len(got) != 0 {
		t.Errorf("tabList(nil) = %#v, want an empty slice", got)
	}
}
