#!/usr/bin/env bash
# fuzz.sh runs every fuzz target in the module, one after another, for
# FUZZTIME each (default 30s): `make fuzz`, or `FUZZTIME=5m bash scripts/fuzz.sh`.
#
# Targets are found with `go test -list '^Fuzz' ./...`, so a new Fuzz
# function is picked up without touching this script. When a target fails,
# go saves the input under <package>/testdata/fuzz/<Target>/; from then on
# plain `go test` (and CI) runs it as a regression case. Fix the bug and
# commit that file with the fix.
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

failed=()
while read -r pkg name; do
	echo "== $name ($pkg) for $FUZZTIME"
	if ! "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg"; then
		failed+=("$name ($pkg)")
	fi
done <<<"$targets"

echo
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz.sh: ${#failed[@]} target(s) failed; the inputs are in their package's testdata/fuzz:" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "fuzz.sh: $(wc -l <<<"$targets") target(s) ran for $FUZZTIME each; no failure"
