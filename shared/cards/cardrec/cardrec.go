// Package cardrec is how engine cards are stored: their table keys and the
// fields that readers outside package cards need (the OCR chain reads a
// vision OCR card's preset), so those readers link neither the Docker
// client nor the rest of package cards.
package cardrec

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lectern/lectern/shared/store"
)

// PK is the partition of one instance's cards.
func PK(instance string) string { return "CARDS#" + instance }

// SKPrefix starts every card's sort key.
const SKPrefix = "CARD#"

// SK is the sort key of the card called name.
func SK(name string) string { return SKPrefix + name }

// Record is the part of a stored card the OCR chain reads (same JSON names
// as cards.Card).
type Record struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	BaseURL   string `json:"base_url"`
	Model     string `json:"model"`
	OCRPreset string `json:"ocr_preset"`
}

// List reads every card of the instance.
func List(ctx context.Context, table store.Table, instance string) ([]Record, error) {
	var out []Record
	err := Each(ctx, table, instance, func(data []byte) error {
		var r Record
		if err := json.Unmarshal(data, &r); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// Each calls f with the stored JSON of every card of the instance; an
// error from f stops it, named by the card it came from.
func Each(ctx context.Context, table store.Table, instance string, f func(data []byte) error) error {
	q := store.Query{PK: PK(instance), SKPrefix: SKPrefix}
	for {
		page, err := table.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if err := f(it.Data); err != nil {
				return fmt.Errorf("decode card %s: %w", it.SK, err)
			}
		}
		if page.Next == "" {
			return nil
		}
		q.Cursor = page.Next
	}
}
