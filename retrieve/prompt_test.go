package retrieve_test

import (
	"fmt"
	"testing"

	"github.com/cairnmem/cairn/retrieve"
	"github.com/cairnmem/cairn/schema"
)

func TestPromptGate(t *testing.T) {
	f := newFixture(t)
	ms := []mem{
		{path: "cases/flaky-port", kind: schema.KindCase, title: "Flaky port test", body: "The server port test is flaky because two tests bind port 8080; use port 0."},
		{path: "decisions/server", kind: schema.KindDecision, title: "One server binary", body: "The server ships as one binary."},
	}
	for i := range 10 {
		ms = append(ms, mem{path: fmt.Sprintf("events/e%d", i), kind: schema.KindEvent, title: fmt.Sprintf("Deploy %d", i), body: fmt.Sprintf("Deploy %d of the server went fine.", i)})
	}
	f.add(ms...)
	pack := func(prompt string) []string {
		t.Helper()
		p, err := f.retriever().Pack(ctx, retrieve.PackRequest{Task: prompt, Prompt: true, Sections: []string{"task"}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range p.Sections {
			for _, it := range s.Items {
				out = append(out, it.URI)
			}
		}
		return out
	}
	if got := pack("the server port test is flaky again, why?"); len(got) == 0 || got[0] != "mem://project/cases/flaky-port" {
		t.Fatalf("relevant prompt: %v", got)
	}
	// "server" is in most memories: sharing it is not relevance.
	if got := pack("restart the server after lunch"); len(got) != 0 {
		t.Fatalf("a prompt sharing one common word got %v", got)
	}
	if got := pack("write a haiku about autumn leaves"); len(got) != 0 {
		t.Fatalf("an unrelated prompt got %v", got)
	}
	if got := pack("ok, thanks"); len(got) != 0 {
		t.Fatalf("small talk got %v", got)
	}
	// The same request without Prompt is a task: weak matches are listed.
	p, err := f.retriever().Pack(ctx, retrieve.PackRequest{Task: "restart the server after lunch", Sections: []string{"task"}})
	if err != nil || len(p.Sections) == 0 || len(p.Sections[0].Items) == 0 {
		t.Fatalf("task pack: %+v %v", p, err)
	}
}
