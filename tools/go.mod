// The developers' tools, pinned, in a module apart from bimri-hook's, so
// none of their dependencies reaches its go.mod or its binary. Run one
// from the repository's root as make does:
//
//	go tool -modfile=tools/go.mod gotestsum
//
// Add or upgrade one from this folder (from the root, -modfile would
// take the product's packages for this module's):
//
//	cd tools && go get -tool MODULE@VERSION && go mod tidy
module github.com/bimri/bimri-hook/tools

go 1.26.0

tool gotest.tools/gotestsum

require (
	github.com/bitfield/gotestdox v0.2.2 // indirect
	github.com/dnephin/pflag v1.0.7 // indirect
	github.com/fatih/color v1.18.0 // indirect
	github.com/fsnotify/fsnotify v1.9.0 // indirect
	github.com/google/shlex v0.0.0-20191202100458-e7afc7fbc510 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/sync v0.17.0 // indirect
	golang.org/x/sys v0.36.0 // indirect
	golang.org/x/term v0.35.0 // indirect
	golang.org/x/text v0.17.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
	gotest.tools/gotestsum v1.13.0 // indirect
)
