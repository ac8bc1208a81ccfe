package localdynamotest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// adminCall sends one admin API request (/_localdynamo/<path>) and decodes
// its JSON answer into answer (when not nil). The admin token, if the
// server has one, comes from LOCALDYNAMO_ADMIN_TOKEN.
func adminCall(ctx context.Context, url, method, path string, body, answer any) error {
	var payload io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return err
		}
		payload = bytes.NewReader(encoded)
	}
	request, err := http.NewRequestWithContext(ctx, method, url+"/_localdynamo/"+path, payload)
	if err != nil {
		return err
	}
	request.Header.Set("Content-Type", "application/json")
	if token := os.Getenv("LOCALDYNAMO_ADMIN_TOKEN"); token != "" {
		request.Header.Set("Authorization", "Bearer "+token)
	}
	return send(request, method+" /_localdynamo/"+path, answer)
}

// dynamodbCall sends one DynamoDB operation as accessKey in region. The
// server picks the database from the credential scope of the Authorization
// header and checks no signature unless told to, so the header is all a
// request needs to reach its database.
func dynamodbCall(ctx context.Context, url, accessKey, region, operation string, input, answer any) error {
	encoded, err := json.Marshal(input)
	if err != nil {
		return err
	}
	request, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/", bytes.NewReader(encoded))
	if err != nil {
		return err
	}
	date := time.Now().UTC().Format("20060102")
	request.Header.Set("Content-Type", "application/x-amz-json-1.0")
	request.Header.Set("X-Amz-Target", "DynamoDB_20120810."+operation)
	request.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/%s/%s/dynamodb/aws4_request, "+
		"SignedHeaders=host;x-amz-target, Signature=0", accessKey, date, region))
	return send(request, operation, answer)
}

func send(request *http.Request, what string, answer any) error {
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		return fmt.Errorf("localdynamotest: %s: %w", what, err)
	}
	defer response.Body.Close()
	text, err := io.ReadAll(response.Body)
	if err != nil {
		return fmt.Errorf("localdynamotest: %s: %w", what, err)
	}
	if response.StatusCode != http.StatusOK {
		return fmt.Errorf("localdynamotest: %s failed (%d): %s", what, response.StatusCode, text)
	}
	if answer != nil && len(text) > 0 {
		if err := json.Unmarshal(text, answer); err != nil {
			return fmt.Errorf("localdynamotest: %s: %w in %s", what, err, text)
		}
	}
	return nil
}
