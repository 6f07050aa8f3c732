package templatecheck

import "testing"

// TestSecurityClaimsOfTheTemplate guards what README → Security says of
// AWS mode: every route, /mcp included, passes the token authorizer; the
// table is encrypted with KMS; the MCP Lambda gets its fetch allow list and
// allowed origins from parameters.
func TestSecurityClaimsOfTheTemplate(t *testing.T) {
	root := readTemplate(t)
	if !is(at(root, "Resources", "LecternHttpApi", "Properties", "Auth", "DefaultAuthorizer"), "", "TokenAuthorizer") {
		t.Error("the HTTP API has no default token authorizer")
	}
	mcp := at(root, "Resources", "McpFunction", "Properties")
	if auth := at(mcp, "Events", "Mcp", "Properties", "Auth"); auth != nil {
		t.Errorf("POST /mcp sets its own Auth (%v): it must keep the default authorizer", auth.Content)
	}
	sse := at(root, "Resources", "LecternTable", "Properties", "SSESpecification")
	if !is(at(sse, "SSEEnabled"), "", "true") || !is(at(sse, "SSEType"), "", "KMS") {
		t.Error("the table is not encrypted at rest with KMS")
	}
	vars := at(mcp, "Environment", "Variables")
	for env, param := range map[string]string{"LECTERN_MCP_FETCH_ALLOW": "McpFetchAllow", "LECTERN_MCP_ALLOWED_ORIGINS": "McpAllowedOrigins"} {
		if !is(at(vars, env), "!Ref", param) || at(root, "Parameters", param) == nil {
			t.Errorf("McpFunction's %s is not the %s parameter", env, param)
		}
	}
}
