package pipeline

import (
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// The AWS path: an upload reaches S3 unchecked and Prepare is the first to
// read it. An encrypted file that needs a user password is refused there
// as invalid input (the state machine records it on the issue) saying a
// password is needed; one that opens without a password is read, even with
// a damaged cross-reference table (pdfcpu then decrypts with a wrong key).
func TestPrepareEncryptedUploads(t *testing.T) {
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Text(72, 72, 24, true, "Secret Words Here")
	plain := d.Bytes()
	for _, aes := range []bool{false, true} {
		locked, err := pdftest.Encrypt(plain, aes, 128, "user")
		if err != nil {
			t.Fatal(err)
		}
		f := newStepsFixture(t)
		_, err = f.steps.Prepare(t.Context(), PrepareInput{SourceKey: issues.SourceKey(f.upload(t, locked))})
		if !isInvalidInput(err) || !strings.Contains(err.Error(), "needs a password") {
			t.Errorf("aes=%v with a user password: Prepare = %v, want invalid input saying a password is needed", aes, err)
		}
		open, err := pdftest.Encrypt(plain, aes, 128, "")
		if err != nil {
			t.Fatal(err)
		}
		page := f.renderRecognize(t, pdftest.DamageStartXRef(open), &fakeTesseract{})
		var text []string
		for _, r := range page.Regions {
			text = append(text, r.Text)
		}
		if !strings.Contains(strings.Join(text, " "), "Secret Words Here") {
			t.Errorf("aes=%v without a user password, damaged: page 1 reads %q", aes, text)
		}
	}
}
