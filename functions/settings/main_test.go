package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/settingsapi"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store/bolt"
)

func loadEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

func responseBody(t *testing.T, resp events.APIGatewayV2HTTPResponse) string {
	t.Helper()
	if !resp.IsBase64Encoded {
		return resp.Body
	}
	b, err := base64.StdEncoding.DecodeString(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSettingsLambdaWithRealEvents drives the same handler main() starts with
// real API Gateway v2 (HTTP API, payload 2.0) events.
func TestSettingsLambdaWithRealEvents(t *testing.T) {
	table, err := bolt.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer table.Close()
	svc := settings.NewService(table, "default")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	handler := awsapp.LambdaHTTP(lectern.Version(), log, settingsapi.Operations(svc)...)
	ctx := context.Background()

	resp, err := handler(ctx, loadEvent(t, "put-settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	body := responseBody(t, resp)
	if resp.StatusCode != 200 {
		t.Fatalf("PUT status %d: %s", resp.StatusCode, body)
	}
	var view settings.View
	if err := json.Unmarshal([]byte(body), &view); err != nil {
		t.Fatalf("PUT body %s: %v", body, err)
	}
	if view.LLMAPIKey != settings.Configured || view.EngineAPIKeys["tts"] != settings.Configured || view.LLMURL != "http://10.0.0.5:4000/v1" {
		t.Fatalf("PUT answered %+v", view)
	}

	resp, err = handler(ctx, loadEvent(t, "get-settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	getBody := responseBody(t, resp)
	if resp.StatusCode != 200 || !strings.Contains(getBody, `"llm_api_key":"__configured__"`) {
		t.Fatalf("GET status %d: %s", resp.StatusCode, getBody)
	}
	if ct := resp.Headers["Content-Type"]; !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("GET content type %q", ct)
	}

	resp, err = handler(ctx, loadEvent(t, "put-settings-unknown-field.json"))
	if err != nil {
		t.Fatal(err)
	}
	badBody := responseBody(t, resp)
	if resp.StatusCode != 422 || resp.Headers["Content-Type"] != "application/problem+json" || !strings.Contains(badBody, "favourite_colour") {
		t.Fatalf("unknown field: %d %q %s", resp.StatusCode, resp.Headers["Content-Type"], badBody)
	}

	for _, b := range []string{body, getBody, badBody} {
		for _, key := range []string{"sk-lambda-7d1e55", "tts-key-90ab"} {
			if strings.Contains(b, key) {
				t.Fatalf("a response carries key %q: %s", key, b)
			}
		}
	}
	stored, err := svc.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stored.LLMAPIKey != "sk-lambda-7d1e55" || stored.LLMURL != "http://10.0.0.5:4000/v1" {
		t.Fatalf("stored %+v", stored)
	}
}
