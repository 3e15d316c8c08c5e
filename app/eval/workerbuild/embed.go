package workerbuild

import _ "embed"

// genSource is evalgen's main.go, built with the project's toolchain.
//
//go:embed evalgen/main.go
var genSource string
