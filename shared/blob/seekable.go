package blob

import (
	"errors"
	"io"
	"os"
)

// ErrTooLarge: a stream went past the limit Seekable was given.
var ErrTooLarge = errors.New("the stream is larger than the limit")

// Seekable gives r as something that can be read again from its start,
// with its size, so a large object can be read where it is needed without
// being held in memory: r itself when it can seek (a file, a form upload
// kept on disk, bytes in memory), measured without being read; else (an S3
// body, a pipe) a temporary copy on disk of at most limit bytes, more
// being ErrTooLarge. done lets go of it (and removes a copy). A seekable r
// is not measured against limit: its size is the caller's to check.
func Seekable(r io.Reader, limit int64) (file io.ReadSeeker, size int64, done func(), err error) {
	if rs, ok := r.(io.ReadSeeker); ok {
		// A pipe is an *os.File too, but cannot seek: it is copied.
		if size, err := rs.Seek(0, io.SeekEnd); err == nil {
			if _, err := rs.Seek(0, io.SeekStart); err != nil {
				return nil, 0, nil, err
			}
			return rs, size, func() {}, nil
		}
	}
	tmp, err := os.CreateTemp("", "lectern-copy-*")
	if err != nil {
		return nil, 0, nil, err
	}
	remove := func() { tmp.Close(); os.Remove(tmp.Name()) }
	size, err = io.Copy(tmp, io.LimitReader(r, limit+1))
	if err == nil && size > limit {
		err = ErrTooLarge
	}
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		remove()
		return nil, 0, nil, err
	}
	return tmp, size, remove, nil
}
