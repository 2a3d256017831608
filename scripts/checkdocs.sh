#!/usr/bin/env bash
# checkdocs.sh is part of `make test`: it fails when the documentation
# no longer matches the tree.
#
#   - every relative link in README.md, ARCHITECTURE.md and docs/*.md
#     leads to a file or folder that exists, and every #anchor to a
#     heading of that file (GitHub's rule: lower case, punctuation
#     dropped, spaces as hyphens);
#   - ARCHITECTURE.md names every folder that holds Go files (whatever
#     their build tags; testdata aside) as a link to the folder; the
#     first check makes every folder it links exist;
#   - every file and folder ARCHITECTURE.md names in a code span exists;
#   - a package in ARCHITECTURE.md's table imports only packages listed
#     below it, as the text above the table says.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
status=0
fail() {
	echo "checkdocs: $*" >&2
	status=1
}

# anchors prints the anchor of every heading in a markdown file, outside
# fenced code blocks.
anchors() {
	awk '
		/^```/ { fence = !fence; next }
		fence { next }
		/^#+ / {
			h = $0
			sub(/^#+ +/, "", h)
			h = tolower(h)
			gsub(/[^a-z0-9 _-]/, "", h)
			gsub(/ /, "-", h)
			print h
		}' "$1"
}

# links prints every link target of a markdown file, outside fenced code
# blocks and inline code.
links() {
	awk '
		/^```/ { fence = !fence; next }
		fence { next }
		{
			line = $0
			gsub(/`[^`]*`/, "", line)
			while (match(line, /\]\([^) ]+\)/)) {
				print substr(line, RSTART + 2, RLENGTH - 3)
				line = substr(line, RSTART + RLENGTH)
			}
		}' "$1"
}

docs=(README.md ARCHITECTURE.md docs/*.md)
for doc in "${docs[@]}"; do
	dir=$(dirname "$doc")
	while read -r target; do
		[ -n "$target" ] || continue
		case $target in
		http://* | https://* | mailto:*) continue ;;
		esac
		file=${target%%#*}
		anchor=
		[[ $target == *'#'* ]] && anchor=${target#*#}
		if [ -z "$file" ]; then
			path=$doc
		else
			path=$dir/$file
		fi
		if [ ! -e "$path" ]; then
			fail "$doc links to $target, which does not exist"
			continue
		fi
		if [ -n "$anchor" ]; then
			case $path in
			*.md)
				if ! anchors "$path" | grep -qxF -- "$anchor"; then
					fail "$doc links to $target: $path has no heading #$anchor"
				fi
				;;
			esac
		fi
	done < <(links "$doc")
done

# Every folder holding Go files, relative to the root: the packages,
# those behind a build tag included (go list would leave them out).
packages=$(find . -name '*.go' -not -path '*/testdata/*' -not -path './.*' |
	sed 's|^\./||; s|/[^/]*$||' | grep -v '\.go$' | sort -u)
named=$(links ARCHITECTURE.md | sed 's|#.*||; s|/$||' | sort -u)
for p in $packages; do
	if ! grep -qxF -- "$p" <<<"$named"; then
		fail "ARCHITECTURE.md does not name package $p (as a link to its folder: [\`$p\`]($p))"
	fi
done

# The files and folders ARCHITECTURE.md names in code spans exist: a path
# (memfile/parse*.go, hooks/messages.go) as written, a bare file name
# (parse.go) somewhere in the tree. Paths that begin with ., ~, $ or /
# are the user's (.claude/bimri.json), not the repository's.
while read -r name; do
	case $name in
	[.~\$/]*) continue ;;
	*/*) compgen -G "$name" >/dev/null || fail "ARCHITECTURE.md names $name, which does not exist" ;;
	*.go) [ -n "$(find . -name "$name" -not -path './.*' | head -1)" ] || fail "ARCHITECTURE.md names $name, which is in no folder" ;;
	esac
done < <(awk '/^```/ { fence = !fence; next } !fence' ARCHITECTURE.md |
	grep -o '`[^` ]*`' | tr -d '`' | sort -u)

# Imports go one way, down ARCHITECTURE.md's table: a package imports only
# packages listed below it (tests aside), as the text above the table says.
module=$("$GO" list -m)
table=$(awk '/^\| \[`/ { if (match($0, /\]\([^)]+\)/)) print substr($0, RSTART + 2, RLENGTH - 3) }' ARCHITECTURE.md)
rank() { grep -nxF -- "$1" <<<"$table" | cut -d: -f1 || true; }
# One line per package: the package, then the module's packages it
# imports, each relative to the module's root.
imports=$("$GO" list -tags bench -f '{{.ImportPath}} {{join .Imports " "}}' ./... |
	awk -v m="$module/" '{
		line = ""
		for (i = 1; i <= NF; i++)
			if (index($i, m) == 1) line = line " " substr($i, length(m) + 1)
		sub(/^ /, "", line)
		print line
	}')
while read -r p deps; do
	mine=$(rank "$p")
	[ -n "$mine" ] || continue
	for dep in $deps; do
		theirs=$(rank "$dep")
		if [ -z "$theirs" ]; then
			fail "$p imports $dep, which ARCHITECTURE.md's table of packages does not list"
		elif [ "$theirs" -le "$mine" ]; then
			fail "$p imports $dep, listed above it in ARCHITECTURE.md's table: imports must go down the list"
		fi
	done
done <<<"$imports"

if [ $status = 0 ]; then
	echo "checkdocs: ${#docs[@]} documents, every link resolves; ARCHITECTURE.md names all $(wc -w <<<"$packages") packages and only files that exist, and imports go down its table"
fi
exit $status
