// Package enginesapi is the engine cards' HTTP operations: list, save and
// delete cards, container status and control, Connect and Use as LLM.
package enginesapi

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/docker"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/settings"
)

// NamePath names a card.
type NamePath struct {
	Name string `path:"name" pattern:"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$" doc:"card name"`
}

// PutInput is PUT /api/engines/{name}.
type PutInput struct {
	NamePath
	Body cards.Spec
}

// CardOutput is one card.
type CardOutput struct{ Body cards.View }

// ListOutput is every card.
type ListOutput struct {
	Body struct {
		Cards []cards.View `json:"cards"`
	}
}

// StatusOutput is a container's state.
type StatusOutput struct {
	Body struct {
		Name   string        `json:"name"`
		Status docker.Status `json:"status" enum:"running,stopped,restarting,unhealthy,not-installed"`
	}
}

// ModelsOutput is what Connect found.
type ModelsOutput struct {
	Body struct {
		Name   string   `json:"name"`
		URL    string   `json:"url"`
		Models []string `json:"models"`
	}
}

// SettingsOutput is the settings after Use as LLM (keys as __configured__).
type SettingsOutput struct{ Body settings.View }

// Feature registers the engine card operations.
func Feature(svc *cards.Service) httpapi.Feature {
	return func(api huma.API, log *slog.Logger) {
		tags := []string{"engines"}
		huma.Register(api, huma.Operation{
			OperationID: "list-engine-cards", Method: http.MethodGet, Path: "/api/engines",
			Summary: "Engine cards with the URL each will use and whether it has its own key", Tags: tags,
		}, func(ctx context.Context, _ *struct{}) (*ListOutput, error) {
			list, err := svc.List(ctx)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &ListOutput{}
			out.Body.Cards = append([]cards.View{}, list...)
			return out, nil
		})
		huma.Register(api, huma.Operation{
			OperationID: "put-engine-card", Method: http.MethodPut, Path: "/api/engines/{name}",
			Summary: "Create or replace an engine card (its key is saved in settings.engine_api_keys)", Tags: tags,
			MaxBodyBytes: httpapi.DefaultMaxBody,
		}, func(ctx context.Context, in *PutInput) (*CardOutput, error) {
			v, err := svc.Put(ctx, cards.Card{Name: in.Name, Spec: in.Body})
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			return &CardOutput{Body: v}, nil
		})
		huma.Register(api, huma.Operation{
			OperationID: "delete-engine-card", Method: http.MethodDelete, Path: "/api/engines/{name}",
			Summary: "Delete an engine card", Tags: tags, DefaultStatus: http.StatusNoContent,
		}, func(ctx context.Context, in *NamePath) (*struct{}, error) {
			if err := svc.Delete(ctx, in.Name); err != nil {
				return nil, httpapi.Problem(log, err)
			}
			return nil, nil
		})
		huma.Register(api, huma.Operation{
			OperationID: "get-engine-status", Method: http.MethodGet, Path: "/api/engines/{name}/status",
			Summary: "The card's container: running, stopped, restarting, unhealthy or not-installed", Tags: tags,
		}, func(ctx context.Context, in *NamePath) (*StatusOutput, error) {
			st, err := svc.ContainerStatus(ctx, in.Name)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &StatusOutput{}
			out.Body.Name, out.Body.Status = in.Name, st
			return out, nil
		})
		for _, op := range []string{cards.OpStart, cards.OpStop, cards.OpRestart} {
			huma.Register(api, huma.Operation{
				OperationID: op + "-engine", Method: http.MethodPost, Path: "/api/engines/{name}/" + op,
				Summary: "Container " + op + " through the Docker Engine API of the card's host; answers the status after", Tags: tags,
			}, func(ctx context.Context, in *NamePath) (*StatusOutput, error) {
				st, err := svc.Control(ctx, in.Name, op)
				if err != nil {
					return nil, httpapi.Problem(log, err)
				}
				out := &StatusOutput{}
				out.Body.Name, out.Body.Status = in.Name, st
				return out, nil
			})
		}
		huma.Register(api, huma.Operation{
			OperationID: "connect-engine", Method: http.MethodPost, Path: "/api/engines/{name}/connect",
			Summary: "List the engine's models with the key the server resolves (the card's own, else llm_api_key)", Tags: tags,
		}, func(ctx context.Context, in *NamePath) (*ModelsOutput, error) {
			v, err := svc.Get(ctx, in.Name)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			models, err := svc.Connect(ctx, in.Name)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &ModelsOutput{}
			out.Body.Name, out.Body.URL, out.Body.Models = in.Name, v.URL, append([]string{}, models...)
			return out, nil
		})
		huma.Register(api, huma.Operation{
			OperationID: "use-engine-as-llm", Method: http.MethodPost, Path: "/api/engines/{name}/use-as-llm",
			Summary: "Make this card the LLM: llm_url (ending in one /v1), llm_api_key and llm_model are copied from it", Tags: tags,
		}, func(ctx context.Context, in *NamePath) (*SettingsOutput, error) {
			view, err := svc.UseAsLLM(ctx, in.Name)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			return &SettingsOutput{Body: view}, nil
		})
	}
}
