package httpapi

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/settings"
)

// SettingsOutput is every settings response: keys appear only as "__configured__".
type SettingsOutput struct {
	Body settings.View
}

// SettingsInput is PUT /api/settings.
type SettingsInput struct {
	Body settings.Update
}

// Settings registers GET and PUT /api/settings.
func Settings(svc *settings.Service) Feature {
	return func(api huma.API, log *slog.Logger) {
		huma.Register(api, huma.Operation{
			OperationID: "get-settings", Method: http.MethodGet, Path: "/api/settings",
			Summary: "Read this instance's settings (saved keys answer __configured__)", Tags: []string{"settings"},
		}, func(ctx context.Context, _ *struct{}) (*SettingsOutput, error) {
			view, err := svc.Get(ctx)
			if err != nil {
				return nil, Problem(log, err)
			}
			return &SettingsOutput{Body: view}, nil
		})
		huma.Register(api, huma.Operation{
			OperationID: "put-settings", Method: http.MethodPut, Path: "/api/settings",
			Summary:      "Change settings; a key sent as __configured__ is kept, an empty key is cleared",
			Tags:         []string{"settings"},
			MaxBodyBytes: DefaultMaxBody,
		}, func(ctx context.Context, in *SettingsInput) (*SettingsOutput, error) {
			view, err := svc.Update(ctx, in.Body)
			if err != nil {
				return nil, Problem(log, err)
			}
			return &SettingsOutput{Body: view}, nil
		})
	}
}
