package features

import (
	"context"
	"net/http"
	"time"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/characters"
	"github.com/lectern/lectern/shared/engines/imagegen"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/httpapi/charactersapi"
	"github.com/lectern/lectern/shared/platform"
)

// CharactersModule is the Characters feature with its jobs asking oaichat
// (facts, vision descriptions) and imagegen (images).
func CharactersModule() platform.New {
	return charactersapi.Module(charactersapi.Dials{
		LLM: func(base, key, model string, timeout time.Duration, client *http.Client) cast.LLM {
			return oaichat.New(oaichat.Config{BaseURL: base, APIKey: key, Model: model, Timeout: timeout, HTTPClient: client})
		},
		Vision: func(base, key, model string, client *http.Client) characters.Vision {
			return oaichat.New(oaichat.Config{BaseURL: base, APIKey: key, Model: model, HTTPClient: client})
		},
		Image: func(ep cards.Endpoint) characters.Painter {
			return painter{imagegen.New(imagegen.Config{BaseURL: ep.BaseURL, APIKey: ep.Key, Model: ep.Model, HTTPClient: ep.Client})}
		},
	})
}

// painter adapts imagegen's client to the Characters feature's port; the
// client already answers a 405 on edits with a generation (FellBack).
type painter struct{ c *imagegen.Client }

func (p painter) Generate(ctx context.Context, prompt, size string) (characters.Picture, error) {
	img, err := p.c.Generate(ctx, imagegen.GenerateRequest{Prompt: prompt, Size: size})
	return characters.Picture{PNG: img.PNG}, err
}

func (p painter) Edit(ctx context.Context, prompt, size string, reference []byte) (characters.Picture, error) {
	img, err := p.c.Edit(ctx, imagegen.EditRequest{Prompt: prompt, Size: size, Image: reference})
	return characters.Picture{PNG: img.PNG, FellBack: img.FellBack}, err
}
