package pdf

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

func TestDumpTables(t *testing.T) {
	spec := os.Getenv("TABLE_DUMP") // file:page,file:page
	for _, fp := range strings.Split(spec, ",") {
		f, p, _ := strings.Cut(fp, ":")
		n, _ := strconv.Atoi(p)
		data, err := os.ReadFile(filepath.Join("/work/shared/data", f))
		if err != nil {
			t.Fatal(err)
		}
		tp, err := TextLayer(context.Background(), data, n, DefaultLimits())
		if err != nil {
			t.Log(f, err)
			continue
		}
		regs := magazine.ClassifyPages([]magazine.TextPage{tp})[0]
		fmt.Printf("=== %s p%d: %d regions\n", f, n, len(regs))
		for _, r := range regs {
			if r.Kind == magazine.KindTable && r.Table != nil {
				fmt.Println(r.Table.Markdown())
				fmt.Println()
			}
		}
	}
}
