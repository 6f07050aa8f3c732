package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// routeConflicts lists the levels where API Gateway would refuse the routes:
// two variables with different names (a {proxy+} is one too) under the same
// prefix. Variables in the prefix match each other, as in API Gateway's tree.
func routeConflicts(routes []route) []string {
	vars := map[string]map[string][]string{} // prefix → variable → routes
	for _, r := range routes {
		segs := strings.Split(strings.Trim(r.path, "/"), "/")
		for i, seg := range segs {
			if !strings.HasPrefix(seg, "{") {
				continue
			}
			prefix := "/" + strings.Join(anyVariable(segs[:i]), "/")
			if vars[prefix] == nil {
				vars[prefix] = map[string][]string{}
			}
			vars[prefix][seg] = append(vars[prefix][seg], r.method+" "+r.path+" ("+r.function+")")
		}
	}
	var out []string
	for prefix, names := range vars {
		if len(names) < 2 {
			continue
		}
		var seen []string
		for name, where := range names {
			where = slices.Compact(slices.Sorted(slices.Values(where)))
			more := ""
			if len(where) > 2 {
				where, more = where[:2], fmt.Sprintf(" and %d more", len(where)-2)
			}
			seen = append(seen, fmt.Sprintf("%s in %s%s", name, strings.Join(where, ", "), more))
		}
		slices.Sort(seen)
		out = append(out, fmt.Sprintf("under %s: %s", prefix, strings.Join(seen, "; ")))
	}
	slices.Sort(out)
	return out
}

// anyVariable writes every variable segment as {}.
func anyVariable(segs []string) []string {
	out := slices.Clone(segs)
	for i, s := range out {
		if strings.HasPrefix(s, "{") {
			out[i] = "{}"
		}
	}
	return out
}

// TestRoutesHaveOneVariablePerLevel: API Gateway refuses a deploy whose
// routes put two differently named variables, or a {proxy+} and a named
// variable, at the same level ("conflicting variable on the same
// hierarchical level"), even when they belong to different functions.
func TestRoutesHaveOneVariablePerLevel(t *testing.T) {
	if got := routeConflicts(templateRoutes(t)); len(got) > 0 {
		t.Errorf("template.yaml has routes API Gateway refuses; use one variable name per level and no {proxy+} beside a variable:\n  %s", strings.Join(got, "\n  "))
	}
}

// TestRouteConflictsAreFound: the check catches the shapes it exists for.
func TestRouteConflictsAreFound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		paths  []string
		refuse bool
	}{
		{"two names at one level", []string{"/api/magazine/{id}/pages", "/api/magazine/{doc}/articles"}, true},
		{"names differ below a variable prefix", []string{"/api/magazine/{doc}/articles/{article}/text", "/api/magazine/{id}/articles/{a}"}, true},
		{"proxy beside a named variable", []string{"/api/magazine/{doc}/pages/{page}/regions/{block_id}", "/api/magazine/{doc}/pages/{page}/regions/{proxy+}"}, true},
		{"one name per level", []string{"/api/magazine/{doc}", "/api/magazine/{doc}/pages/{page}", "/api/magazine/uploads"}, false},
		{"proxy beside literals", []string{"/api/magazine/{doc}/pages/{page}/{proxy+}", "/api/magazine/{doc}/pages/{page}/order"}, false},
		{"same name in different trees", []string{"/api/jobs/{id}", "/api/voices/{name}"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var routes []route
			for _, p := range tc.paths {
				routes = append(routes, route{"GET", p, "Fn"})
			}
			if got := routeConflicts(routes); (len(got) > 0) != tc.refuse {
				t.Errorf("conflicts %q, want refused = %v", got, tc.refuse)
			}
		})
	}
}
