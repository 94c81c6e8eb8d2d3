package templates_test

import (
	"strings"
	"testing"
	"time"

	"github.com/cairnmem/cairn/config"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/templates"
)

// Every kind has a template that, once its guidance is stripped, is a
// valid memory of that kind even for a title full of YAML syntax.
func TestEveryKindHasAValidTemplate(t *testing.T) {
	title := `Use "quotes": colons, #hashes & [brackets]`
	for _, info := range schema.Kinds() {
		out, err := templates.Memory(string(info.Kind), templates.MemoryData{Kind: string(info.Kind), Title: title, Now: time.Now()})
		if err != nil {
			t.Fatalf("%s: %v", info.Kind, err)
		}
		m, err := schema.Parse(string(info.Kind)+".md", []byte(templates.StripGuidance(string(out))))
		if err != nil {
			t.Fatalf("%s template does not parse: %v", info.Kind, err)
		}
		if err := m.Validate(""); err != nil {
			t.Fatalf("%s template is invalid: %v", info.Kind, err)
		}
		if m.Kind != info.Kind || m.Title != title {
			t.Fatalf("%s template: kind %q title %q", info.Kind, m.Kind, m.Title)
		}
		if strings.Contains(templates.StripGuidance(string(out)), "cairn:") {
			t.Fatalf("%s: guidance survived stripping", info.Kind)
		}
	}
}

func TestConfigTemplateIsValid(t *testing.T) {
	if _, err := config.Parse("cairn.yaml", templates.Config()); err != nil {
		t.Fatal(err)
	}
}
