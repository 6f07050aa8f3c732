// Package settingsapi is the settings feature: GET and PUT /api/settings.
// Saved keys are answered as "__configured__", never as their value.
package settingsapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
)

// Module is the settings feature over the instance's settings record.
func Module(d *platform.Deps) (platform.Module, error) {
	return platform.Module{Name: "settings", Operations: Operations(d.Settings)}, nil
}

// Operations lists the settings operations.
func Operations(svc *settings.Service) []httpapi.Operation {
	return []httpapi.Operation{getSettings(svc), putSettings(svc)}
}

// Output is every settings response: keys appear only as "__configured__".
type Output struct {
	Body settings.View
}

// Input is PUT /api/settings.
type Input struct {
	Body settings.Update
}

func getSettings(svc *settings.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-settings", Method: http.MethodGet, Path: "/api/settings",
		Summary: "Read this instance's settings (saved keys answer __configured__)", Tags: []string{"settings"},
	}, func(ctx context.Context, _ *struct{}) (*Output, error) {
		view, err := svc.Get(ctx)
		return &Output{Body: view}, err
	})
}

func putSettings(svc *settings.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "put-settings", Method: http.MethodPut, Path: "/api/settings",
		Summary:      "Change settings; a key sent as __configured__ is kept, an empty key is cleared",
		Tags:         []string{"settings"},
		MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *Input) (*Output, error) {
		view, err := svc.Update(ctx, in.Body)
		return &Output{Body: view}, err
	})
}
