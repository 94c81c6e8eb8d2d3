package retrieve

import (
	"fmt"
	"strings"

	"github.com/cairnmem/cairn/templates"
)

// itemLine is how an item is printed in a pack; budgets count this text.
func itemLine(pi *PackItem) string {
	var b strings.Builder
	b.WriteString("- **")
	b.WriteString(pi.Title)
	b.WriteString("** (")
	b.WriteString(pi.Kind)
	for _, f := range pi.Flags {
		b.WriteString(", ")
		b.WriteString(f)
	}
	if pi.Age != "" {
		b.WriteString("; ")
		b.WriteString(pi.Age)
	}
	b.WriteString(")")
	if pi.Text != "" {
		b.WriteString(": ")
		b.WriteString(pi.Text)
	}
	fmt.Fprintf(&b, " `%s`", pi.URI)
	return b.String()
}

func renderPack(p *Pack) string {
	d := templates.PackData{Key: p.Key, Tokens: p.Tokens, Budget: p.Budget}
	for _, s := range p.Sections {
		ts := templates.PackSection{Title: s.Title, Text: s.Text, Cut: s.Cut}
		for _, it := range s.Items {
			ts.Lines = append(ts.Lines, itemLine(it))
		}
		d.Sections = append(d.Sections, ts)
	}
	return templates.Pack(d)
}
