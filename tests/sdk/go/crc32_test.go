package scenarios

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// seenBody is what the wire carried: the X-Amz-Crc32 header and the body's bytes.
type seenBody struct {
	header string
	body   []byte
}

func Test_crc32(t *testing.T) {
	ctx, table := testContext(t), tableName("crc32")
	setup := newClient()
	createTable(t, setup, keyedTable(table, "pk", "S", "", ""))
	filler := strings.Repeat("x", 4000)
	for i := 0; i < 30; i++ { // 30 items of 4 KB: an answer of about 120 KB
		item := map[string]types.AttributeValue{"pk": str("item-" + strconv.Itoa(i)), "filler": str(filler)}
		if _, err := setup.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
			t.Fatal(err)
		}
	}

	var seen seenBody
	var warnings sdkLog
	client := newClient(func(o *dynamodb.Options) {
		o.DisableValidateResponseChecksum = false // the SDK's own CRC32 check, on
		o.EnableAcceptEncodingGzip = false        // the header is the CRC32 of the uncompressed body
		o.Logger = &warnings
		o.APIOptions = append(o.APIOptions, captureBody(&seen, false))
	})
	answer, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatalf("the SDK refused the answer: %v", err)
	}
	if mismatch := warnings.checksumMismatch(); mismatch != "" {
		t.Fatalf("the SDK's CRC32 check failed: %s", mismatch)
	}
	if len(answer.Items) != 30 {
		t.Fatalf("Scan: %d items, want 30", len(answer.Items))
	}
	if len(seen.body) <= 100*1024 {
		t.Fatalf("the answer is %d bytes, want over 100 KB", len(seen.body))
	}
	if want := strconv.FormatUint(uint64(crc32.ChecksumIEEE(seen.body)), 10); seen.header != want {
		t.Fatalf("X-Amz-Crc32 is %q, the body's CRC32 is %s", seen.header, want)
	}

	// The check is really on: the same answer with a wrong header makes the
	// SDK's checksum reader fail when the body is closed. The SDK (v1.74's
	// schema-based deserializer) logs that failure as a warning instead of
	// returning it, so the test reads the log.
	var tamperedWarnings sdkLog
	tampered := newClient(func(o *dynamodb.Options) {
		o.Logger = &tamperedWarnings
		o.APIOptions = append(o.APIOptions, captureBody(&seenBody{}, true))
	})
	_, err = tampered.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table)})
	if err == nil && tamperedWarnings.checksumMismatch() == "" {
		t.Fatal("the SDK neither refused nor flagged an answer whose X-Amz-Crc32 does not match its body")
	}
	t.Logf("a wrong X-Amz-Crc32: error %v; logged %q", err, tamperedWarnings.checksumMismatch())
}

// sdkLog keeps what the SDK logs, to find its checksum reader's complaint.
type sdkLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *sdkLog) Logf(_ logging.Classification, format string, v ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, v...))
}

func (l *sdkLog) checksumMismatch() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, "did not match expected checksum") {
			return line
		}
	}
	return ""
}

// captureBody reads the raw answer as it leaves the transport, before the
// SDK's checksum middleware wraps it, and puts the bytes back; corrupt
// changes the header afterwards.
func captureBody(into *seenBody, corrupt bool) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("CaptureBody",
			func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (
				middleware.DeserializeOutput, middleware.Metadata, error) {
				out, metadata, err := next.HandleDeserialize(ctx, in)
				if err != nil {
					return out, metadata, err
				}
				response := out.RawResponse.(*smithyhttp.Response)
				body, readErr := io.ReadAll(response.Body)
				response.Body.Close()
				if readErr != nil {
					return out, metadata, readErr
				}
				into.header, into.body = response.Header.Get("X-Amz-Crc32"), body
				response.Body = io.NopCloser(bytes.NewReader(body))
				if corrupt {
					response.Header.Set("X-Amz-Crc32", fmt.Sprint(crc32.ChecksumIEEE(body)+1))
				}
				return out, metadata, err
			}), middleware.After) // after the SDK's own: nearest the transport
	}
}
