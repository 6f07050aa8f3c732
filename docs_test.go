package lectern

// The user docs (README.md and docs/*.md) stay true to the repository: their
// relative links and anchors resolve, the README stays short, docs/README.md
// indexes every page, docs/mcp.md names every MCP tool, docs/api.md every
// route, and every test, benchmark or repository path they cite exists.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// maxReadmeLines bounds README.md: it is the user's way in, the rest is in docs/.
const maxReadmeLines = 220

func TestDocsLinksResolve(t *testing.T) {
	for _, f := range docFiles(t) {
		for _, p := range linkProblems(".", f) {
			t.Errorf("%s: %s", f, p)
		}
	}
}

func TestReadmeIsShort(t *testing.T) {
	n := len(strings.Split(strings.TrimRight(read(t, "README.md"), "\n"), "\n"))
	if n > maxReadmeLines {
		t.Errorf("README.md has %d lines; keep it at most %d and move detail into docs/", n, maxReadmeLines)
	}
}

func TestDocsIndexListsEveryPage(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, missing := range unindexed("docs", read(t, "docs/README.md"), pages) {
		t.Errorf("docs/README.md does not link %s", missing)
	}
}

func TestMCPDocNamesEveryTool(t *testing.T) {
	tools := mcpToolNames(t)
	if len(tools) < 20 {
		t.Fatalf("found %d tool snapshots in shared/mcpserver/testdata/tools; the snapshot folder moved?", len(tools))
	}
	doc := read(t, "docs/mcp.md")
	for _, name := range tools {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(doc) {
			t.Errorf("docs/mcp.md does not mention the tool %s", name)
		}
	}
}

func TestAPIDocNamesEveryRoute(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal([]byte(read(t, "shared/httpapi/openapidoc/openapi.json")), &doc); err != nil {
		t.Fatal(err)
	}
	api := read(t, "docs/api.md")
	for path, ops := range doc.Paths {
		for method := range ops {
			m := strings.ToUpper(method)
			if !slices.Contains([]string{"GET", "PUT", "POST", "PATCH", "DELETE"}, m) {
				continue
			}
			if !strings.Contains(api, "| "+m+" | `"+path+"` |") {
				t.Errorf("docs/api.md has no row | %s | `%s` |", m, path)
			}
		}
	}
}

func TestDocsCiteOnlyTestsThatExist(t *testing.T) {
	defined := definedTests(t, ".")
	for _, f := range docFiles(t) {
		for _, name := range citedTests(read(t, f)) {
			if !defined[name] {
				t.Errorf("%s cites %s, which no _test.go file defines", f, name)
			}
		}
	}
}

func TestDocsCiteOnlyPathsThatExist(t *testing.T) {
	for _, f := range docFiles(t) {
		for _, p := range citedPaths(read(t, f)) {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s cites `%s`, which does not exist", f, p)
			}
		}
	}
}

// TestDocsCheckersCatchMistakes runs the checks above on pages made wrong on
// purpose, so a checker that stopped finding anything fails here.
func TestDocsCheckersCatchMistakes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/a.md", "# Page A\n\n## Run it, now!\n\nSee [b](b.md#the-end) and [top](#run-it-now).\n")
	write("docs/b.md", "# B\n\n## The end\n")
	write("README.md", "[a](docs/a.md) [gone](docs/gone.md) [bad anchor](docs/b.md#nowhere) ![pic](docs/images/x.png)\n"+
		"`[not a link](nowhere.md)`\n```\n[in code](nowhere.md)\n```\n[web](https://example.com/x.md) [self](#nothing)\n")
	if got := linkProblems(dir, "docs/a.md"); len(got) != 0 {
		t.Errorf("good links reported: %v", got)
	}
	got := linkProblems(dir, "README.md")
	want := []string{"docs/gone.md does not exist", "docs/b.md has no heading #nowhere", "docs/images/x.png does not exist", "README.md has no heading #nothing"}
	if !slices.Equal(got, want) {
		t.Errorf("problems in README.md:\n got %q\nwant %q", got, want)
	}

	if got := unindexed("docs", "[a](a.md)", []string{"docs/README.md", "docs/a.md", "docs/b.md"}); !slices.Equal(got, []string{"docs/b.md"}) {
		t.Errorf("unindexed pages: got %v, want [docs/b.md]", got)
	}

	write("x/x_test.go", "package x\n\nfunc TestReal(t *testing.T) {}\nfunc BenchmarkFast(b *testing.B) {}\n")
	defined := definedTests(t, dir)
	cited := citedTests("`TestReal` and TestGhost, BenchmarkFast; a TestSuite's name")
	if !slices.Equal(cited, []string{"BenchmarkFast", "TestGhost", "TestReal", "TestSuite"}) {
		t.Errorf("cited tests: %v", cited)
	}
	if !defined["TestReal"] || !defined["BenchmarkFast"] || defined["TestGhost"] {
		t.Errorf("defined tests: %v", defined)
	}

	if got := citedPaths("`shared/app` and `frontend/e2e/specs/70-reader.mjs`, `shared/<pkg>`, `cmd/*`, `go test ./shared/app`"); !slices.Equal(got, []string{"frontend/e2e/specs/70-reader.mjs", "shared/app"}) {
		t.Errorf("cited paths: %v", got)
	}
}

// docFiles is README.md and every page under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no docs/*.md pages")
	}
	return append([]string{"README.md"}, pages...)
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	fence      = regexp.MustCompile("(?ms)^```.*?^```")
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	mdLink     = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
)

// prose is a page without its code: a link in code is an example, not a link.
func prose(text string) string {
	return inlineCode.ReplaceAllString(fence.ReplaceAllString(text, ""), "")
}

// linkProblems lists the relative links of root/name that lead nowhere: a
// missing file, or an anchor no heading of the target page makes.
func linkProblems(root, name string) []string {
	text, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(prose(string(text)), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		rel := name
		if file != "" {
			rel = filepath.ToSlash(filepath.Join(filepath.Dir(name), file))
			if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
				out = append(out, rel+" does not exist")
				continue
			}
		}
		if anchor == "" || !strings.HasSuffix(rel, ".md") {
			continue
		}
		page, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		if !slices.Contains(anchors(string(page)), anchor) {
			out = append(out, rel+" has no heading #"+anchor)
		}
	}
	return out
}

// anchors are the ids GitHub gives a page's headings: lower case, spaces as
// hyphens, punctuation other than - and _ dropped, repeats numbered.
func anchors(text string) []string {
	seen := map[string]int{}
	var out []string
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(strings.NewReplacer("`", "", "*", "").Replace(m[1])) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		id := b.String()
		if n := seen[id]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", id, n))
		} else {
			out = append(out, id)
		}
		seen[id]++
	}
	return out
}

// unindexed lists the pages the index (a page in dir) links to none of.
func unindexed(dir, index string, pages []string) []string {
	linked := map[string]bool{}
	for _, m := range mdLink.FindAllStringSubmatch(prose(index), -1) {
		file, _, _ := strings.Cut(m[1], "#")
		linked[filepath.ToSlash(filepath.Join(dir, file))] = true
	}
	var out []string
	for _, p := range pages {
		if filepath.Base(p) != "README.md" && !linked[filepath.ToSlash(p)] {
			out = append(out, filepath.ToSlash(p))
		}
	}
	return out
}

func mcpToolNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("shared/mcpserver/testdata/tools/*.json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		var tool struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal([]byte(read(t, f)), &tool); err != nil || tool.Name == "" {
			t.Fatalf("%s: no tool name (%v)", f, err)
		}
		names = append(names, tool.Name)
	}
	return names
}

var (
	testName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*`)
	testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)\(`)
)

// citedTests are the Go test, benchmark and fuzz names a page names.
func citedTests(text string) []string {
	names := testName.FindAllString(text, -1)
	sort.Strings(names)
	return slices.Compact(names)
}

// definedTests are the test functions of every _test.go file under root.
func definedTests(t *testing.T, root string) map[string]bool {
	t.Helper()
	defined := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || slices.Contains([]string{"node_modules", "testdata", "data", "bin", "dist"}, d.Name())) {
			return filepath.SkipDir // no Go tests there, and they may be large
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
				defined[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return defined
}

var repoPath = regexp.MustCompile("`((?:cmd|shared|frontend|infra|functions|statemachines|docs)/[A-Za-z0-9_./-]*)`")

// citedPaths are the repository paths a page quotes as code, alone in their
// backticks (a command that holds a path is not a path).
func citedPaths(text string) []string {
	var out []string
	for _, m := range repoPath.FindAllStringSubmatch(text, -1) {
		out = append(out, strings.TrimSuffix(m[1], "/"))
	}
	sort.Strings(out)
	return slices.Compact(out)
}
