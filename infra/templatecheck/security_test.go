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
	res := at(root, "Resources")
	routes := 0
	for i := 0; i+1 < len(res.Content); i += 2 {
		events := at(res.Content[i+1], "Properties", "Events")
		for j := 0; events != nil && j+1 < len(events.Content); j += 2 {
			ev := events.Content[j+1]
			if !is(at(ev, "Type"), "", "HttpApi") {
				continue
			}
			routes++
			if auth := at(ev, "Properties", "Auth"); auth != nil {
				t.Errorf("%s's route %s sets its own Auth: every route keeps the default authorizer", res.Content[i].Value, events.Content[j].Value)
			}
		}
	}
	mcp := at(res, "McpFunction", "Properties")
	if routes == 0 || !is(at(mcp, "Events", "Mcp", "Properties", "Path"), "", "/mcp") {
		t.Errorf("found %d HttpApi routes, and /mcp among them: %t", routes, at(mcp, "Events", "Mcp") != nil)
	}
	sse := at(res, "LecternTable", "Properties", "SSESpecification")
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
