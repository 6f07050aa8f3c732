package blob

import (
	"errors"
	"io"
	"os"
)

// ErrTooLarge: a stream went past the limit a TempCopy was given.
var ErrTooLarge = errors.New("the stream is larger than the limit")

// TempCopy copies a stream that cannot seek (an S3 body, a pipe) into a
// temporary file, read back from its start, so a large object can be read
// where it is needed without being held in memory. At most limit bytes are
// taken; more is ErrTooLarge. remove closes and deletes the copy.
func TempCopy(r io.Reader, limit int64) (file *os.File, size int64, remove func(), err error) {
	tmp, err := os.CreateTemp("", "lectern-copy-*")
	if err != nil {
		return nil, 0, nil, err
	}
	remove = func() { tmp.Close(); os.Remove(tmp.Name()) }
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
