//go:build evalgen_patched

package main

import (
	"go/types"

	"github.com/traefik/yaegi/extract"
)

// This file is compiled only into the generator that trestle's evaluator
// build makes, against its patched copy of yaegi's extract (see
// workerbuild/generator.go), which has an Importer to set.
func init() { setImporter = func(imp types.Importer) { extract.Importer = imp } }
