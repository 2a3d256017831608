#!/bin/sh
# install.sh installs the programs of a bimri-hook release on Linux or
# macOS, with no Go: it downloads the release archive for this machine and
# its checksums.txt, checks the archive's SHA-256, and puts bimri-hook and
# the three programs it runs, bimri-hook-cli (every command but the
# hooks), bimri-hook-mcp (bimri-hook mcp) and bimri-hook-browse
# (bimri-hook browse), in $BIMRI_BIN_DIR (default ~/.local/bin).
#
#   curl -fsSL https://raw.githubusercontent.com/bimri/bimri-hook/main/install.sh | sh
#
# BIMRI_VERSION picks another release; BIMRI_BASE_URL another place that
# serves the release's files (a mirror, or a test's server).
set -eu

version=${BIMRI_VERSION:-0.1.0}
base=${BIMRI_BASE_URL:-https://github.com/bimri/bimri-hook/releases/download/v$version}
bindir=${BIMRI_BIN_DIR:-$HOME/.local/bin}

fail() {
	echo "install.sh: $*" >&2
	exit 1
}

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) fail "no release archive for $(uname -s); on Windows, use the Claude Code plugin or the .zip of the release" ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail "no release archive for $(uname -m)" ;;
esac
archive=bimri-hook_${version}_${os}_${arch}.tar.gz

if command -v curl >/dev/null 2>&1; then
	get() { curl -fsSL -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
	get() { wget -q -O "$2" "$1"; }
else
	fail "needs curl or wget"
fi
if command -v sha256sum >/dev/null 2>&1; then
	sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
	sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
	fail "needs sha256sum or shasum to check the download"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
get "$base/checksums.txt" "$tmp/checksums.txt" || fail "could not download $base/checksums.txt"
want=$(awk -v f="$archive" '$2 == f { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || fail "checksums.txt lists no $archive"
get "$base/$archive" "$tmp/$archive" || fail "could not download $base/$archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || fail "$archive has SHA-256 $got, checksums.txt says $want: not installed"

programs="bimri-hook-cli bimri-hook bimri-hook-mcp bimri-hook-browse"
tar -xzf "$tmp/$archive" -C "$tmp" $programs
mkdir -p "$bindir"
# Replace by rename, so a hook running the old binary meanwhile is not
# cut off; bimri-hook-cli first, so a new bimri-hook always finds it.
for p in $programs; do
	mv -f "$tmp/$p" "$bindir/$p.new"
	chmod 755 "$bindir/$p.new"
	mv -f "$bindir/$p.new" "$bindir/$p"
done
echo "installed bimri-hook $version in $bindir: $programs"
case ":$PATH:" in
*":$bindir:"*) echo "$bindir is on PATH; next, in your project: bimri-hook install" ;;
*) echo "$bindir is not on PATH: add it (export PATH=\"$bindir:\$PATH\" in your shell's profile), then in your project: bimri-hook install" ;;
esac
