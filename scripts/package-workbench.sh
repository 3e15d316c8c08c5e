#!/usr/bin/env bash
# Adds the workbench binary to the desktop bundle `fyne package` made.
# fyne package bundles one executable, the `trestle` front
# (cmd/trestle/front), which hands every command but `trestle changes` to
# trestle-workbench beside it: this puts trestle-workbench in the bundle's
# bin folder and has the bundle's Makefile install and remove it beside
# trestle (install, user-install, uninstall, user-uninstall).
set -euo pipefail
bundle=$1 workbench=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xJf "$bundle" -C "$work"
install -m 0755 "$workbench" "$work/trestle/usr/local/bin/trestle-workbench"
mk="$work/trestle/Makefile"
sed -i -e 's|^\(\tinstall -Dm00755 usr/local/bin/\)$(Exec) \(.*\)/bin/$(Exec)$|&\n\1trestle-workbench \2/bin/trestle-workbench|' \
	-e 's|^\(\t-rm .*/bin/\)$(Exec)$|&\n\1trestle-workbench|' "$mk"
test "$(grep -c trestle-workbench "$mk")" = 4 || {
	echo "package: fyne package's Makefile changed shape; $0 no longer knows where to add trestle-workbench:" >&2
	cat "$mk" >&2
	exit 1
}
tar -cJf "$bundle" -C "$work" trestle
