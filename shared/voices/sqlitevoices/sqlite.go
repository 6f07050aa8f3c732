// Package sqlitevoices keeps the voice library in an SQLite file that
// several local processes open at once: in WAL mode readers never wait for
// the writer, writers queue on a busy timeout, and a commit in one process
// is seen by the next query of every other (bbolt, the instance table, locks
// its file to one process). The driver is modernc.org/sqlite, pure Go, so
// the binary needs no C library.
package sqlitevoices

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/lectern/lectern/shared/voices"
)

// Store is the voice library in one SQLite file.
type Store struct{ db *sql.DB }

var _ voices.Store = (*Store)(nil)

// schema keeps each voice as its JSON document plus the columns search
// reads: the lower-cased haystack and name key come from the same Go
// functions the in-memory search uses, so both agree on case folding. The
// search index covers every column a search reads, in result order: a
// search scans it without touching the documents, and a search without
// words reads it in order and stops at the page's end.
const schema = `
CREATE TABLE IF NOT EXISTS voices (
	id       TEXT PRIMARY KEY,
	version  INTEGER NOT NULL,
	name_key TEXT NOT NULL,
	haystack TEXT NOT NULL,
	language TEXT NOT NULL,
	gender   TEXT NOT NULL,
	age      TEXT NOT NULL,
	source   TEXT NOT NULL,
	engine   TEXT NOT NULL,
	data     BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS voices_search ON voices (name_key, id, language, gender, age, source, engine, haystack);
`

// Open opens (creating if needed) the library at path. busy_timeout lets a
// writer wait for another process's write instead of failing; _txlock
// immediate takes the write lock when a transaction starts, so two
// read-then-write transactions cannot deadlock.
func Open(path string) (*Store, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_txlock=immediate" +
		"&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open voice library %s: %w", path, err)
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open voice library %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Get returns one voice.
func (s *Store) Get(ctx context.Context, id string) (voices.Voice, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM voices WHERE id = ?`, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return voices.Voice{}, fmt.Errorf("%w: %s", voices.ErrNotFound, id)
	}
	if err != nil {
		return voices.Voice{}, fmt.Errorf("get voice %s: %w", id, err)
	}
	return decode(data)
}

// Create adds v at version 1.
func (s *Store) Create(ctx context.Context, v voices.Voice) (voices.Voice, error) {
	v.Version = 1
	n, err := insert(ctx, s.db, v)
	if err != nil {
		return voices.Voice{}, err
	}
	if n == 0 {
		return voices.Voice{}, fmt.Errorf("%w: %s", voices.ErrExists, v.ID)
	}
	return v, nil
}

// Update replaces the voice at v.Version.
func (s *Store) Update(ctx context.Context, v voices.Voice) (voices.Voice, error) {
	old := v.Version
	v.Version++
	row, err := columns(v)
	if err != nil {
		return voices.Voice{}, err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE voices SET version = ?, name_key = ?, haystack = ?, language = ?,
		gender = ?, age = ?, source = ?, engine = ?, data = ? WHERE id = ? AND version = ?`,
		append(row[1:], v.ID, old)...)
	if err != nil {
		return voices.Voice{}, fmt.Errorf("update voice %s: %w", v.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return voices.Voice{}, s.why(ctx, v.ID, old)
	}
	return v, nil
}

// Delete removes the voice at version (any when 0).
func (s *Store) Delete(ctx context.Context, id string, version int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM voices WHERE id = ? AND (? = 0 OR version = ?)`, id, version, version)
	if err != nil {
		return fmt.Errorf("delete voice %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return s.why(ctx, id, version)
	}
	return nil
}

// why tells a write that changed nothing: the voice is gone, or it is at
// another version.
func (s *Store) why(ctx context.Context, id string, version int64) error {
	var current int64
	err := s.db.QueryRowContext(ctx, `SELECT version FROM voices WHERE id = ?`, id).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %s", voices.ErrNotFound, id)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%w: %s is at version %d, not %d", voices.ErrStale, id, current, version)
}

// Import inserts the absent voices in one transaction.
func (s *Store) Import(ctx context.Context, vs []voices.Voice) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("import voices: %w", err)
	}
	defer tx.Rollback()
	added := 0
	for _, v := range vs {
		v.Version = 1
		n, err := insert(ctx, tx, v)
		if err != nil {
			return 0, err
		}
		added += int(n)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("import voices: %w", err)
	}
	return added, nil
}

// Search runs q in SQL: the filters and every term as a substring of the
// haystack (instr, so '%' and '_' in a term are plain characters), ordered
// like voices.Compare, with the total from a window count.
func (s *Store) Search(ctx context.Context, q voices.Query) (voices.Result, error) {
	var where []string
	var args []any
	terms := voices.Terms(q.Text)
	for _, t := range terms {
		where, args = append(where, "instr(haystack, ?) > 0"), append(args, t)
	}
	if q.Language != "" {
		where = append(where, "(language = ? OR substr(language, 1, ?) = ?)")
		args = append(args, q.Language, len(q.Language)+1, q.Language+"-")
	}
	for _, f := range []struct{ col, val string }{
		{"gender", string(q.Gender)}, {"age", string(q.Age)}, {"source", string(q.Source)}, {"engine", q.Engine},
	} {
		if f.val != "" {
			where, args = append(where, f.col+" = ?"), append(args, f.val)
		}
	}
	rank, rankArgs := "0", []any{}
	if len(terms) > 0 {
		rank = "CASE WHEN " + strings.Repeat("instr(name_key, ?) > 0 AND ", len(terms)-1) + "instr(name_key, ?) > 0 THEN 0 ELSE 1 END"
		for _, t := range terms {
			rankArgs = append(rankArgs, t)
		}
	}
	cond := "1"
	if len(where) > 0 {
		cond = strings.Join(where, " AND ")
	}
	// The page's ids come from the index in order; only they are joined to
	// their documents.
	sqlText := `SELECT v.data FROM (SELECT id, name_key, ` + rank + ` AS rk FROM voices WHERE ` + cond +
		` ORDER BY rk, name_key, id LIMIT ? OFFSET ?) AS p JOIN voices AS v ON v.id = p.id ORDER BY p.rk, p.name_key, p.id`
	all := append([]any{}, rankArgs...)
	all = append(append(all, args...), q.Limit, q.Offset)
	rows, err := s.db.QueryContext(ctx, sqlText, all...)
	if err != nil {
		return voices.Result{}, fmt.Errorf("search voices: %w", err)
	}
	defer rows.Close()
	var page []voices.Voice
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return voices.Result{}, fmt.Errorf("search voices: %w", err)
		}
		v, err := decode(data)
		if err != nil {
			return voices.Result{}, err
		}
		page = append(page, v)
	}
	if err := rows.Err(); err != nil {
		return voices.Result{}, fmt.Errorf("search voices: %w", err)
	}
	total := len(page)
	if q.Offset > 0 || len(page) == q.Limit {
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM voices WHERE `+cond, args...).Scan(&total); err != nil {
			return voices.Result{}, fmt.Errorf("count voices: %w", err)
		}
	}
	return voices.NewResult(page, total, q.Offset), nil
}

// execer is a database or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insert adds v unless its id is taken, answering 1 or 0.
func insert(ctx context.Context, db execer, v voices.Voice) (int64, error) {
	row, err := columns(v)
	if err != nil {
		return 0, err
	}
	res, err := db.ExecContext(ctx, `INSERT INTO voices (id, version, name_key, haystack, language, gender, age, source, engine, data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, row...)
	if err != nil {
		return 0, fmt.Errorf("insert voice %s: %w", v.ID, err)
	}
	return res.RowsAffected()
}

// columns are the row of v, in the table's column order.
func columns(v voices.Voice) ([]any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode voice %s: %w", v.ID, err)
	}
	return []any{v.ID, v.Version, voices.NameKey(v), voices.Haystack(v), v.Language,
		string(v.Gender), string(v.Age), string(v.Source), v.Engine, data}, nil
}

func decode(data []byte) (voices.Voice, error) {
	var v voices.Voice
	if err := json.Unmarshal(data, &v); err != nil {
		return voices.Voice{}, fmt.Errorf("decode voice: %w", err)
	}
	return v, nil
}
