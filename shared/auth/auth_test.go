package auth

import "testing"

func TestBearerMatches(t *testing.T) {
	cases := []struct {
		name, header, token string
		want                bool
	}{
		{"right token", "Bearer s3cret", "s3cret", true},
		{"scheme is case-insensitive", "bearer s3cret", "s3cret", true},
		{"wrong token", "Bearer s3cre", "s3cret", false},
		{"longer token", "Bearer s3cret!", "s3cret", false},
		{"missing header", "", "s3cret", false},
		{"scheme only", "Bearer ", "s3cret", false},
		{"basic scheme", "Basic s3cret", "s3cret", false},
		{"token without scheme", "s3cret", "s3cret", false},
		{"empty configured token never matches", "Bearer ", "", false},
		{"empty configured token with header", "Bearer x", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := BearerMatches(c.header, c.token); got != c.want {
				t.Fatalf("BearerMatches(%q, %q) = %v, want %v", c.header, c.token, got, c.want)
			}
		})
	}
}
