#!/bin/sh
# launch.sh runs bimri-hook for the Claude Code plugin: every hook in
# hooks/hooks.json calls it with the hook's arguments. It execs the binary,
# so stdin, stdout and the exit status are the binary's own.
#
# The binary comes from, in order:
#   1. the build cached for this plugin version in $CLAUDE_PLUGIN_DATA/bin;
#   2. a build of the plugin's own source, when Go is installed;
#   3. bimri-hook on PATH.
# With none of these it says so in one line on stderr and exits 0: a missing
# memory must never break the Claude Code session.

root=${CLAUDE_PLUGIN_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
version=$(tr -d ' \t\r\n' 2>/dev/null <"$root/VERSION")
version=${version:-dev}
data=${CLAUDE_PLUGIN_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/bimri-hook}
exe=
case $(uname -s 2>/dev/null) in
MINGW* | MSYS* | CYGWIN*) exe=.exe ;;
esac
bin=$data/bin/bimri-hook-$version$exe

if [ -x "$bin" ]; then
	exec "$bin" "$@"
fi

if command -v go >/dev/null 2>&1; then
	# Build under a name of our own, then rename: the rename is atomic, so
	# sessions starting at once never run a half-written binary.
	tmp=$data/bin/.bimri-hook-$version.$$$exe
	log=$data/bin/build-$version.log
	if mkdir -p "$data/bin" 2>/dev/null &&
		(cd "$root" && GOFLAGS="-mod=mod -buildvcs=false" go build -trimpath -tags urfave_cli_no_docs \
			-ldflags "-s -w -X main.version=$version" \
			-o "$tmp" ./cmd/bimri-hook) >"$log" 2>&1 &&
		mv -f "$tmp" "$bin"; then
		rm -f "$log"
		exec "$bin" "$@"
	fi
	rm -f "$tmp"
	if command -v bimri-hook >/dev/null 2>&1; then
		exec bimri-hook "$@"
	fi
	echo "bimri-hook: go build failed (see $log): fix it or put bimri-hook on PATH" >&2
	exit 0
fi

if command -v bimri-hook >/dev/null 2>&1; then
	exec bimri-hook "$@"
fi
echo "bimri-hook: no binary: install Go or put bimri-hook on PATH" >&2
exit 0
