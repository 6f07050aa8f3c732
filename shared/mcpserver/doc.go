// Package mcpserver owns lectern_mcp: Lectern's operations as MCP tools and
// resources, grouped in toolsets that are enabled one by one. Every tool
// calls the Lectern HTTP API as its upstream (Client), so one binary serves
// a local instance or a deployed one, over stdio or streamable HTTP.
//
// A tool is a value: one constructor per tool builds it with newTool from
// its input type (the schema, with its limits, is inferred and shaped
// there), its documentation and its four hints; toolsets() lists the
// constructors. Inputs are stripped and validated before a tool runs;
// answers are markdown or JSON; failures go through ErrorText, the one
// mapping to the spec's "Error: …" texts. Adding a toolset is a
// constructor per tool, a line in toolsets(), and per tool a snapshot
// (testdata/tools, go test -update) and its hints in TestAnnotationsPerTool.
package mcpserver
