package scenarios

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// admin sends one admin API call (/_localdynamo/<path>) and decodes its answer.
func admin(t *testing.T, method, path string, body any) map[string]any {
	t.Helper()
	var payload io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		payload = bytes.NewReader(encoded)
	}
	request, err := http.NewRequest(method, endpoint+"/_localdynamo/"+path, payload)
	if err != nil {
		t.Fatal(err)
	}
	request.Header.Set("Content-Type", "application/json")
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		t.Fatalf("admin %s %s: %v", method, path, err)
	}
	defer response.Body.Close()
	text, _ := io.ReadAll(response.Body)
	if response.StatusCode != http.StatusOK {
		t.Fatalf("admin %s %s: %d %s", method, path, response.StatusCode, text)
	}
	answer := map[string]any{}
	if len(text) > 0 {
		if err := json.Unmarshal(text, &answer); err != nil {
			t.Fatalf("admin %s %s: %v in %s", method, path, err, text)
		}
	}
	return answer
}

// freezeClock stops the test clock and puts it back at real time when the
// test ends, as every scenario must leave it.
func freezeClock(t *testing.T) int64 {
	t.Helper()
	t.Cleanup(func() { admin(t, "POST", "clock", map[string]any{"Reset": true, "Freeze": false}) })
	answer := admin(t, "POST", "clock", map[string]any{"Freeze": true})
	now, ok := answer["NowMillis"].(float64)
	if !ok {
		answer = admin(t, "GET", "clock", nil)
		now = answer["NowMillis"].(float64)
	}
	return int64(now)
}

func advanceClock(t *testing.T, seconds int) {
	t.Helper()
	admin(t, "POST", "clock", map[string]any{"AdvanceSeconds": seconds})
}

func sweep(t *testing.T) map[string]any {
	t.Helper()
	return admin(t, "POST", "sweep", map[string]any{})
}

// injectFault adds a fault rule, removed again when the test ends.
func injectFault(t *testing.T, rule map[string]any) {
	t.Helper()
	t.Cleanup(func() { admin(t, "DELETE", "faults", nil) })
	admin(t, "POST", "faults", rule)
}
