package scenarios

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"
)

// endpoint is the URL of the server TestMain started for the whole package.
var endpoint string

func TestMain(m *testing.M) {
	server, err := startServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdk/go:", err)
		os.Exit(1)
	}
	endpoint = server.endpoint
	code := m.Run()
	server.stop()
	os.Exit(code)
}

var listening = regexp.MustCompile(`localdynamo listening on (http://\S+)`)

type server struct {
	endpoint string
	cmd      *exec.Cmd
	exited   chan struct{}
}

// binary is $LOCALDYNAMO_BIN (ctest sets it), else the repository's build.
func binary() string {
	if bin := os.Getenv("LOCALDYNAMO_BIN"); bin != "" {
		return bin
	}
	return filepath.Join("..", "..", "..", "build", "localdynamo")
}

// startServer runs the binary on a port the kernel picks (--port 0) and
// returns once it prints where it listens.
func startServer() (*server, error) {
	cmd := exec.Command(binary(), "--in-memory", "--host", "127.0.0.1", "--port", "0", "--throttle")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %s (set LOCALDYNAMO_BIN): %w", cmd.Path, err)
	}
	ready := make(chan string, 1)
	go func() {
		// Keep reading for the whole run: a full pipe would stall the server.
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if match := listening.FindStringSubmatch(lines.Text()); match != nil {
				select {
				case ready <- match[1]:
				default:
				}
			}
		}
	}()
	s := &server{cmd: cmd, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.exited) }()
	select {
	case s.endpoint = <-ready:
		return s, nil
	case <-s.exited:
		return nil, fmt.Errorf("%s exited before listening: %s", cmd.Path, stderr.String())
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		return nil, errors.New("the server did not print its address within 20 s: " + stderr.String())
	}
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// tailBuffer keeps the last few kilobytes of the server's stderr for an
// error message, whatever the server writes over a long run.
type tailBuffer struct {
	mu   sync.Mutex
	data []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.data = append(b.data, p...)
	if over := len(b.data) - 8192; over > 0 {
		b.data = b.data[over:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.data)
}
