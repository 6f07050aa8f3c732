// Package builtinsapi is GET /api/builtin-engines: the offline engines this
// server (in AWS, the function that answers) can use without any engine
// card, checked when asked.
package builtinsapi

import (
	"cmp"
	"context"
	"net/http"
	"os"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/builtins"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/speech/ear"
)

// ReportOut is every built-in engine's status.
type ReportOut struct{ Body builtins.Report }

// Module checks the engines with mupdf saying which MuPDF this build links
// (pdf.MuPDFVersion; the caller links it, so this package does not).
func Module(mupdf func() (string, error)) platform.New {
	return func(d *platform.Deps) (platform.Module, error) {
		c := builtins.Config{
			Tesseract: d.Config.TesseractCommand, Espeak: d.Config.EspeakCommand, FFmpeg: d.Config.FFmpegCommand,
			EarPython: cmp.Or(d.Config.EarPython, ear.DefaultPython()), MuPDF: mupdf, Host: "this server", Hint: localHint,
		}
		if d.Piper != nil {
			c.PiperPython = d.Piper.Python
		}
		if d.Hosted() {
			// The report is this function's; the others' engines are named where they run.
			c.Host, c.Hint = "the AWS Lambda function "+os.Getenv("AWS_LAMBDA_FUNCTION_NAME"), awsHint
		}
		return platform.Module{Name: "builtins", Operations: []httpapi.Operation{report(c)}}, nil
	}
}

func report(c builtins.Config) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-builtin-engines", Method: http.MethodGet, Path: "/api/builtin-engines",
		Summary: "The offline engines that work without any engine card (PDF text layer, Tesseract, espeak-ng, Piper, the Whisper ear, " +
			"ffmpeg): found or missing, with their versions, checked when asked on the server that answers",
		Tags: []string{"engines"},
	}, func(ctx context.Context, _ *struct{}) (*ReportOut, error) {
		return &ReportOut{Body: builtins.Check(ctx, c)}, nil
	})
}

// localHint says how to install a missing engine on this machine.
func localHint(name string) string {
	switch name {
	case "tesseract":
		return "Install it: apt-get install tesseract-ocr tesseract-ocr-eng"
	case "espeak-ng":
		return "Install it: apt-get install espeak-ng"
	case "ffmpeg":
		return "Install it: apt-get install ffmpeg"
	case "piper", "whisper":
		return "make deps installs it (or set " + map[string]string{"piper": "LECTERN_PIPER", "whisper": "LECTERN_EAR_PYTHON"}[name] + ")"
	}
	return ""
}

// awsHint says which function of the stack carries an engine this one lacks.
func awsHint(name string) string {
	switch name {
	case "text-layer", "tesseract":
		return "In AWS the Recognize and Review functions carry it"
	case "espeak-ng", "ffmpeg":
		return "In AWS the Worker function carries it (renders run there)"
	case "piper", "whisper":
		return "AWS functions carry no Python, so it is local only"
	}
	return ""
}
