//go:build race

package mcpbridge

// raceEnabled says the race detector is on: it slows JSON decoding about
// tenfold, so the biggest floods are scaled down under it.
const raceEnabled = true
