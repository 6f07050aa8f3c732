package httpapi

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/magazine"
)

// regionKind stands in for magazine.Kind in every schema (New registers it as
// the alias), so the document lists every kind of magazine.Kinds as an enum
// and huma refuses any other with a 422 before a handler runs. The domain
// package stays free of huma; the front end's types are generated from this.
type regionKind string

// Schema is a string with magazine.Kinds as its enum, in the table's order.
func (regionKind) Schema(huma.Registry) *huma.Schema {
	kinds := make([]any, len(magazine.Kinds))
	for i, info := range magazine.Kinds {
		kinds[i] = string(info.Kind)
	}
	return &huma.Schema{Type: huma.TypeString, Enum: kinds}
}
