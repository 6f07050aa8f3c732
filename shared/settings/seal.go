package settings

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// Sealer encrypts keys before they are stored and opens them when loaded.
// label binds a sealed key to its place ("default/llm_api_key"), so a sealed
// value copied into another field or instance does not open.
type Sealer interface {
	Seal(plain, label string) (string, error)
	Open(sealed, label string) (string, error)
}

// sealedPrefix marks a stored key as sealed; a key without it was stored
// before sealing existed and is sealed on the next save.
const sealedPrefix = "sealed:v1:"

// errNotOpened: the sealed key does not open with this key file.
var errNotOpened = errors.New("sealed key does not open with this key file")

// AESGCM seals keys with AES-256-GCM under a key kept outside the table (the
// local data folder's secret.key), so a copied database alone reveals none.
type AESGCM struct{ aead cipher.AEAD }

// NewAESGCM seals with a 32-byte key.
func NewAESGCM(key []byte) (*AESGCM, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("key sealing needs a 32-byte key, got %d bytes", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &AESGCM{aead: aead}, nil
}

// Seal encrypts plain under a fresh random nonce.
func (a *AESGCM) Seal(plain, label string) (string, error) {
	nonce := make([]byte, a.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := a.aead.Seal(nonce, nonce, []byte(plain), []byte(label))
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts what Seal made for the same label.
func (a *AESGCM) Open(sealed, label string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sealed, sealedPrefix))
	if err != nil || len(raw) < a.aead.NonceSize() {
		return "", errNotOpened
	}
	n := a.aead.NonceSize()
	plain, err := a.aead.Open(nil, raw[:n], raw[n:], []byte(label))
	if err != nil {
		return "", errNotOpened
	}
	return string(plain), nil
}

// sealKeys returns s with every key sealed; the label names the instance and field.
func sealKeys(s Settings, x Sealer, instance string) (Settings, error) {
	return mapKeys(s, instance, func(v, label string) (string, error) {
		if v == "" {
			return "", nil
		}
		return x.Seal(v, label)
	})
}

// openKeys returns s with every sealed key opened. A key that does not open
// (the key file was replaced) reads as unset: the user enters it again,
// rather than every settings read failing until the old file is found.
// A key stored before sealing is used as it is.
func openKeys(s Settings, x Sealer, instance string) Settings {
	out, _ := mapKeys(s, instance, func(v, label string) (string, error) {
		if !strings.HasPrefix(v, sealedPrefix) {
			return v, nil
		}
		plain, err := x.Open(v, label)
		if err != nil {
			return "", nil
		}
		return plain, nil
	})
	return out
}

// hasPlainKeys reports whether any key of s is stored unsealed.
func hasPlainKeys(s Settings) bool {
	plain := false
	_, _ = mapKeys(s, "", func(v, _ string) (string, error) {
		plain = plain || (v != "" && !strings.HasPrefix(v, sealedPrefix))
		return v, nil
	})
	return plain
}

func mapKeys(s Settings, instance string, f func(v, label string) (string, error)) (Settings, error) {
	out := s
	var err error
	if out.LLMAPIKey, err = f(s.LLMAPIKey, instance+"/llm_api_key"); err != nil {
		return Settings{}, err
	}
	out.EngineAPIKeys = make(map[string]string, len(s.EngineAPIKeys))
	for card, k := range s.EngineAPIKeys {
		if out.EngineAPIKeys[card], err = f(k, instance+"/engine_api_keys/"+card); err != nil {
			return Settings{}, err
		}
	}
	return out, nil
}
