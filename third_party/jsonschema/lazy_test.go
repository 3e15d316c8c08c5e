package jsonschema

// TRESTLE: the test of the one change from upstream (README-TRESTLE.md):
// the drafts' metaschemas are compiled on first use, not in func init().

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// compiledAtStart is the first draft whose metaschema was compiled before
// any test ran (TestMain looks once per process, so -count=2 works too).
var compiledAtStart *Draft

func TestMain(m *testing.M) {
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.sch != nil && compiledAtStart == nil {
			compiledAtStart = d
		}
	}
	os.Exit(m.Run())
}

// TestDraftsCompiledOnFirstUseFromManyGoroutines checks that importing the
// package compiles no metaschema, then starts the first use from several
// goroutines at once (run it with -race) and checks that each compiles
// schemas under draft-04, draft-07 and 2020-12, refuses schemas that break
// their metaschema, and validates good and bad documents as upstream does.
// It is the only test in this package: in a first run, nothing has used
// the drafts before it starts.
func TestDraftsCompiledOnFirstUseFromManyGoroutines(t *testing.T) {
	if compiledAtStart != nil {
		t.Fatalf("%s: metaschema compiled before the tests began; the init is not lazy", compiledAtStart)
	}

	cases := []struct {
		draft, schema string
		good, bad     any
	}{
		// draft-04: exclusiveMaximum is a boolean beside maximum.
		{"http://json-schema.org/draft-04/schema#", `{"type": "integer", "maximum": 3, "exclusiveMaximum": true}`, 2, 3},
		// draft-07: if/then.
		{"http://json-schema.org/draft-07/schema#", `{"if": {"type": "string"}, "then": {"minLength": 2}}`, "ab", "a"},
		// 2020-12: prefixItems, and format asserted only on request (not here).
		{"https://json-schema.org/draft/2020-12/schema", `{"prefixItems": [{"type": "number"}], "items": false, "format": "email"}`, []any{1}, []any{1, 2}},
	}

	const goroutines = 8
	start := make(chan struct{})
	errs := make(chan error, goroutines)
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) { // this module is go 1.21: one g per loop, not per iteration
			defer wg.Done()
			<-start
			errs <- useDrafts(g, cases)
		}(g)
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.sch == nil {
			t.Errorf("%s: metaschema still nil after first use", d)
		}
		for name, sch := range d.allVocabs {
			if sch == nil {
				t.Errorf("%s: vocabulary %q still nil after first use", d, name)
			}
		}
	}
}

func useDrafts(g int, cases []struct {
	draft, schema string
	good, bad     any
}) error {
	for i, tc := range cases {
		doc, err := UnmarshalJSON(strings.NewReader(`{"$schema": "` + tc.draft + `", ` + tc.schema[1:]))
		if err != nil {
			return err
		}
		c := NewCompiler()
		url := fmt.Sprintf("mem://g%d/case%d.json", g, i)
		if err := c.AddResource(url, doc); err != nil {
			return err
		}
		sch, err := c.Compile(url)
		if err != nil {
			return fmt.Errorf("goroutine %d, %s: compile: %v", g, tc.draft, err)
		}
		if err := sch.Validate(tc.good); err != nil {
			return fmt.Errorf("goroutine %d, %s: %v refused: %v", g, tc.draft, tc.good, err)
		}
		var verr *ValidationError
		if err := sch.Validate(tc.bad); !errors.As(err, &verr) {
			return fmt.Errorf("goroutine %d, %s: %v: got %v, want a *ValidationError", g, tc.draft, tc.bad, err)
		}

		// A schema that breaks its draft's metaschema is refused: this
		// reads the lazily compiled d.sch.
		broken, err := UnmarshalJSON(strings.NewReader(`{"$schema": "` + tc.draft + `", "type": 5}`))
		if err != nil {
			return err
		}
		burl := fmt.Sprintf("mem://g%d/broken%d.json", g, i)
		if err := c.AddResource(burl, broken); err != nil {
			return err
		}
		var serr *SchemaValidationError
		if _, err := c.Compile(burl); !errors.As(err, &serr) {
			return fmt.Errorf("goroutine %d, %s: schema {\"type\": 5}: got %v, want a *SchemaValidationError", g, tc.draft, err)
		}
	}
	return nil
}
