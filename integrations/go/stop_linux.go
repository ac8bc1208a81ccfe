package localdynamotest

import (
	"os/exec"
	"syscall"
)

// stopWithParent: the kernel sends the server SIGTERM when the test binary
// dies, however it dies (a timeout's SIGKILL included), so no server is left.
func stopWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
