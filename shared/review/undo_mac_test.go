package review

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
)

// TestUndoTokenWithAWrongMACIsRefused sends well-formed tokens for the
// right issue and the current revision whose MAC is not the server's: one
// with a single digit changed, one sealed under another secret. Only the
// MAC tells them from the real token, so each must be refused, change
// nothing, and leave the real token working.
func TestUndoTokenWithAWrongMACIsRefused(t *testing.T) {
	e, _, _ := fixture(t)
	ctx := context.Background()
	real := deleteP2(t, e)
	raw, err := base64.RawURLEncoding.DecodeString(real)
	if err != nil {
		t.Fatal(err)
	}
	var tok token
	if err := json.Unmarshal(raw, &tok); err != nil || tok.Issue != issueID || tok.MAC == "" {
		t.Fatalf("the real token %s reads %+v, %v", raw, tok, err)
	}
	reseal := func(mac string) string {
		b, _ := json.Marshal(token{Issue: tok.Issue, Revision: tok.Revision, MAC: mac})
		return base64.RawURLEncoding.EncodeToString(b)
	}
	flipped := []byte(tok.MAC)
	flipped[len(flipped)-1] ^= 1 // '0'↔'1', 'a'↔'`'… stays one character
	if flipped[len(flipped)-1] == '`' {
		flipped[len(flipped)-1] = 'b'
	}
	forged := map[string]string{
		"one digit of the MAC changed": reseal(string(flipped)),
		"sealed under another secret":  seal([]byte("not-the-server-secret-0123456789"), issueID, tok.Revision, "0000"),
	}
	for name, f := range forged {
		before := records(t, e)
		_, err := e.Undo(ctx, issueID, f)
		refused(t, e, before, err, ErrBadToken, "undo with a token "+name)
	}
	if _, err := e.Undo(ctx, issueID, real); err != nil {
		t.Fatalf("the real token after the forged ones: %v", err)
	}
}
