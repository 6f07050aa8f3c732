package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resource is one resource template and its reader.
type resource struct {
	template *mcp.ResourceTemplate
	handler  mcp.ResourceHandler
}

// resources are the parameterised reads: an issue, an article's text and a
// voice. Each is the same API call a tool makes.
func resources(d deps) []resource {
	issueURI := regexp.MustCompile(`^lectern://issues/([a-z0-9]{8,40})$`)
	textURI := regexp.MustCompile(`^lectern://issues/([a-z0-9]{8,40})/articles/([a-z0-9]{4,40})/text$`)
	voiceURI := regexp.MustCompile(`^lectern://voices/([a-z0-9][a-z0-9._-]{0,99})$`)
	return []resource{
		{
			template: &mcp.ResourceTemplate{Name: "issue", Title: "Magazine issue", URITemplate: "lectern://issues/{id}", MIMEType: "application/json",
				Description: "A magazine issue: status, pages done of total, revision, page errors and each page's last step."},
			handler: read(issueURI, "application/json", func(ctx context.Context, m []string) (string, error) {
				var is issue
				if err := d.api.get(ctx, issuePath(m[1]), nil, &is); err != nil {
					return "", err
				}
				return render(is, formatJSON)
			}),
		},
		{
			template: &mcp.ResourceTemplate{Name: "article-text", Title: "Article text", URITemplate: "lectern://issues/{id}/articles/{article}/text",
				MIMEType: "text/plain", Description: "An article's text in reading order, with each picture's description where it occurs."},
			handler: read(textURI, "text/plain", func(ctx context.Context, m []string) (string, error) {
				t, err := fetchArticleText(ctx, d.api, m[1], m[2], true)
				return clean(t.Text), err
			}),
		},
		{
			template: &mcp.ResourceTemplate{Name: "voice", Title: "Voice", URITemplate: "lectern://voices/{id}", MIMEType: "application/json",
				Description: "A voice of the shared library: name, description, language, accent, gender, age, tags, source and engine."},
			handler: read(voiceURI, "application/json", func(ctx context.Context, m []string) (string, error) {
				var v json.RawMessage
				if err := d.api.get(ctx, "/api/voices/"+seg(m[1]), nil, &v); err != nil {
					return "", err
				}
				var x any
				if err := json.Unmarshal(v, &x); err != nil {
					return "", fmt.Errorf("voice %s: %w", m[1], err)
				}
				return render(x, formatJSON)
			}),
		},
	}
}

// read makes a resource handler: the URI must match re (else it is not
// found), fetch reads it; an upstream 404 is the protocol's not-found, any
// other failure carries the tools' error text.
func read(re *regexp.Regexp, mime string, fetch func(context.Context, []string) (string, error)) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		m := re.FindStringSubmatch(uri)
		if m == nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		text, err := fetch(ctx, m)
		var se *StatusError
		if errors.As(err, &se) && se.Status == http.StatusNotFound {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if err != nil {
			return nil, errors.New(ErrorText(err))
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}, nil
	}
}

// maxCompletions is the protocol's limit on completion values per answer.
const maxCompletions = 100

// completer completes the resource templates' arguments: issue ids, an
// issue's article ids (the issue given in the context) and voice ids, each
// by prefix. Anything else (prompts: this server has none) completes to
// nothing.
func completer(d deps) func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		p := req.Params
		var ids []string
		var err error
		if p.Ref != nil && p.Ref.Type == "ref/resource" {
			ids, err = completionIDs(ctx, d, p.Ref.URI, p.Argument.Name, p.Context)
		}
		if err != nil {
			return nil, errors.New(ErrorText(err))
		}
		var values []string
		for _, id := range ids {
			if strings.HasPrefix(id, p.Argument.Value) {
				values = append(values, id)
			}
		}
		res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: nonNil(values), Total: len(values)}}
		if len(values) > maxCompletions {
			res.Completion.Values, res.Completion.HasMore = values[:maxCompletions], true
		}
		return res, nil
	}
}

func completionIDs(ctx context.Context, d deps, uri, arg string, cc *mcp.CompleteContext) ([]string, error) {
	var ids []string
	switch {
	case strings.HasPrefix(uri, "lectern://issues/{id}") && arg == "id":
		var out struct {
			Issues []issue `json:"issues"`
		}
		if err := d.api.get(ctx, "/api/magazine", nil, &out); err != nil {
			return nil, err
		}
		for _, is := range out.Issues {
			ids = append(ids, is.ID)
		}
	case uri == "lectern://issues/{id}/articles/{article}/text" && arg == "article" && cc != nil && cc.Arguments["id"] != "":
		arts, err := articles(ctx, d.api, cc.Arguments["id"])
		if err != nil {
			return nil, err
		}
		for _, a := range arts {
			ids = append(ids, a.ID)
		}
	case uri == "lectern://voices/{id}" && arg == "id":
		var page Page[voice]
		if err := d.api.get(ctx, "/api/voices", url.Values{"limit": {"100"}}, &page); err != nil {
			return nil, err
		}
		for _, v := range page.Items {
			ids = append(ids, v.ID)
		}
	}
	return ids, nil
}
