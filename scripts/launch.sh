#!/bin/sh
# launch.sh finds bimri-hook when the plugin's bin/bimri-hook has no
# binary bundled for this platform: a development checkout used as the
# plugin (claude --plugin-dir), or a platform the release does not build.
# It execs the binary it finds, so stdin, stdout and the exit status are
# the binary's own. In order:
#   1. the build cached for this plugin version in $CLAUDE_PLUGIN_DATA/bin;
#   2. bimri-hook on PATH, when it is this version;
#   3. in a development checkout only (the plugin folder holds go.mod), a
#      build of the plugin's own source with Go (bimri-hook, then
#      bimri-hook-mcp and bimri-hook-browse beside it), started in the background
#      (one at a time) so that no session waits for it: until it is done,
#      SessionStart says so in one line and memory is off, or an older
#      bimri-hook on PATH answers; the next event picks the build up.
# A hook never fails for want of a binary: it exits 0, SessionStart tells
# the user in one line what is missing and how to fix it, and a missing
# memory never breaks the Claude Code session.
#
# Path 1 forks nothing: the version is read with `read`, the platform is
# told by $OS, and the script execs the binary in its own process.

root=${CLAUDE_PLUGIN_ROOT:-}
if [ -z "$root" ]; then
	case $0 in
	*/*) root=${0%/*}/.. ;;
	*) root=.. ;;
	esac
fi
version=
{ read -r version <"$root/VERSION"; } 2>/dev/null
version=${version:-dev}
exe=
case ${OS:-} in
Windows_NT) exe=.exe ;;
esac
data=${CLAUDE_PLUGIN_DATA:-}
if [ -z "$data" ]; then
	data=${XDG_CACHE_HOME:-$HOME/.cache}/bimri-hook
	# Run from the agent's Bash through bin/bimri-hook, which does not get
	# CLAUDE_PLUGIN_DATA: find the data folder the client gave the plugin
	# (<config>/plugins/data/<plugin>-<marketplace>).
	for dir in "${CLAUDE_CONFIG_DIR:-$HOME/.claude}"/plugins/data/bimri-hook-*; do
		if [ -x "$dir/bin/bimri-hook-$version$exe" ]; then
			data=$dir
			break
		fi
	done
fi
bin=$data/bin/bimri-hook-$version$exe

case ${CLAUDE_PLUGIN_ROOT:-} in
/*)
	if [ -x "$root/bin/bimri-hook" ]; then
		# The agent records with the plugin's bin/bimri-hook, named by its
		# absolute path: a relative entry on PATH (. or an empty one)
		# would find a bimri-hook the workspace holds first.
		BIMRI_HOOK_BIN=$root/bin/bimri-hook
		export BIMRI_HOOK_BIN
	fi
	;;
esac

if [ -x "$bin" ]; then
	exec "$bin" "$@"
fi

# bimri-hook on PATH, unless it is this plugin's own bin/bimri-hook, which
# comes back here. PATH is walked by hand, absolute entries only: `command
# -v` would take a relative one (. or an empty entry), and run a
# bimri-hook the workspace holds.
onpath=
IFS_was=$IFS
IFS=:
set -f
for dir in $PATH; do
	case $dir in
	/*)
		if [ -f "$dir/bimri-hook$exe" ] && [ -x "$dir/bimri-hook$exe" ]; then
			onpath=$dir/bimri-hook$exe
			break
		fi
		;;
	esac
done
set +f
IFS=$IFS_was
if [ -n "$onpath" ] && [ "$onpath" -ef "$root/bin/bimri-hook" ]; then
	onpath=
fi
if [ -n "$onpath" ] && [ "$("$onpath" version 2>/dev/null)" = "bimri-hook $version" ]; then
	exec "$onpath" "$@"
fi

# Start the build, unless one is running. The lock is a folder (mkdir is
# atomic) holding the builder's process ID; a lock whose builder is gone
# is taken over.
lock=$data/bin/.build-$version.lock
log=$data/bin/build-$version.log
build() {
	tmp=$data/bin/.build-$version.$$
	(
		trap '' HUP
		# Build under names of our own, then rename: the rename is atomic,
		# so an event never runs a half-written binary. The hook binary
		# first, so memory starts before its companions are built: the MCP
		# server (bimri-hook mcp) and the terminal UI (bimri-hook browse),
		# which it finds beside itself as bimri-hook-mcp-$version and
		# bimri-hook-browse-$version.
		if (cd "$root" && GOFLAGS="-mod=mod -buildvcs=false" go build -trimpath -tags urfave_cli_no_docs \
			-ldflags "-s -w -X main.version=$version" -o "$tmp/" ./cmd/bimri-hook) &&
			mv -f "$tmp/bimri-hook$exe" "$bin" &&
			(cd "$root" && GOFLAGS="-mod=mod -buildvcs=false" go build -trimpath \
				-ldflags "-s -w -X main.version=$version" -o "$tmp/" ./cmd/bimri-hook-mcp ./cmd/bimri-hook-browse) &&
			mv -f "$tmp/bimri-hook-mcp$exe" "$data/bin/bimri-hook-mcp-$version$exe" &&
			mv -f "$tmp/bimri-hook-browse$exe" "$data/bin/bimri-hook-browse-$version$exe"; then
			rm -f "$log"
		fi
		rm -rf "$tmp"
		rm -rf "$lock"
	) </dev/null >"$log" 2>&1 &
	echo $! >"$lock/pid"
}
state=nogo
if [ ! -f "$root/go.mod" ]; then
	state=nobinary
elif command -v go >/dev/null 2>&1 && mkdir -p "$data/bin" 2>/dev/null; then
	state=building
	if mkdir "$lock" 2>/dev/null; then
		failed=
		[ -f "$log" ] && failed=yes
		build
		[ -n "$failed" ] && state=retrying
	else
		pid=
		{ read -r pid <"$lock/pid"; } 2>/dev/null
		if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
			rm -rf "$lock"
			mkdir "$lock" 2>/dev/null && build
		fi
	fi
fi

if [ -n "$onpath" ]; then
	exec "$onpath" "$@" # another version: better than no memory meanwhile
fi
if [ "${1:-}" != hook ]; then
	case $state in
	nobinary) echo "bimri-hook: this plugin has no binary for ${BIMRI_PLATFORM:-this platform}; put bimri-hook $version on PATH" >&2 ;;
	nogo) echo "bimri-hook: not built: the plugin builds it with Go, which is not on PATH; install Go or put bimri-hook on PATH" >&2 ;;
	*) echo "bimri-hook: still building (see $data/bin); try again in a minute" >&2 ;;
	esac
	exit 1
fi

# A hook: read the event (builtins only), and answer SessionStart with one
# line for the user. Other events answer nothing.
event=
while IFS= read -r line || [ -n "$line" ]; do
	event=$event$line
done
case $event in
*'"hook_event_name"'*'"SessionStart"'*) ;;
*) exit 0 ;;
esac
case $state in
nobinary) msg="bimri-hook: memory is off: this plugin has no binary for ${BIMRI_PLATFORM:-this platform}. Put bimri-hook $version on PATH (see https://github.com/bimri/bimri-hook#install) and start a new session." ;;
nogo) msg="bimri-hook: memory is off: the plugin builds its binary with Go, which is not on PATH. Install Go (https://go.dev/dl/) and start a new session, or put bimri-hook $version on PATH." ;;
retrying) msg="bimri-hook: the last build failed (see $log); building again in the background. Memory starts once it is done." ;;
*) msg="bimri-hook: building its binary with Go in the background (first run of version $version, about a minute). Memory starts at the next event once it is done." ;;
esac
# The message holds no double quote or backslash but the log's path may:
# keep the JSON valid.
case $msg in
*'"'* | *'\'*) msg="bimri-hook: memory starts once its binary is built (see $data/bin)" ;;
esac
case $msg in
*'"'* | *'\'*) msg="bimri-hook: memory starts once its binary is built" ;;
esac
printf '{"systemMessage":"%s"}\n' "$msg"
exit 0
