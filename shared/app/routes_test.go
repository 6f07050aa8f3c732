package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// localOnly are operations AWS mode does not route, and why.
var localOnly = map[string]string{
	// Other instances' voice libraries over HTTP: in AWS every instance
	// shares the voice table itself.
	"/api/voice-library": "local instances sharing a library by URL",
}

// route is one API Gateway route of template.yaml and the function it reaches.
type route struct {
	method, path, function string
}

// templateRoutes reads every HttpApi event of template.yaml.
func templateRoutes(t *testing.T) []route {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return parseRoutes(t, data)
}

// parseRoutes reads every HttpApi event of a SAM template.
func parseRoutes(t *testing.T, data []byte) []route {
	t.Helper()
	var doc struct {
		Resources map[string]struct {
			Type       string `yaml:"Type"`
			Properties struct {
				Events map[string]struct {
					Type       string `yaml:"Type"`
					Properties struct {
						Method string `yaml:"Method"`
						Path   string `yaml:"Path"`
					} `yaml:"Properties"`
				} `yaml:"Events"`
			} `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []route
	for name, res := range doc.Resources {
		for _, ev := range res.Properties.Events {
			if ev.Type == "HttpApi" {
				out = append(out, route{strings.ToUpper(ev.Properties.Method), ev.Properties.Path, name})
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("template.yaml has %d HttpApi routes; the parse missed them", len(out))
	}
	return out
}

// matches reports whether an API Gateway route path serves an OpenAPI
// path: {name} is one segment, {name+} one or more.
func matches(routePath, apiPath string) bool {
	rs, as := strings.Split(routePath, "/"), strings.Split(apiPath, "/")
	for i, r := range rs {
		if strings.HasSuffix(r, "+}") {
			return len(as) > i
		}
		if i >= len(as) {
			return false
		}
		if !(strings.HasPrefix(r, "{") || r == as[i]) {
			return false
		}
	}
	return len(rs) == len(as)
}

// TestEveryOperationIsRoutedInAWS checks each operation of the API has an
// API Gateway route in template.yaml, so nothing that works locally is
// missing from a deployed stack (the OpenAPI snapshot lists them all).
func TestEveryOperationIsRoutedInAWS(t *testing.T) {
	routes := templateRoutes(t)
	data, err := os.ReadFile(filepath.Join("..", "httpapi", "openapidoc", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(data, &api); err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\{[^}]+\}`)
	var missing []string
	for path, ops := range api.Paths {
		if slices.ContainsFunc(keys(localOnly), func(p string) bool { return strings.HasPrefix(path, p) }) {
			continue
		}
		for method := range ops {
			method = strings.ToUpper(method)
			if method == "PARAMETERS" {
				continue
			}
			found := slices.ContainsFunc(routes, func(r route) bool {
				return (r.method == method || r.method == "ANY") && matches(r.path, param.ReplaceAllString(path, "x"))
			})
			if !found {
				missing = append(missing, method+" "+path)
			}
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("%d operations have no route in template.yaml (add an HttpApi event to the function serving them):\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
