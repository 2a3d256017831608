#!/usr/bin/env bash
# bench.sh is `make bench`: whole-process timings and peak memory of
# `bimri-hook hook` on a full memory file, side by side with `cat` of the
# same file, then the Go benchmarks of the memfile core. The results go to
# stdout and to bench-results.txt (not committed: figures belong to a
# machine).
#
#   RUNS=50 bash scripts/bench.sh
#   BENCH_DIR=/dev/shm bash scripts/bench.sh   # workspace on tmpfs: no fsync cost
#   RUNS=10 GAP=3s bash scripts/bench.sh     # a pause before each run, as between real hooks
#   VERSUS="abc123 def456" RUNS=40 bash scripts/bench.sh  # this tree, then each revision against the one before
#   VERSUS="abc123 / def456" RUNS=40 bash scripts/bench.sh  # a "/" starts again: each against this tree
#   ONLY='steady|SessionEnd' bash scripts/bench.sh       # only the commands matching (benchrun -only)
#   ONLY='go floor|archive|bare' bash scripts/bench.sh   # the archive's bar: 50,000 records against none
#   BAR=1 bash scripts/bench.sh   # make latency: the go floor, steady SessionStart, SessionEnd, against the bar
#
# VERSUS names git revisions: each is built as this tree is, and runs
# every hook command beside this tree's build in the same interleaved
# loop; a last table compares each with the build before it (the first
# with this tree's), so a list of revisions one change apart measures
# each change. A "/" in the list starts a new chain, compared with this
# tree's build again: "a / b / c" measures three variants of this tree.
# Only the whole-process timings are run then (the rest describes one
# build).
#
# The full file comes from bench/genfull (Tier 1, 2 and 3 near
# their claude-code budgets, ~6,000 tokens, plus a four-month archive),
# the big one from genfull -tier2-entries 10000 (1.8 MB);
# bench/benchrun does the timing, every command interleaved with
# the others in one loop, each run from a fresh copy of its workspace
# made outside the timed region; see benchrun for the details. It needs
# nothing installed; GNU time, when present, gives the peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
RUNS=${RUNS:-30}
OUT=${OUT:-bench-results.txt}
BENCH_DIR=${BENCH_DIR:-}
GAP=${GAP:-0s}
VERSUS=${VERSUS:-}
ONLY=${ONLY:-}
BAR=${BAR:-}
bar=
if [ -n "$BAR" ]; then
	# The latency bar (TEAM.md): the two hooks it names and the floor
	# they are measured against, nothing else, so the run is short.
	ONLY='^(go floor|SessionStart steady|SessionEnd)$'
	bar=-bar
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Built by `make build`, so the figures are the shipped programs': the
# hook binary, and the ones beside it it runs for every other command.
# build_at SRC BIN builds the tree SRC's, the hook binary at BIN.
build_at() {
	make -s -C "$1" build GO="$GO" BIN="$2" >/dev/null
}
build_at . "$work/bimri-hook"
versus=
for rev in $VERSUS; do
	if [ "$rev" = / ]; then
		versus="$versus;"
		continue
	fi
	src="$work/src-$rev"
	mkdir -p "$src"
	git archive "$rev" | tar -x -C "$src"
	build_at "$src" "$work/bin-$rev/bimri-hook"
	case "$versus" in "" | *";") versus="$versus$rev=$work/bin-$rev/bimri-hook" ;; *) versus="$versus,$rev=$work/bin-$rev/bimri-hook" ;; esac
done
"$GO" build -trimpath -ldflags '-s -w' -tags bench -o "$work/gofloor" ./bench/gofloor
"$GO" build -trimpath -tags bench,urfave_cli_no_docs -ldflags '-s -w' -o "$work/golinked" ./bench/golinked
"$GO" build -tags bench -o "$work/genfull" ./bench/genfull
"$GO" build -tags bench -o "$work/benchrun" ./bench/benchrun
"$work/genfull" -dir "$work/full" >/dev/null
"$work/genfull" -dir "$work/big" -tier2-entries 10000 >/dev/null
# Recall's case: a memory like the full one with a 10,000-record archive.
"$work/genfull" -dir "$work/recall" -days 125 -per-day 81 >/dev/null
# The archive's case: a default-budget memory and the archive five years
# of a busy team leave, 50,000 records (not for the latency bar).
archive=
if [ -z "$BAR" ]; then
	"$work/genfull" -dir "$work/archive" -days 620 -per-day 81 -archive-records 50000 >/dev/null
	archive="$work/archive"
fi

{
	echo "bimri-hook benchmarks: $(date -u +%Y-%m-%d), $("$GO" env GOVERSION), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo
	echo "== Whole process: hook on a full memory file, side by side with cat"
	"$work/benchrun" -bin "$work/bimri-hook" -full "$work/full" -big "$work/big" -recall "$work/recall" -archive "$archive" -floor "$work/gofloor" -linked "$work/golinked" -runs "$RUNS" -gap "$GAP" -dir "$BENCH_DIR" -only "$ONLY" -versus "$versus" $bar
	if [ -n "$VERSUS" ] || [ -n "$BAR" ]; then
		exit 0
	fi
	echo
	echo "== Start-up: GODEBUG=inittrace=1 bimri-hook hook </dev/null (the hook binary's package inits, then its refusal of no input; bytes allocated by package inits; times vary with load; median of 11 runs)"
	# Each run's total and its three dearest packages; the median run by
	# total is printed, so one slow run does not speak for the rest.
	for _ in 1 2 3 4 5 6 7 8 9 10 11; do
		{ GODEBUG=inittrace=1 "$work/bimri-hook" hook </dev/null 2>&1 >/dev/null || true; } | awk '/^init/ { n++; ms += $5; kb += $8 / 1024; t[$2] = $5 }
			END { printf "%.2f %d packages initialised, %.2f ms, %.1f KB allocated; dearest:", ms, n, ms, kb
				for (k = 0; k < 3; k++) { best = ""; for (p in t) if (best == "" || t[p] + 0 > t[best] + 0) best = p; printf " %s %.2f ms", best, t[best]; delete t[best] }
				printf "\n" }'
	done | sort -n | sed -n 6p | cut -d' ' -f2-
	echo
	echo "== Go benchmarks: go test -run '^\$' -bench . -benchmem ./memfile ./privacy"
	"$GO" test -run '^$' -bench . -benchmem ./memfile ./privacy
} | tee "$OUT"
echo "bench.sh: results written to $OUT"
