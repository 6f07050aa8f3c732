package mcpserver

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the tool snapshots under testdata/tools")

// allTools builds every toolset's tools over a client nothing calls.
func allTools(t *testing.T) []Tool {
	t.Helper()
	c, err := NewClient("http://127.0.0.1:1", "", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := AllTools(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// TestToolSnapshots freezes each tool's public surface (name, title,
// description, input schema, annotations) in one file per tool: a change
// fails until the snapshot is rewritten with -update and reviewed.
func TestToolSnapshots(t *testing.T) {
	dir := filepath.Join("testdata", "tools")
	want := map[string]bool{}
	for _, tool := range allTools(t) {
		name := tool.Def.Name + ".json"
		want[name] = true
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // keep <query> readable in the files
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{
			"name": tool.Def.Name, "title": tool.Def.Title, "toolset": tool.Toolset, "description": tool.Def.Description,
			"inputSchema": tool.Def.InputSchema, "annotations": tool.Def.Annotations,
		}); err != nil {
			t.Fatal(err)
		}
		got := buf.Bytes()
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s has no snapshot (run go test ./shared/mcpserver -run TestToolSnapshots -update): %v", tool.Def.Name, err)
			continue
		}
		if !bytes.Equal(old, got) {
			t.Errorf("%s changed from its snapshot %s; review the change and rewrite it with -update:\n%s", tool.Def.Name, path, firstDiff(string(old), string(got)))
		}
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !want[f.Name()] {
			if *update {
				if err := os.Remove(filepath.Join(dir, f.Name())); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("snapshot %s names no tool; remove it with -update", f.Name())
		}
	}
}

// firstDiff shows the first line that differs.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return "(same lines)"
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestSnapshotSeesAChangedConstraint proves the comparison is not vacuous:
// a changed maximum shows as a differing line naming it.
func TestSnapshotSeesAChangedConstraint(t *testing.T) {
	tool := allTools(t)[0]
	before, err := json.MarshalIndent(tool.Def.InputSchema, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	lower := 50.0
	inputSchema(t, tool).Properties["limit"].Maximum = &lower
	after, err := json.MarshalIndent(tool.Def.InputSchema, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if diff := firstDiff(string(before), string(after)); !strings.Contains(diff, `"maximum": 50`) {
		t.Fatalf("a changed maximum was not seen: %s", diff)
	}
}
