#!/usr/bin/env bash
# fuzz.sh runs every fuzz target in the module, one after another, for
# FUZZTIME each (default 30s): `make fuzz`, or `FUZZTIME=5m bash scripts/fuzz.sh`.
#
# Targets are found with `go test -list '^Fuzz' ./...`, so a new Fuzz
# function is picked up without touching this script. When a target fails,
# go saves the input under <package>/testdata/fuzz/<Target>/; from then on
# plain `go test` (and CI) runs it as a regression case. Fix the bug and
# commit that file with the fix.
#
# A target can also fail with a bare "context deadline exceeded" and no
# input saved: a race in Go's fuzzing coordinator when -fuzztime ends
# while a starved worker is mid-run (seen here on a loaded 2-CPU machine;
# see golang/go#48820 and its kin). Nothing can reproduce such a failure,
# so the target is run once more, and only a saved input counts as one.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}

# `go test -list` prints a package's matching names, then "ok  <package>".
targets=$("$GO" test -list '^Fuzz' ./... | awk '
	/^Fuzz/ { names[n++] = $1; next }
	/^ok/   { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }
')
if [ -z "$targets" ]; then
	echo "fuzz.sh: no fuzz targets found" >&2
	exit 1
fi

# saved lists the inputs go has saved for a target.
saved() { ls "$1/testdata/fuzz/$2" 2>/dev/null || true; }

failed=()
inconclusive=()
while read -r pkg name; do
	dir=$("$GO" list -f '{{.Dir}}' "$pkg")
	before=$(saved "$dir" "$name")
	for attempt in 1 2; do
		echo "== $name ($pkg) for $FUZZTIME"
		if "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg"; then
			break
		fi
		if [ "$(saved "$dir" "$name")" != "$before" ]; then
			failed+=("$name ($pkg)")
			break
		fi
		if [ $attempt = 2 ]; then
			inconclusive+=("$name ($pkg)")
		else
			echo "fuzz.sh: $name failed without saving an input; running it again"
		fi
	done
done <<<"$targets"

echo
if [ ${#inconclusive[@]} -gt 0 ]; then
	echo "fuzz.sh: failed twice without saving an input (nothing to reproduce; see the note at the top):"
	printf '  %s\n' "${inconclusive[@]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz.sh: ${#failed[@]} target(s) found a failing input, saved in its package's testdata/fuzz:" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "fuzz.sh: $(wc -l <<<"$targets") target(s) ran for $FUZZTIME each; no failing input"
