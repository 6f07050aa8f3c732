package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/lectern/lectern/shared/engines/urlsafe"
)

// An agent names the documents the tools read, and an agent's input can be
// steered by whatever text it read last (a web page, a book). So a path is
// read only beneath a folder the user gave this server, and a URL is fetched
// only from a public address unless the user allowed more.

// fileRoots are the folders whose files path arguments may name.
type fileRoots struct {
	dirs []rootDir
}

// rootDir is one folder, by the path the user gave and by its real path
// (symbolic links resolved), so a path written either way is found under it.
type rootDir struct {
	given, real string
}

// newFileRoots checks every folder exists and is a directory.
func newFileRoots(dirs []string) (fileRoots, error) {
	var fr fileRoots
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return fileRoots{}, fmt.Errorf("%w: file folder %q: %v", ErrInvalid, d, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return fileRoots{}, fmt.Errorf("%w: file folder %q: %v", ErrInvalid, d, err)
		}
		if st, err := os.Stat(real); err != nil || !st.IsDir() {
			return fileRoots{}, fmt.Errorf("%w: file folder %q is not a directory", ErrInvalid, d)
		}
		fr.dirs = append(fr.dirs, rootDir{given: abs, real: real})
	}
	return fr, nil
}

// read reads file, refusing one outside every folder, reached through a
// symbolic link that leads out of its folder, not a regular file, or over
// limit bytes. os.Root does the confining: it resolves each component
// beneath the folder and refuses ".." or a link that escapes it.
func (fr fileRoots) read(file string, limit int64) ([]byte, error) {
	if len(fr.dirs) == 0 {
		return nil, fmt.Errorf("%w: this server reads no local files (start it with --files DIR to allow a folder); give a url instead", ErrUnsupported)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("%w: path %q: %v", ErrInvalid, file, err)
	}
	for _, d := range fr.dirs {
		for _, base := range []string{d.given, d.real} {
			rel, err := filepath.Rel(base, abs)
			if err != nil || !filepath.IsLocal(rel) {
				continue
			}
			return readBeneath(d.real, rel, file, limit)
		}
	}
	return nil, fmt.Errorf("%w: %s is outside the folders this server may read (%s)", ErrForbidden, file, fr)
}

func (fr fileRoots) String() string {
	var s []string
	for _, d := range fr.dirs {
		s = append(s, d.given)
	}
	return strings.Join(s, ", ")
}

func readBeneath(dir, rel, shown string, limit int64) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", shown, err)
	}
	defer root.Close()
	// Stat first: opening a FIFO for reading would wait for a writer.
	st, err := root.Stat(rel)
	if err != nil {
		return nil, escaped(shown, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a file", ErrInvalid, shown)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%w: %s has %d bytes; the limit is %d", ErrInvalid, shown, st.Size(), limit)
	}
	f, err := root.Open(rel)
	if err != nil {
		return nil, escaped(shown, err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(st, now) {
		return nil, fmt.Errorf("%w: %s changed while it was opened", ErrInvalid, shown)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", shown, err)
	}
	return data, nil
}

// escaped names a link out of the folder as the refusal it is; other
// errors (not found, no permission) pass as they are.
func escaped(shown string, err error) error {
	var pe *os.PathError
	// os.Root's errPathEscapes is not exported; its text is what it says.
	if errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent" {
		return fmt.Errorf("%w: %s leads outside its folder (a symbolic link or ..)", ErrForbidden, shown)
	}
	return fmt.Errorf("read %s: %w", shown, err)
}

// fetchPolicy is the URL rule of document fetches: public addresses only,
// in every mode, besides what the user allowed.
func fetchPolicy(allow []string) urlsafe.Policy {
	return urlsafe.Policy{PublicOnly: true, Allow: allow}
}

// download fetches rawURL with hc, whose dialler refuses what the policy
// refuses at every connection, redirects included; Check refuses the same
// up front with a clearer reason.
func download(ctx context.Context, p urlsafe.Policy, hc *http.Client, rawURL string, limit int64) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: %q is not an http(s) URL", ErrInvalid, rawURL)
	}
	if _, err := p.Check(ctx, rawURL); err != nil {
		return nil, refusedURL(err)
	}
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, refusedURL(fmt.Errorf("fetch %s: %w", rawURL, err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: fetch %s: it answered %d %s", ErrInvalid, rawURL, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	return data, nil
}

// refusedURL marks a URL policy refusal as forbidden, saying how to lift it.
func refusedURL(err error) error {
	if errors.Is(err, urlsafe.ErrUnsafeURL) {
		return fmt.Errorf("%w: %v (this server fetches only public addresses; --fetch-allow names exceptions)", ErrForbidden, err)
	}
	return err
}
