//go:build bench

// Command golinked links and initialises every package bimri-hook
// imports, and then only prints one line: what starting this binary costs
// before it does any work of its own. `make bench` times it beside
// gofloor (a bare Go process) and bimri-hook, so the share of a hook's
// time that goes to start-up is measured, not guessed.
// TestGolinkedImportsWhatTheBinaryImports (in cmd/bimri-hook) keeps its
// imports equal to the command's, TestHookRuntimeSettings its runtime
// settings (//go:debug).
//
//go:debug updatemaxprocs=0
package main

import (
	"os"

	_ "cmp"
	_ "errors"
	_ "flag"
	_ "fmt"
	_ "github.com/bimri/bimri-hook/hooks"
	_ "github.com/bimri/bimri-hook/internal/approve"
	_ "github.com/bimri/bimri-hook/internal/config"
	_ "github.com/bimri/bimri-hook/internal/doctor"
	_ "github.com/bimri/bimri-hook/internal/event"
	_ "github.com/bimri/bimri-hook/internal/inspect"
	_ "github.com/bimri/bimri-hook/internal/install"
	_ "github.com/bimri/bimri-hook/internal/mergedriver"
	_ "github.com/bimri/bimri-hook/internal/recall"
	_ "github.com/bimri/bimri-hook/internal/record"
	_ "github.com/bimri/bimri-hook/internal/simulate"
	_ "github.com/bimri/bimri-hook/internal/workspace"
	_ "github.com/bimri/bimri-hook/memfile"
	_ "github.com/bimri/bimri-hook/wiring"
	_ "github.com/urfave/cli/v2"
	_ "io"
	_ "os/exec"
	_ "path/filepath"
	_ "slices"
	_ "strconv"
	_ "strings"
	_ "syscall"
	_ "time"
)

func main() {
	os.Stdout.WriteString("golinked\n")
}
