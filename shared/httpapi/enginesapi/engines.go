// Package enginesapi is the engine cards' HTTP operations: list, save and
// delete cards, container status and control, Connect and Use as LLM.
package enginesapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/docker"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/platform"
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

// UseAsLLMOutput is the settings after Use as LLM (keys as __configured__)
// and which model it chose.
type UseAsLLMOutput struct {
	Body struct {
		settings.View
		ModelChoice cards.ModelChoice `json:"model_choice"`
	}
}

// Module is the engine cards feature of this instance.
func Module(d *platform.Deps) (platform.Module, error) {
	svc := cards.FromDeps(d)
	return platform.Module{Name: "engines", Operations: Operations(svc)}, nil
}

// Operations lists the engine card operations.
func Operations(svc *cards.Service) []httpapi.Operation {
	return []httpapi.Operation{
		listCards(svc), putCard(svc), deleteCard(svc), cardStatus(svc),
		control(svc, cards.OpStart), control(svc, cards.OpStop), control(svc, cards.OpRestart),
		connect(svc), useAsLLM(svc),
	}
}

var tags = []string{"engines"}

func listCards(svc *cards.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-engine-cards", Method: http.MethodGet, Path: "/api/engines",
		Summary: "Engine cards with the URL each will use and whether it has its own key", Tags: tags,
	}, func(ctx context.Context, _ *struct{}) (*ListOutput, error) {
		list, err := svc.List(ctx)
		out := &ListOutput{}
		out.Body.Cards = append([]cards.View{}, list...)
		return out, err
	})
}

func putCard(svc *cards.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "put-engine-card", Method: http.MethodPut, Path: "/api/engines/{name}",
		Summary: "Create or replace an engine card (its key is saved in settings.engine_api_keys)", Tags: tags,
		MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *PutInput) (*CardOutput, error) {
		v, err := svc.Put(ctx, cards.Card{Name: in.Name, Spec: in.Body})
		return &CardOutput{Body: v}, err
	})
}

func deleteCard(svc *cards.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "delete-engine-card", Method: http.MethodDelete, Path: "/api/engines/{name}",
		Summary: "Delete an engine card", Tags: tags, DefaultStatus: http.StatusNoContent,
	}, func(ctx context.Context, in *NamePath) (*struct{}, error) {
		return nil, svc.Delete(ctx, in.Name)
	})
}

func cardStatus(svc *cards.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-engine-status", Method: http.MethodGet, Path: "/api/engines/{name}/status",
		Summary: "The card's container: running, stopped, restarting, unhealthy or not-installed", Tags: tags,
	}, func(ctx context.Context, in *NamePath) (*StatusOutput, error) {
		st, err := svc.ContainerStatus(ctx, in.Name)
		return statusOut(in.Name, st), err
	})
}

// control is start, stop or restart of the card's container.
func control(svc *cards.Service, op string) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: op + "-engine", Method: http.MethodPost, Path: "/api/engines/{name}/" + op,
		Summary: "Container " + op + " through the Docker Engine API of the card's host; answers the status after", Tags: tags,
	}, func(ctx context.Context, in *NamePath) (*StatusOutput, error) {
		st, err := svc.Control(ctx, in.Name, op)
		return statusOut(in.Name, st), err
	})
}

func statusOut(name string, st docker.Status) *StatusOutput {
	out := &StatusOutput{}
	out.Body.Name, out.Body.Status = name, st
	return out
}

func connect(svc *cards.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "connect-engine", Method: http.MethodPost, Path: "/api/engines/{name}/connect",
		Summary: "List the engine's models with the key the server resolves (the card's own, else llm_api_key)", Tags: tags,
	}, func(ctx context.Context, in *NamePath) (*ModelsOutput, error) {
		v, err := svc.Get(ctx, in.Name)
		if err != nil {
			return nil, err
		}
		models, err := svc.Connect(ctx, in.Name)
		out := &ModelsOutput{}
		out.Body.Name, out.Body.URL, out.Body.Models = in.Name, v.URL, append([]string{}, models...)
		return out, err
	})
}

func useAsLLM(svc *cards.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "use-engine-as-llm", Method: http.MethodPost, Path: "/api/engines/{name}/use-as-llm",
		Summary: "Make this card the LLM: llm_url (ending in one /v1) and llm_api_key are copied from it; llm_model is the card's model, " +
			"else the first model the engine lists, else cleared (model_choice says which and why)", Tags: tags,
	}, func(ctx context.Context, in *NamePath) (*UseAsLLMOutput, error) {
		view, choice, err := svc.UseAsLLM(ctx, in.Name)
		if err != nil {
			return nil, err
		}
		out := &UseAsLLMOutput{}
		out.Body.View, out.Body.ModelChoice = view, choice
		return out, nil
	})
}
