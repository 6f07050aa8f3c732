// Package engines owns what every engine client shares before one is built:
// turning the base URL the user typed into the one OpenAI-compatible clients
// expect, the key placeholder and the engine error types. It imports no
// client library, so a package that only names engines links none. Engine
// clients live in the subpackages (model listing in oaimodels); the URL
// guard is urlsafe, the container control docker.
package engines

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// KeyPlaceholder stands in for a key wherever one would be shown, in the
// form the spec prescribes for forwarded keys.
const KeyPlaceholder = "<API_KEY>"

// NormalizeLLMURL makes an OpenAI-compatible base URL end in exactly one
// /v1, whatever the user pasted: "http://h:4000" → "http://h:4000/v1",
// "http://h:4000/v1/" and "http://h/v1/v1" → ".../v1", "http://h/api/" →
// "http://h/api/v1". A fragment is dropped. It refuses schemes other than
// http(s), an empty host, user info (keys go in the key field, not where
// logs and error messages would show them) and a query string (the
// client would silently drop it when appending /models).
func NormalizeLLMURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("engine URL %q does not parse", s)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("engine URL %q: scheme must be http or https", s)
	case u.User != nil:
		return "", errors.New("engine URL must not contain user info; put the key in the key field")
	case u.Hostname() == "":
		return "", fmt.Errorf("engine URL %q has no host", s)
	case u.RawQuery != "" || u.ForceQuery:
		return "", fmt.Errorf("engine URL %q: a base URL takes no query string", s)
	}
	p := strings.TrimRight(u.Path, "/")
	for {
		trimmed := strings.TrimRight(p, "/")
		if !strings.EqualFold(pathTail(trimmed), "v1") {
			p = trimmed
			break
		}
		p = trimmed[:len(trimmed)-len("/v1")]
	}
	u.Path = p + "/v1"
	u.RawPath = ""
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// pathTail is the last segment of p ("" for "").
func pathTail(p string) string {
	return p[strings.LastIndex(p, "/")+1:]
}

// StatusText names an engine's HTTP status for an error text ("502 Bad
// Gateway"), in place of the answer's body, which is never shown.
func StatusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return fmt.Sprintf("%d %s", status, t)
	}
	return strconv.Itoa(status)
}

// Redact replaces the key wherever an engine or transport echoes it.
func Redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, KeyPlaceholder)
}
