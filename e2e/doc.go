// Package e2e holds end-to-end tests that drive the real Claude Code client
// (installed from npm, pinned to the version whose behaviour
// e2e/testdata/claude-code.md records) against a fake Anthropic
// Messages API on 127.0.0.1, so hooks run exactly as they would for a user
// but offline and deterministically.
//
// The harness lives in the _test.go files of this package: installClaude,
// newFakeAPI, runClaude and buildBimriHook. This file exists so the package
// has a non-test file and a place for its documentation; nothing imports it.
package e2e
