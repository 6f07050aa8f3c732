package app

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// Encrypted uploads through the local web API (the path `lectern ingest`
// and the MCP upload take too): a file that opens without a password (RC4
// 40 and 128, AES 128 and 256, owner password only) is decrypted and its
// text read, with its cross-reference table intact or damaged (pdfcpu then
// rebuilds it with a wrong key: pages failed with a zlib error, an RC4
// file without compression ended ready with its text lost); one that needs
// a user password is refused with a 422 saying so, and nothing is kept.
func TestMagazineEncryptedUploads(t *testing.T) {
	refusing, local := newLocalAppWith(t, (*Local).Operations) // keeps nothing
	c := newLocalApp(t)
	const words = "Secret Words Here"
	for _, compressed := range []bool{true, false} {
		d := &pdftest.Doc{Uncompressed: !compressed}
		d.AddPage(612, 792).Text(72, 72, 24, true, words)
		plain := d.Bytes()
		for _, alg := range []struct {
			aes  bool
			bits int
		}{{false, 40}, {false, 128}, {true, 128}, {true, 256}} {
			for _, user := range []string{"", "user"} {
				for _, damaged := range []bool{false, true} {
					name := fmt.Sprintf("rc4-%d", alg.bits)
					if alg.aes {
						name = fmt.Sprintf("aes-%d", alg.bits)
					}
					name += fmt.Sprintf(" compressed=%v user=%q damaged=%v", compressed, user, damaged)
					enc, err := pdftest.Encrypt(plain, alg.aes, alg.bits, user)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if damaged {
						enc = pdftest.DamageStartXRef(enc)
					}
					if user != "" {
						status, b := refusing.upload("locked.pdf", enc, "")
						if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), "encrypted") || !strings.Contains(string(b), "needs a password") {
							t.Errorf("%s: %d %s, want 422 saying a password is needed", name, status, b)
						}
						assertNothingKept(t, refusing, local, "after the refused "+name)
						continue
					}
					status, b := c.upload("locked.pdf", enc, "")
					if status != http.StatusAccepted {
						t.Errorf("%s: upload = %d %s", name, status, b)
						continue
					}
					view := c.waitReady(decode[magazine.Issue](t, b).ID)
					if view.Status != magazine.IssueReady || len(view.PageErrors) != 0 {
						t.Errorf("%s: issue %s, page errors %+v", name, view.Status, view.PageErrors)
						continue
					}
					status, _, b = c.do(http.MethodGet, "/api/magazine/"+view.ID+"/pages/1", nil)
					page := decode[magazineapi.PageView](t, b)
					var text []string
					for _, r := range page.Regions {
						text = append(text, r.Text)
					}
					if status != http.StatusOK || !strings.Contains(strings.Join(text, " "), words) {
						t.Errorf("%s: page 1 (%d) reads %q, want %q", name, status, text, words)
					}
				}
			}
		}
	}
}
