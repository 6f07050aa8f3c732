package platform

import "testing"

func TestCheckServe(t *testing.T) {
	const token = "0123456789abcdef0123"
	cases := []struct {
		name  string
		addr  string
		token string
		ok    bool
	}{
		{"loopback without token", "127.0.0.1:8080", "", true},
		{"localhost without token", "localhost:8080", "", true},
		{"ipv6 loopback without token", "[::1]:8080", "", true},
		{"all interfaces without token refused", ":8080", "", false},
		{"0.0.0.0 without token refused", "0.0.0.0:8080", "", false},
		{"lan address without token refused", "192.168.1.20:8080", "", false},
		{"all interfaces with token", "0.0.0.0:8080", token, true},
		{"short token refused", "0.0.0.0:8080", "short", false},
		{"address without port refused", "127.0.0.1", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Config{Addr: c.addr, Token: c.token}.CheckServe()
			if (err == nil) != c.ok {
				t.Fatalf("CheckServe(%q, token=%q) error = %v, want ok=%v", c.addr, c.token, err, c.ok)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{"LECTERN_ADDR": "127.0.0.1:9999", "LECTERN_WORKERS": "2"}
	cfg, err := FromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:9999" || cfg.Workers != 2 || cfg.Mode != ModeLocal || cfg.DataDir != "./data" || cfg.Instance != "default" {
		t.Fatalf("unexpected config %+v", cfg)
	}
	for _, bad := range []map[string]string{{"LECTERN_WORKERS": "0"}, {"LECTERN_WORKERS": "x"}, {"LECTERN_MODE": "cloud"}} {
		if _, err := FromEnv(func(k string) string { return bad[k] }); err == nil {
			t.Fatalf("FromEnv(%v) accepted a bad value", bad)
		}
	}
}

func TestFromEnvSpeechCommands(t *testing.T) {
	env := map[string]string{"LECTERN_FFMPEG": "/var/task/speech/ffmpeg", "LECTERN_ESPEAK": "/var/task/speech/espeak-ng/run"}
	cfg, err := FromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.FFmpegCommand != env["LECTERN_FFMPEG"] || cfg.EspeakCommand != env["LECTERN_ESPEAK"] {
		t.Fatalf("FFmpegCommand %q, EspeakCommand %q; want the variables' values", cfg.FFmpegCommand, cfg.EspeakCommand)
	}
	if cfg, _ := FromEnv(func(string) string { return "" }); cfg.FFmpegCommand != "" || cfg.EspeakCommand != "" {
		t.Fatalf("unset variables gave FFmpegCommand %q, EspeakCommand %q; want empty (PATH)", cfg.FFmpegCommand, cfg.EspeakCommand)
	}
}
