package localdynamotest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// The server every Start of this test binary shares: LOCALDYNAMO_URL's, or
// one started on first use.
var shared struct {
	once    sync.Once
	url     string
	started *process // nil for LOCALDYNAMO_URL's server
	err     error
	// keyPrefix makes this binary's access keys its own on a server that
	// other runs (and go test's other package binaries) may share.
	keyPrefix string
	mu        sync.Mutex
	next      int
}

func server() (string, error) {
	shared.once.Do(func() {
		if external := os.Getenv("LOCALDYNAMO_URL"); external != "" {
			shared.url = strings.TrimRight(external, "/")
			shared.keyPrefix = "gotest-" + runID() + "-"
			return
		}
		shared.started, shared.err = startProcess()
		if shared.err == nil {
			shared.url = shared.started.url
			shared.keyPrefix = "gotest-"
		}
	})
	return shared.url, shared.err
}

// nextAccessKey names a new database: gotest-1, gotest-2, ... (with the
// run's id before the number on a server given by LOCALDYNAMO_URL).
func nextAccessKey() string {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	shared.next++
	return fmt.Sprintf("%s%d", shared.keyPrefix, shared.next)
}

func runID() string {
	bytes := make([]byte, 4)
	if _, err := rand.Read(bytes); err != nil {
		return fmt.Sprint(os.Getpid())
	}
	return hex.EncodeToString(bytes)
}

// Run runs the tests and then stops the server they shared. Call it from
// TestMain where the server must stop cleanly at the end, or off Linux
// (where nothing else stops it):
//
//	func TestMain(m *testing.M) { os.Exit(localdynamotest.Run(m)) }
//
// On Linux the server also stops by itself when the test binary exits.
func Run(m *testing.M) int {
	code := m.Run()
	if shared.started != nil {
		shared.started.stop()
	}
	return code
}
