package audiobook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// WithFFmpeg sets the ffmpeg command that joins the chapter parts (the
// speech renderer's, LECTERN_FFMPEG); "" is ffmpeg on PATH.
func (s *Service) WithFFmpeg(cmd string) *Service {
	s.ffmpeg = cmd
	return s
}

// escapeMeta escapes a value for an ffmetadata file.
func escapeMeta(v string) string {
	r := strings.NewReplacer(`\`, `\\`, "=", `\=`, ";", `\;`, "#", `\#`, "\n", `\`+"\n")
	return r.Replace(v)
}

// joinMetadata is the ffmetadata of the joined book: its tags and a
// chapter per part, each as long as the part.
func joinMetadata(title, author string, parts []Output) string {
	var b strings.Builder
	b.WriteString(";FFMETADATA1\n")
	fmt.Fprintf(&b, "title=%s\nalbum=%s\nartist=%s\ngenre=Audiobook\n", escapeMeta(title), escapeMeta(title), escapeMeta(author))
	var at int64
	for _, p := range parts {
		fmt.Fprintf(&b, "[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=%s\n", at, at+p.DurationMS, escapeMeta(p.Title))
		at += p.DurationMS
	}
	return b.String()
}

// joinParts joins the chapter parts (M4Bs of the same encoding) into the
// book's M4B by stream copy, so it takes seconds whatever the book's
// length: no part is decoded or normalised again.
func (s *Service) joinParts(ctx context.Context, title, author string, parts []Output, key string) (Output, error) {
	ffmpeg := s.ffmpeg
	if ffmpeg == "" {
		ffmpeg = "ffmpeg"
	}
	dir, err := os.MkdirTemp("", "lectern-join-")
	if err != nil {
		return Output{}, err
	}
	defer os.RemoveAll(dir)
	var list strings.Builder
	out := Output{Chapter: -1, Title: title, Format: "m4b", Key: key}
	for i, p := range parts {
		path := filepath.Join(dir, fmt.Sprintf("part%04d.m4a", i))
		if err := s.download(ctx, p.Key, path); err != nil {
			return Output{}, err
		}
		fmt.Fprintf(&list, "file '%s'\n", path)
		out.DurationMS += p.DurationMS
		out.Chunks += p.Chunks
		out.Cached += p.Cached
		out.EngineCalls += p.EngineCalls
	}
	listFile, metaFile, joined := filepath.Join(dir, "parts.txt"), filepath.Join(dir, "meta.txt"), filepath.Join(dir, "book.m4b")
	if err := os.WriteFile(listFile, []byte(list.String()), 0o600); err != nil {
		return Output{}, err
	}
	if err := os.WriteFile(metaFile, []byte(joinMetadata(title, author, parts)), 0o600); err != nil {
		return Output{}, err
	}
	cmd := exec.CommandContext(ctx, ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
		"-f", "concat", "-safe", "0", "-i", listFile, "-f", "ffmetadata", "-i", metaFile,
		"-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-c", "copy",
		"-movflags", "+faststart", "-f", "ipod", joined)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Output{}, ctx.Err()
		}
		return Output{}, fmt.Errorf("ffmpeg concat: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	f, err := os.Open(joined)
	if err != nil {
		return Output{}, err
	}
	defer f.Close()
	if err := s.blobs.Put(ctx, key, f, "audio/mp4"); err != nil {
		return Output{}, err
	}
	return out, nil
}

func (s *Service) download(ctx context.Context, key, path string) error {
	r, _, err := s.blobs.Get(ctx, key)
	if err != nil {
		return fmt.Errorf("chapter part %s: %w", key, err)
	}
	defer r.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
