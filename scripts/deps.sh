#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build Trestle (cgo + Fyne's
# OpenGL binding) and, with --test, to run its tests (Xvfb, a screenshot
# tool, Node and npm; with --bench also ripgrep; with --test or --check the
# linters `make check` runs). As root it runs apt-get; otherwise it prints
# the exact command.
set -euo pipefail

pkgs=(gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev)
case "${1:-}" in
  --test) pkgs+=(xvfb imagemagick xz-utils xdotool bubblewrap) ;; # xz-utils: unpacking the desktop bundle; xdotool: typing into the window; bubblewrap: the hosted agents' sandbox (app/sandbox)
  --bench) pkgs+=(xvfb imagemagick ripgrep) ;; # ripgrep: the search benchmark's baseline
esac

# The Go that go.mod's go line asks for (1.26.8), or later.
need_go="$(sed -n 's/^go //p' "$(dirname "$0")/../go.mod")"
if ! command -v go >/dev/null 2>&1; then
  echo "deps: Go is not on PATH; install Go $need_go or later (for example to /usr/local/go) and add it to PATH" >&2
  exit 1
fi
have_go="$(cd / && GOTOOLCHAIN=local go env GOVERSION)"; have_go="${have_go#go}"
if [[ $(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -1) != "$need_go" ]]; then
  echo "deps: go.mod requires Go $need_go; $(command -v go) is Go $have_go. Install Go $need_go or later and put it first on PATH" >&2
  exit 1
fi

# gopls, pinned: the editor's and the agents' Go intelligence (app/lsp).
# Its tests fail under CI=true without it, so it is installed here, into
# $(go env GOPATH)/bin, where app/lsp looks after PATH.
gopls_version=v0.23.0
gobin="$(go env GOPATH)/bin"
if ! command -v gopls >/dev/null 2>&1 && [[ ! -x $gobin/gopls ]]; then
  echo "deps: installing gopls $gopls_version (go install golang.org/x/tools/gopls@$gopls_version)" >&2
  GOFLAGS= go install "golang.org/x/tools/gopls@$gopls_version"
fi

# go_tool NAME PACKAGE MODULE VERSION installs the Go tool NAME into $gobin
# unless the one there is built from MODULE at VERSION.
go_tool() {
  local name=$1 pkg=$2 mod=$3 version=$4
  if [[ -x $gobin/$name ]] && go version -m "$gobin/$name" 2>/dev/null |
    awk -v m="$mod" -v v="$version" '$1 == "mod" && $2 == m && $3 == v { found = 1 } END { exit !found }'; then
    return
  fi
  echo "deps: installing $name $version (go install $pkg@$version)" >&2
  GOFLAGS= GOBIN="$gobin" go install "$pkg@$version"
}

# The linters `make check` runs, pinned (Makefile: STATICCHECK, DEADCODE).
if [[ ${1:-} == --test || ${1:-} == --check ]]; then
  go_tool staticcheck honnef.co/go/tools/cmd/staticcheck honnef.co/go/tools v0.8.2
  go_tool deadcode golang.org/x/tools/cmd/deadcode golang.org/x/tools v0.52.0
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node and npm run the MCP TypeScript SDK client test (test/clients); any
# install on PATH will do (Debian 12's nodejs is 18, enough for the SDK).
if [[ ${1:-} == --test ]] && ! { command -v node && command -v npm; } >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi
# bwrap_check: bubblewrap (app/sandbox, the hosted agents' sandbox) needs
# unprivileged user namespaces, which Ubuntu 24.04's AppArmor restricts
# unless told otherwise; as root it lifts that, otherwise it says how.
bwrap_check() {
  [[ ${1:-} == --test ]] && command -v bwrap >/dev/null 2>&1 || return 0
  bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid -- true 2>/dev/null && return 0
  local knob=/proc/sys/kernel/apparmor_restrict_unprivileged_userns
  if [[ -e $knob && $(id -u) -eq 0 ]]; then
    echo "deps: letting bubblewrap make sandboxes (sysctl kernel.apparmor_restrict_unprivileged_userns=0)" >&2
    sysctl -qw kernel.apparmor_restrict_unprivileged_userns=0 || true
    return 0
  fi
  echo "deps: bubblewrap cannot make a sandbox here; the hosted-agent tests need it (Ubuntu 24.04: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0)" >&2
}
[[ ${#missing[@]} -eq 0 ]] && { bwrap_check "${1:-}"; exit 0; }

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: install them with: sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd
bwrap_check "${1:-}"
