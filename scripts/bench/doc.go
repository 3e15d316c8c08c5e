// Command bench runs every benchmark of Trestle, prints one table of the
// figures with ratios against the baselines measured in the same run, and
// rewrites the section of docs/performance.md between the bench:start and
// bench:end markers. `make bench` runs it from the repository root;
// `go run ./scripts/bench -only REGEXP` runs only the rows whose figure
// matches (with their baselines) and prints them, leaving the doc alone.
//
// Time is reported as ratios against a baseline run beside it because
// these machines are noisy; absolute figures are for orientation.
package main
