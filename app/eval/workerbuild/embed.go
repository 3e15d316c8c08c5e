package workerbuild

import _ "embed"

// genSource is evalgen's main.go and genImporter its importer.go, built
// with the project's toolchain (see generator.go).
var (
	//go:embed evalgen/main.go
	genSource string
	//go:embed evalgen/importer.go
	genImporter string
)
