package workerbuild

import _ "embed"

// genSource, genImporter and genStatic are evalgen's main.go, importer.go
// and static.go, built with the project's toolchain (see generator.go).
var (
	//go:embed evalgen/main.go
	genSource string
	//go:embed evalgen/importer.go
	genImporter string
	//go:embed evalgen/static.go
	genStatic string
)

// genHash identifies the generator's source, with the patch it is built with.
func genHash() string {
	return hashBytes([]byte(genSource + genImporter + genStatic + extractImporterVar))
}
