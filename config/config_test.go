package config

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, src, wantErr string
	}{
		{name: "empty file is the defaults", src: ""},
		{name: "author", src: "version: 1\nauthor:\n  name: Ada\n  email: ada@example.com\n"},
		{name: "unknown key names the line", src: "version: 1\nauthr:\n  name: x\n", wantErr: "cairn.yaml:2: field authr not found"},
		{name: "wrong type", src: "version: one\n", wantErr: "cairn.yaml:1: cannot unmarshal"},
		{name: "future version", src: "version: 9\n", wantErr: "version 9 is not supported"},
		{name: "syntax", src: "version: 1\n  bad: indent\n", wantErr: "cairn.yaml:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("cairn.yaml", []byte(tt.src))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if cfg.Version != Version {
					t.Fatalf("version = %d", cfg.Version)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
