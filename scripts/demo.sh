#!/usr/bin/env bash
# demo.sh is `make demo`: it builds bimri-hook and lives four Claude Code
# sessions in a throwaway workspace, on fixed dates, showing after each
# what the model receives at SessionStart and the memory file itself.
#
# The events are the ones Claude Code sends, built and run by
# `bimri-hook simulate` through the same code as the real hook; the agent's
# part (answering the intake, recording what it did) is played by
# `bimri-hook remember`. Nothing outside the temporary folder is touched:
# HOME points into it, so no real memory or transcript is read.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bimri-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Build before HOME moves, so Go keeps its own caches.
bin=$tmp/bin/bimri-hook
(cd "$repo" && go build -o "$bin" ./cmd/bimri-hook)

ws=$tmp/workspace
mkdir -p "$ws" "$tmp/home"
export HOME=$tmp/home
unset CLAUDE_PROJECT_DIR CLAUDE_CONFIG_DIR BIMRI_CONFIG BIMRI_GLOBAL_DIR BIMRI_TODAY BIMRI_HOOK_BIN
# Where Claude Code would keep this workspace's transcripts.
transcripts=$HOME/.claude/projects/$(printf '%s' "$ws" | sed 's/[^A-Za-z0-9]/-/g')
mkdir -p "$transcripts"

day=
session=

# bh runs bimri-hook in the workspace on the session's date.
bh() { (cd "$ws" && BIMRI_TODAY=$day "$bin" "$@"); }

heading() {
	printf '\n%s\n %s\n%s\n' "$(printf '=%.0s' {1..72})" "$1" "$(printf '=%.0s' {1..72})"
}
part() { printf '\n--- %s ---\n' "$1"; }

# show_start prints what SessionStart gives the model: the
# additionalContext text, decoded by the binary itself.
show_start() {
	local context
	context=$(bh simulate SessionStart --session "$session" --context-only)
	part "SessionStart: what the model receives ($(printf '%s' "$context" | wc -m | tr -d ' ') characters of additionalContext)"
	printf '%s\n' "$context"
}

# agent records one entry, as the agent would with the command it was given.
agent() {
	local shown=() arg
	for arg in "$@"; do
		[[ $arg == *' '* ]] && arg="\"$arg\""
		shown+=("$arg")
	done
	printf '$ bimri-hook remember %s\n' "${shown[*]}"
	bh remember "$@"
	# The agent's Bash call lands in the transcript, which is how the hooks
	# know the session recorded something.
	printf '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_r","name":"Bash","input":{"command":"bimri-hook remember --dir %s \\"recorded\\"","description":"record memory"}}]}}\n' "$ws" >>"$transcripts/$session.jsonl"
}

# user_turn adds a prompt and a file edit to the session's transcript.
user_turn() {
	printf '{"type":"user","message":{"role":"user","content":"%s"}}\n' "$1" >>"$transcripts/$session.jsonl"
	printf '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_w","name":"Write","input":{"file_path":"%s/%s","content":"..."}}]}}\n' "$ws" "$2" >>"$transcripts/$session.jsonl"
}

stop() {
	part "Stop (after the turn): what Claude Code receives"
	bh simulate Stop --session "$session" "$@"
}

end_session() {
	part "SessionEnd: prints nothing; the session-end pass runs and Sessions goes up"
	bh simulate SessionEnd --session "$session"
	part "bimri.md after the session"
	cat "$ws/bimri.md"
}

begin() {
	day=$1 session=demo-session-$2
	: >"$transcripts/$session.jsonl"
	heading "Session $2 · $day · $3"
}

begin 2026-03-02 1 "a new workspace: the intake"
show_start
part "The agent asks the intake questions and records the answers in Tier 1"
agent --tier 1 --importance 5 --tags purpose "This project is a web service for booking shared meeting rooms."
agent --tier 1 --importance 5 --tags workflow "The user wants small reviewed changes, with tests before refactors."
agent --tier 1 --importance 5 --tags constraint,database "Everything must run on the company's PostgreSQL 15 cluster."
part "The user asks for a NOTES.md; the agent writes it but records nothing"
user_turn "Write a NOTES.md with the booking rules" NOTES.md
stop
part "Blocked once: the agent records, and the next Stop carries stop_hook_active"
agent --importance 3 --tags docs,booking "Wrote NOTES.md with the booking rules agreed with the user."
stop --stop-hook-active
end_session

begin 2026-03-03 2 "the memory comes back"
show_start
part "The agent works and records as it goes"
agent --importance 4 --tags database,decision "Chose sqlc over an ORM for the booking queries."
agent --importance 3 --tags database "Added migrations for the bookings and rooms tables."
agent --importance 1 --tags lint "Ran the linter; no issues."
stop
end_session

begin 2026-03-05 3 "two days on"
show_start
part "The agent records as it goes"
agent --importance 3 --tags database,performance "Indexed bookings by room and start time; the calendar query went from 900 ms to 40 ms."
agent --importance 2 --tags api "Renamed the /book endpoint to /bookings."
stop
end_session

begin 2026-03-24 4 "nineteen days later: entries decay, the archive fills, the pattern grows"
show_start
part "The agent records as it goes"
agent --importance 3 --tags database "Added a nightly job that removes bookings older than a year."
agent --importance 4 --tags api,decision "Versioned the public API under /v1 before the first external client."
stop
end_session
part "bimri-archive.md: what the passes took out, with the date and the reason"
cat "$ws/bimri-archive.md"

heading "bimri-hook show: every entry's weight, the patterns and the budgets"
bh show
