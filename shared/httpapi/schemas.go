package httpapi

import (
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/magazine"
)

// domainSchemas registers the schemas of domain types that huma cannot infer
// from the Go type alone, as stand-ins (huma schema aliases) that live here so
// domain packages stay free of huma. The front end's types are generated from
// the resulting document.
func domainSchemas(r huma.Registry) {
	r.RegisterTypeAlias(reflect.TypeFor[magazine.Kind](), reflect.TypeFor[regionKind]())
	r.RegisterTypeAlias(reflect.TypeFor[magazine.BBox](), reflect.TypeFor[bbox]())
}

// regionKind stands in for magazine.Kind: the document lists every kind of
// magazine.Kinds as an enum, and huma refuses any other with a 422 before a
// handler runs.
type regionKind string

// Schema is a string with magazine.Kinds as its enum, in the table's order.
func (regionKind) Schema(huma.Registry) *huma.Schema {
	kinds := make([]any, len(magazine.Kinds))
	for i, info := range magazine.Kinds {
		kinds[i] = string(info.Kind)
	}
	return &huma.Schema{Type: huma.TypeString, Enum: kinds}
}

// bbox stands in for magazine.BBox: huma makes every array nullable (a nil
// slice encodes as null), but a Go array never is.
type bbox magazine.BBox

// Schema is exactly four numbers, never null.
func (bbox) Schema(huma.Registry) *huma.Schema {
	n := len(bbox{})
	return &huma.Schema{Type: huma.TypeArray, Items: &huma.Schema{Type: huma.TypeNumber, Format: "double"}, MinItems: &n, MaxItems: &n}
}
