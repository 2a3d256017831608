#!/bin/sh
# publish-plugin.sh PLUGIN MESSAGE puts the plugin folder PLUGIN (what
# make plugin writes to dist/plugin) on the release branch of the remote
# origin, as one new commit on top of the branch's history (no
# force-push), or as its first commit. The release workflow runs it in
# its checkout of the repository, whose origin has the credentials to
# push; scripts/release/publish_test.go runs it against a local remote.
#
# Users get the branch through the marketplace on main, which points the
# plugin at ref release; Claude Code clones it with --depth 1, so the
# fetch here is shallow too: the branch's older releases are never
# downloaded.
set -eu

[ $# -eq 2 ] || { echo "usage: publish-plugin.sh PLUGIN MESSAGE" >&2; exit 2; }
plugin=$(cd "$1" && pwd)
message=$2
[ -f "$plugin/.claude-plugin/plugin.json" ] || { echo "publish-plugin.sh: $plugin holds no .claude-plugin/plugin.json: run make plugin" >&2; exit 1; }

work=$(mktemp -d)
trap 'git worktree remove --force "$work" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
if git fetch -q --depth 1 origin +refs/heads/release:refs/remotes/origin/release 2>/dev/null; then
	git worktree add -q --detach "$work" origin/release
else
	git worktree add -q --detach "$work"
	git -C "$work" checkout -q --orphan release
fi
# The branch holds the plugin folder and nothing else: what the last
# release had and this one has not goes.
git -C "$work" rm -rqf --ignore-unmatch .
cp -R "$plugin/." "$work/"
# -f: nothing of the folder is left out by an ignore rule of the machine.
git -C "$work" add -A -f .
if git -C "$work" rev-parse -q --verify HEAD >/dev/null && git -C "$work" diff --cached --quiet; then
	echo "the release branch holds this plugin already: nothing to publish"
	exit 0
fi
git -C "$work" commit -q -m "$message"
git -C "$work" push -q origin HEAD:refs/heads/release
echo "published $plugin to the release branch: $(git -C "$work" rev-parse --short HEAD)"
