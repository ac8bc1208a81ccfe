//go:build !linux

package localdynamotest

import "os/exec"

// stopWithParent: only Linux can tie the server's life to the test binary's;
// elsewhere call Run from TestMain so that the server is stopped at the end.
func stopWithParent(cmd *exec.Cmd) {}
