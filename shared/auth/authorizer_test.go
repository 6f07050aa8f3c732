package auth

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// loadEvent reads a real HTTP API authorizer event (payload 2.0) and puts
// header into both places API Gateway would: identitySource and headers.
func loadEvent(t *testing.T, header string) events.APIGatewayV2CustomAuthorizerV2Request {
	t.Helper()
	raw, err := os.ReadFile("testdata/authorizer-v2-request.json")
	if err != nil {
		t.Fatal(err)
	}
	raw = []byte(strings.ReplaceAll(string(raw), "Bearer TOKEN_PLACEHOLDER", header))
	var req events.APIGatewayV2CustomAuthorizerV2Request
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	return req
}

func TestAuthorizerWithRealEvent(t *testing.T) {
	const token = "tok-5f2a9c"
	authz := Authorizer(func(context.Context) (string, error) { return token, nil })
	cases := []struct {
		name   string
		header string
		want   bool
	}{
		{"right token is authorized", "Bearer " + token, true},
		{"wrong token is refused", "Bearer nope", false},
		{"missing header is refused", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := authz(context.Background(), loadEvent(t, c.header))
			if err != nil {
				t.Fatal(err)
			}
			if resp.IsAuthorized != c.want {
				t.Fatalf("IsAuthorized = %v, want %v", resp.IsAuthorized, c.want)
			}
		})
	}
	t.Run("header alone is used when identitySource is empty", func(t *testing.T) {
		req := loadEvent(t, "Bearer "+token)
		req.IdentitySource = nil
		resp, _ := authz(context.Background(), req)
		if !resp.IsAuthorized {
			t.Fatal("lowercase authorization header was not read")
		}
	})
}

func TestAuthorizerFailsClosedWhenTokenUnreadable(t *testing.T) {
	authz := Authorizer(func(context.Context) (string, error) { return "", errors.New("ssm: access denied") })
	resp, err := authz(context.Background(), loadEvent(t, "Bearer anything"))
	if err == nil || resp.IsAuthorized {
		t.Fatalf("want refusal with error, got authorized=%v err=%v", resp.IsAuthorized, err)
	}
}

func TestCachedFetchesOncePerTTL(t *testing.T) {
	now := time.Unix(1000, 0)
	calls := 0
	src := Cached(func(context.Context) (string, error) { calls++; return "t" + string(rune('0'+calls)), nil },
		5*time.Minute, func() time.Time { return now })
	a, _ := src(context.Background())
	b, _ := src(context.Background())
	if a != "t1" || b != "t1" || calls != 1 {
		t.Fatalf("within ttl: got %q %q after %d calls", a, b, calls)
	}
	now = now.Add(6 * time.Minute)
	c, _ := src(context.Background())
	if c != "t2" || calls != 2 {
		t.Fatalf("after ttl: got %q after %d calls", c, calls)
	}
}
