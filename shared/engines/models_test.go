package engines

import (
	"strings"
	"testing"
)

func TestNormalizeLLMURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"http://h:4000", "http://h:4000/v1"},
		{"http://h:4000/", "http://h:4000/v1"},
		{"http://h:4000/v1", "http://h:4000/v1"},
		{"http://h:4000/v1/", "http://h:4000/v1"},
		{"http://h/v1/v1", "http://h/v1"},
		{"http://h/v1//v1///", "http://h/v1"},
		{"http://h/V1", "http://h/v1"},
		{"http://h/api/", "http://h/api/v1"},
		{"http://h/api", "http://h/api/v1"},
		{"http://h/api/v1", "http://h/api/v1"},
		{"http://h/apiv1", "http://h/apiv1/v1"},
		{"http://h/v1beta", "http://h/v1beta/v1"},
		{"https://openrouter.ai/api/v1/", "https://openrouter.ai/api/v1"},
		{"  https://api.example.com  ", "https://api.example.com/v1"},
		{"HTTPS://api.example.com", "https://api.example.com/v1"},
		{"http://[::1]:11434", "http://[::1]:11434/v1"},
		{"http://h/my%20gateway/", "http://h/my%20gateway/v1"},
		{"http://h:4000/v1#models", "http://h:4000/v1"},
	}
	for _, c := range cases {
		got, err := NormalizeLLMURL(c.in)
		if err != nil || got != c.want {
			t.Errorf("NormalizeLLMURL(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestNormalizeLLMURLRefuses(t *testing.T) {
	cases := []struct{ in, reason string }{
		{"", "scheme"},
		{"h:4000", "scheme"},
		{"//h:4000/v1", "scheme"},
		{"ftp://h/v1", "scheme"},
		{"file:///v1", "scheme"},
		{"http://", "no host"},
		{"http:///v1", "no host"},
		{"http://:4000/v1", "no host"},
		{"http://user:sk-secret@h/v1", "user info"},
		{"http://h/v1?api-version=2024", "query"},
		{"http://[::1/v1", "does not parse"},
	}
	for _, c := range cases {
		got, err := NormalizeLLMURL(c.in)
		if err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("NormalizeLLMURL(%q) = %q, %v; want an error about %s", c.in, got, err, c.reason)
		}
		if err != nil && strings.Contains(err.Error(), "sk-secret") {
			t.Errorf("NormalizeLLMURL(%q) repeats the password: %v", c.in, err)
		}
	}
}
