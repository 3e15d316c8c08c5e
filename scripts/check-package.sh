#!/usr/bin/env bash
# Checks the desktop bundle `make package` made: it unpacks, its desktop
# entry names the app, its binary and its icon, and `make user-install`
# puts them under a (temporary) home folder.
set -euo pipefail
bundle="${1:-out/Trestle.tar.xz}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xJf "$bundle" -C "$work"
entry="$work/trestle/usr/local/share/applications/io.trestle.workbench.desktop"
for want in "Type=Application" "Name=Trestle" "Exec=trestle" "Icon=io.trestle.workbench"; do
  grep -qx "$want" "$entry" || { echo "package: $entry lacks $want" >&2; exit 1; }
done
for exe in trestle trestle-workbench; do
  test -x "$work/trestle/usr/local/bin/$exe" || { echo "package: no executable $exe in the bundle" >&2; exit 1; }
  # The test-only tools are built only with -tags trestle_testhooks (the
  # end-to-end tests' binary); the shipped binaries must not hold them.
  for hook in trestle_debug_stall trestle_debug_apply TRESTLE_TEST_HOOKS; do
    ! grep -qa "$hook" "$work/trestle/usr/local/bin/$exe" || { echo "package: the bundled $exe holds the test hook $hook; build it without -tags trestle_testhooks" >&2; exit 1; }
  done
done
HOME="$work/home" make -s -C "$work/trestle" user-install >/dev/null
for f in .local/bin/trestle .local/bin/trestle-workbench .local/share/applications/io.trestle.workbench.desktop .local/share/icons/io.trestle.workbench.png; do
  test -e "$work/home/$f" || { echo "package: user-install did not create ~/$f" >&2; ls -R "$work/home" >&2; exit 1; }
done
# The installed front hands --version to the installed workbench beside it.
"$work/home/.local/bin/trestle" --version | grep -q '^trestle ' || { echo "package: the installed trestle does not run" >&2; exit 1; }
HOME="$work/home" make -s -C "$work/trestle" user-uninstall >/dev/null
for f in .local/bin/trestle .local/bin/trestle-workbench; do
  test ! -e "$work/home/$f" || { echo "package: user-uninstall left ~/$f" >&2; exit 1; }
done
echo "package: $bundle unpacks, its desktop entry is complete and user-install works"
