#!/usr/bin/env bash
# demo.sh is `make demo`: it builds bimri-hook and lives six Claude Code
# sessions in a throwaway workspace, on fixed dates, showing for each what
# the model receives at SessionStart (after the first, only what is new in
# it), what the agent records, what the client hears, and which entries
# the session put in or took out of bimri.md; the file itself once, at the
# end. It stays under 200 lines (TestDemo checks).
#
# The events are the ones Claude Code sends, piped to `bimri-hook hook` as
# the client runs it; what the model receives at SessionStart is read with
# `bimri-hook simulate SessionStart --context-only` (on a copy, the moment
# before). The agent's part (answering the intake, recording what it did)
# is played by `bimri-hook remember`, and written to the session's
# transcript as the client writes it: the Bash call, then its result.
# Nothing outside the temporary folder is touched: HOME points into it, so
# no real memory or transcript is read.
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

heading() { printf '\n=== %s ===\n' "$1"; }
part() { printf -- '--- %s ---\n' "$1"; }

# entries lists bimri.md's entries and patterns, one a line, without
# their weights (which change every day): what a session put in or took
# out shows as a line that came or went.
entries() {
	[[ -f $ws/bimri.md ]] || return 0
	awk '/^\[(IMPORTANCE|PATTERN):/ { head = $1; next }
		head != "" && NF { print head " " $0; head = "" }' "$ws/bimri.md" |
		sed 's/^\[IMPORTANCE:\([0-9]\)\]/imp \1:/; s/^\[PATTERN:\([A-Z]*\)\]/pattern, \1:/'
}

# event sends one hook event to `bimri-hook hook`, as Claude Code does,
# and prints what Claude Code receives, or says it receives nothing.
event() {
	local out
	out=$(printf '{"session_id":"%s","hook_event_name":"%s","cwd":"%s","transcript_path":"%s"%s}' \
		"$session" "$1" "$ws" "$transcripts/$session.jsonl" "${2:-}" |
		(cd "$ws" && BIMRI_TODAY=$day CLAUDE_PROJECT_DIR=$ws "$bin" hook))
	if [[ -n $out ]]; then
		printf '%s\n' "$out"
	else
		printf '(Claude Code receives nothing%s)\n' "${3:-}"
	fi
}

# show_start prints what SessionStart gives the model (the
# additionalContext text, decoded by the binary itself), then runs the
# event. The instructions that end every context are shown once, in the
# first session.
show_start() {
	context=$(bh simulate SessionStart --session "$session" --context-only 2>/dev/null)
	event SessionStart ',"source":"startup"' >/dev/null
	part "SessionStart: what the model receives ($(printf '%s' "$context" | wc -m | tr -d ' ') characters of additionalContext)"
	if [[ -z ${previous_context:-} ]]; then
		printf '%s\n' "$context"
	else
		# The first line, then only the lines the last session's context
		# did not have; the instructions are named, not repeated.
		printf '%s\n' "$context" | awk -v prev="$previous_context" '
			BEGIN { n = split(prev, p, "\n"); for (i = 1; i <= n; i++) seen[p[i]] = 1 }
			/^## How to use this memory/ { skip = 1; print "[## How to use this memory: the instructions, as in session 1]"; next }
			skip && /^## / { skip = 0 }
			skip { next }
			NR == 1 || !seen[$0] { print; next }
			{ same++ }
			END { if (same) printf "(%d more lines, the same as in the last session'"'"'s context, left out)\n", same }'
	fi
	previous_context=$context
}

# asked pulls, from the last SessionStart context, what a command the
# agent was given names (sed expression), or fails the demo.
asked() {
	local got
	got=$(printf '%s\n' "$context" | sed -n "$1" | head -1)
	[[ -n $got ]] || { echo "demo: the context did not ask for it ($1)" >&2; exit 1; }
	printf '%s' "$got"
}

# agent records one entry, as the agent would with the command it was given.
agent() {
	local shown=() arg
	for arg in "$@"; do
		[[ $arg == *' '* ]] && arg="\"$arg\""
		shown+=("$arg")
	done
	printf '$ bimri-hook remember %s\n' "${shown[*]}"
	# What it recorded shows after the session, among the entries that came.
	bh remember "$@" >/dev/null
	# The agent's Bash call and its result land in the transcript, which is
	# how the hooks know the session recorded something.
	calls=$((calls + 1))
	printf '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"bimri-hook remember --dir %s \\"recorded\\"","description":"record memory"}}]}}\n' "$calls" "$ws" >>"$transcripts/$session.jsonl"
	printf '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"recorded"}]}}\n' "$calls" >>"$transcripts/$session.jsonl"
}
calls=0

# user_turn adds a prompt and a file the agent wrote to the session's
# transcript: the Write call, then its result.
user_turn() {
	calls=$((calls + 1))
	printf '{"type":"user","message":{"role":"user","content":"%s"}}\n' "$1" >>"$transcripts/$session.jsonl"
	printf '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Write","input":{"file_path":"%s/%s","content":"..."}}]}}\n' "$calls" "$ws" "$2" >>"$transcripts/$session.jsonl"
	printf '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"File created successfully."}]}}\n' "$calls" >>"$transcripts/$session.jsonl"
}

stop() {
	part "Stop (after the turn): what Claude Code receives"
	if [[ ${1:-} == --stop-hook-active ]]; then
		event Stop ',"stop_hook_active":true' ": the turn follows a nudge, so bimri-hook lets it stop, and the pass changed nothing worth telling"
	else
		event Stop ',"stop_hook_active":false' ": nothing to nudge for, and the pass changed nothing worth telling"
	fi
}

end_session() {
	part "SessionEnd: the session-end pass runs and Sessions goes up"
	event SessionEnd ',"reason":"other"' ": the client shows nothing a SessionEnd hook says"
	part "bimri.md after the session ($(sed -n '1s/^<!-- \(.*\) -->$/\1/p' "$ws/bimri.md")): the entries that came (+) and went (-, with the archive's reason)"
	{ diff <(sed '/^$/d' <<<"$before") <(entries) || true; } | sed -n 's/^< /- /p; s/^> /+ /p' | with_reasons
}

# with_reasons adds to each entry that went ("- imp N: text") the reason
# the archive gives for it; a pattern that changed level went nowhere.
with_reasons() {
	awk 'FNR == NR {
			if (/^\[IMPORTANCE:/) { reason = ""; if (match($0, /\[REASON:[^]]*\]/)) reason = substr($0, RSTART + 8, RLENGTH - 9); next }
			if (reason != "" && NF) { why[$0] = reason; reason = "" }
			next
		}
		/^- imp [0-9]: / { text = substr($0, 10); if (text in why) $0 = $0 "  (" why[text] ")" }
		{ print }' "$ws/bimri-archive.md" - 2>/dev/null || cat
}

begin() {
	day=$1 session=demo-session-$2
	: >"$transcripts/$session.jsonl"
	before=$(entries)
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
part "Nudged once: the agent records, and the next Stop carries stop_hook_active"
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
part "Asked once, the agent writes the habit behind the pattern, with the command it was given"
tags=$(asked 's/.* remember --dir .* --tier 3 --tags \([^ ]*\) -- "The habit.*/\1/p')
agent --tier 3 --tags "$tags" -- "The user wants every database change measured: a query change comes with its timing."
part "The agent records as it goes"
agent --importance 3 --tags database "Added a nightly job that removes bookings older than a year."
agent --importance 4 --tags api,decision "Versioned the public API under /v1 before the first external client."
stop
end_session

begin 2026-03-25 5 "the pattern speaks: patterns with a sentence come first"
show_start
part "The agent records as it goes"
agent --importance 3 --tags database "Moved room availability into one SQL view."
agent --importance 3 --tags database,performance "Cached the room list; the calendar page loads in 120 ms."
stop
end_session

heading "Session 6 · 2026-03-27 · a full Tier 2: the agent consolidates"
day=2026-03-27 session=demo-session-6
: >"$transcripts/$session.jsonl"
before=$(entries)
used=$(bh show --json | sed -n '/"tier2"/,/}/s/.*"used": \([0-9]*\).*/\1/p')
part "For the demo, a Tier 2 budget just above what it holds (~$used tokens), as months of work would fill it"
mkdir -p "$ws/.claude"
printf '{"tier2_budget": %d}\n' $((used + 8)) >"$ws/.claude/bimri.json"
cat "$ws/.claude/bimri.json"
show_start
part "The agent replaces the entries it was asked about with one summary"
ids=$(asked 's/.* remember --dir .* --replaces \([0-9a-f,]*\) -- .*/\1/p')
agent --replaces "$ids" -- "Database: sqlc queries, a nightly clean-up, one availability view and a cached room list (calendar 900 ms to 120 ms)."
stop
end_session

heading "bimri.md at the end, without its comment and blank lines"
grep -v -e '^<!--' -e '^$' "$ws/bimri.md"
