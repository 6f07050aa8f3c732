// Package auth owns how callers of the API prove who they are: a bearer token
// compared in constant time, used by the local server and the AWS authorizer.
package auth

import (
	"crypto/subtle"
	"strings"
)

// BearerMatches reports whether an Authorization header value carries token.
// An empty token never matches, so a missing configuration cannot open the API.
func BearerMatches(header, token string) bool {
	if token == "" {
		return false
	}
	const prefix = "Bearer "
	if len(header) <= len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return false
	}
	got := header[len(prefix):]
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}
