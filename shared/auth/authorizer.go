package auth

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// TokenSource fetches the current API token (in AWS, an SSM SecureString).
type TokenSource func(ctx context.Context) (string, error)

// Cached wraps src so the token is fetched at most once per ttl; a rotated
// token takes effect within ttl without a redeploy.
func Cached(src TokenSource, ttl time.Duration, now func() time.Time) TokenSource {
	var (
		mu      sync.Mutex
		token   string
		fetched time.Time
	)
	return func(ctx context.Context) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		if token != "" && now().Sub(fetched) < ttl {
			return token, nil
		}
		t, err := src(ctx)
		if err != nil {
			return "", err
		}
		token, fetched = t, now()
		return token, nil
	}
}

// Authorizer is the HTTP API Lambda authorizer (payload 2.0, simple responses).
// A request is allowed only when its Authorization header carries the token.
// If the token cannot be read the request is refused and the error returned,
// so the failure shows in the authorizer's logs: the API never fails open.
func Authorizer(token TokenSource) func(context.Context, events.APIGatewayV2CustomAuthorizerV2Request) (events.APIGatewayV2CustomAuthorizerSimpleResponse, error) {
	return func(ctx context.Context, req events.APIGatewayV2CustomAuthorizerV2Request) (events.APIGatewayV2CustomAuthorizerSimpleResponse, error) {
		want, err := token(ctx)
		if err != nil {
			return events.APIGatewayV2CustomAuthorizerSimpleResponse{IsAuthorized: false}, err
		}
		return events.APIGatewayV2CustomAuthorizerSimpleResponse{
			IsAuthorized: BearerMatches(authorizationHeader(req), want),
		}, nil
	}
}

// authorizationHeader prefers the configured identity source; HTTP APIs
// lowercase header names, but be lenient with hand-made events.
func authorizationHeader(req events.APIGatewayV2CustomAuthorizerV2Request) string {
	if len(req.IdentitySource) > 0 && req.IdentitySource[0] != "" {
		return req.IdentitySource[0]
	}
	for name, v := range req.Headers {
		if strings.EqualFold(name, "Authorization") {
			return v
		}
	}
	return ""
}
