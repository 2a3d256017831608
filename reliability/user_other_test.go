//go:build !unix

package reliability

import "os/exec"

// Permission bits are a Unix notion; elsewhere those cases are skipped.
func permissionsApply() bool { return false }

func runAs(*exec.Cmd) {}

func giveToOther(string) error { return nil }
