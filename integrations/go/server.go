package localdynamotest

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

const (
	startupDeadline  = 15 * time.Second
	shutdownDeadline = 10 * time.Second
)

// The flags every started server gets: in memory, loopback only, a free
// port, and a database per access key and region (what makes Start's
// databases separate); as the pytest and Node integrations start it.
var serverFlags = []string{"--in-memory", "--host", "127.0.0.1", "--port", "0",
	"--per-key-databases", "--no-console"}

var listeningLine = regexp.MustCompile(`localdynamo listening on (http://\S+)`)

// process is the server this test binary started.
type process struct {
	cmd    *exec.Cmd
	url    string
	exited chan struct{}
}

// binary: $LOCALDYNAMO_BIN, else localdynamo on PATH.
func binary() (string, error) {
	if configured := os.Getenv("LOCALDYNAMO_BIN"); configured != "" {
		return configured, nil
	}
	found, err := exec.LookPath("localdynamo")
	if err != nil {
		return "", fmt.Errorf("localdynamotest: no localdynamo binary: put it on PATH, set " +
			"LOCALDYNAMO_BIN to it, or LOCALDYNAMO_URL to a running server started with --per-key-databases")
	}
	return found, nil
}

func startProcess() (*process, error) {
	bin, err := binary()
	if err != nil {
		return nil, err
	}
	output := &outputWatcher{ready: make(chan string, 1)}
	cmd := exec.Command(bin, serverFlags...)
	cmd.Stdout, cmd.Stderr = output, output
	stopWithParent(cmd)
	p := &process{cmd: cmd, exited: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		// With Pdeathsig the server is told to stop when the thread that
		// started it ends; this thread stays for the test binary's life.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		close(p.exited)
		select {} // keep the locked thread, and so the server's parent thread, alive
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("localdynamotest: cannot start %s: %w", bin, err)
	}
	describe := bin + " " + strings.Join(serverFlags, " ")
	select {
	case p.url = <-output.ready:
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("localdynamotest: %s exited during start-up: %s", describe, output.tail())
	case <-time.After(startupDeadline):
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("localdynamotest: %s did not say where it listens within %s: %s",
			describe, startupDeadline, output.tail())
	}
}

// stop: SIGTERM, then SIGKILL if it has not stopped in time.
func (p *process) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(shutdownDeadline):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// outputWatcher reads the server's output for the whole run (a pipe nobody
// reads would stall the server), finds the listening line and keeps the
// last few kilobytes for error messages.
type outputWatcher struct {
	mu    sync.Mutex
	data  []byte
	found bool
	ready chan string
}

func (w *outputWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.data = append(w.data, p...)
	if !w.found {
		if match := listeningLine.FindSubmatch(w.data); match != nil {
			w.found = true
			w.ready <- string(match[1])
		}
	}
	if over := len(w.data) - 8192; over > 0 && w.found {
		w.data = w.data[over:]
	}
	return len(p), nil
}

func (w *outputWatcher) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.data)
}
