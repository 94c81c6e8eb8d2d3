package serve

import (
	"context"
	"time"

	"github.com/cairnmem/cairn/vault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// instructions tell an MCP client what cairn is for.
const instructions = `cairn is this project's persistent memory: decisions, constraints, gotchas
(cases), open threads, conventions and the user's preferences, kept as markdown
files in git. Search it before deciding something that may have been decided;
remember what a future session should know; never store secrets.`

// Tool inputs and outputs. Outputs are objects so clients get structured
// content; lists are cards, never whole bodies.
type (
	getInput struct {
		URI  string `json:"uri" jsonschema:"the memory's URI, e.g. mem://project/decisions/use-bleve"`
		Tier *int   `json:"tier,omitempty" jsonschema:"0 one-line summary, 1 overview (default), 2 the whole body"`
	}
	cardsOutput struct {
		Results []Card `json:"results"`
	}
	relatedInput struct {
		URI   string `json:"uri" jsonschema:"the memory to start from"`
		Limit int    `json:"limit,omitempty" jsonschema:"how many, default 10"`
	}
	historyInput struct {
		URI   string `json:"uri" jsonschema:"the memory whose history to show"`
		Limit int    `json:"limit,omitempty" jsonschema:"how many commits, default 50"`
	}
	historyOutput struct {
		Commits []historyEntry `json:"commits"`
	}
	historyEntry struct {
		Commit  string `json:"commit"`
		Time    string `json:"time"`
		Subject string `json:"subject"`
		Session string `json:"session,omitempty"`
		Source  string `json:"source,omitempty"`
	}
	forgetInput struct {
		URI     string `json:"uri" jsonschema:"the memory to remove"`
		Why     string `json:"why" jsonschema:"why it is wrong or obsolete; recorded in the commit"`
		Session string `json:"session,omitempty"`
	}
	forgetOutput struct {
		URI    string `json:"uri"`
		Commit string `json:"commit"`
		Note   string `json:"note"`
	}
)

// getOutput is a memory as memory_get returns it: plain fields, so the
// output schema is exact.
type getOutput struct {
	URI          string        `json:"uri"`
	Kind         string        `json:"kind"`
	Title        string        `json:"title"`
	Status       string        `json:"status,omitempty"`
	Tier         int           `json:"tier"`
	Summary      string        `json:"summary" jsonschema:"the one-line summary (L0)"`
	Overview     string        `json:"overview,omitempty" jsonschema:"the body's lead, at tier 1 and 2"`
	Body         string        `json:"body,omitempty" jsonschema:"the whole body, at tier 2"`
	Tags         []string      `json:"tags,omitempty"`
	Importance   *float64      `json:"importance,omitempty"`
	Pinned       bool          `json:"pinned,omitempty"`
	Links        []string      `json:"links,omitempty"`
	Supersedes   []string      `json:"supersedes,omitempty"`
	SupersededBy string        `json:"superseded_by,omitempty"`
	Source       *schemaSource `json:"source,omitempty"`
	Created      string        `json:"created"`
	Updated      string        `json:"updated"`
}

type schemaSource struct {
	Agent      string `json:"agent,omitempty"`
	Session    string `json:"session,omitempty"`
	Extractor  string `json:"extractor,omitempty"`
	CodeCommit string `json:"code_commit,omitempty"`
}

func getOutputOf(v *MemoryView) *getOutput {
	m := v.Memory
	out := &getOutput{URI: m.URI.String(), Kind: string(m.Kind), Title: m.Title, Status: string(m.Status), Tier: v.Tier, Summary: v.L0,
		Overview: v.Overview, Body: m.Body, Tags: m.Tags, Importance: m.Importance, Pinned: m.Pinned, Links: v.Links,
		Supersedes: m.Supersedes, SupersededBy: m.SupersededBy,
		Created: m.Created.UTC().Format(time.RFC3339), Updated: m.Updated.UTC().Format(time.RFC3339)}
	if m.Source != nil {
		out.Source = &schemaSource{Agent: m.Source.Agent, Session: m.Source.Session, Extractor: m.Source.Extractor, CodeCommit: m.Source.CodeCommit}
	}
	return out
}

// MCPServer builds the MCP server over a service.
func MCPServer(s *Service, version string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "cairn", Title: "cairn memory", Version: version}, &mcp.ServerOptions{Instructions: instructions})
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_search", Annotations: ro, Description: `Search this project's memory and the user's preferences.
Use it before deciding something that may have been decided, when an error looks familiar,
or when the user refers to earlier work. Returns cards (uri, kind, title, summary, score);
read one in full with memory_get.`},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, cardsOutput, error) {
			cards, err := s.Search(ctx, in)
			return nil, cardsOutput{Results: cards}, err
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_get", Annotations: ro, Description: `Read one memory by URI. Tier 0 is its one-line summary,
1 its overview (the default), 2 the whole body with all details.`},
		func(ctx context.Context, _ *mcp.CallToolRequest, in getInput) (*mcp.CallToolResult, *getOutput, error) {
			tier := 1
			if in.Tier != nil {
				tier = *in.Tier
			}
			m, err := s.Get(in.URI, tier, false)
			if err != nil {
				return nil, nil, err
			}
			return nil, getOutputOf(m), nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_context", Annotations: ro, Description: `Get a fresh context pack: pinned rules, the last session,
preferences, decisions and constraints, memories relevant to a task, recent work and open
threads, within a token budget. Call it when you start a new task in a long session.`},
		func(ctx context.Context, _ *mcp.CallToolRequest, in ContextInput) (*mcp.CallToolResult, *ContextOutput, error) {
			out, err := s.Context(ctx, in)
			return nil, out, err
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_remember", Description: `Keep something a future session should know: a decision and why,
a constraint, a gotcha (kind case: error, root cause, fix), an open thread, a convention
(pattern), or a preference of the user. Secrets are redacted; a duplicate is skipped;
a newer decision on the same subject supersedes the old one; it is committed to git.
Do not store chit-chat or what the code already says.`},
		func(ctx context.Context, _ *mcp.CallToolRequest, in RememberInput) (*mcp.CallToolResult, *RememberOutput, error) {
			out, err := s.Remember(ctx, in)
			return nil, out, err
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_related", Annotations: ro, Description: `List memories linked to one (links in and out, supersession)
or close to it in content. Use it to see the context of a decision or a gotcha.`},
		func(ctx context.Context, _ *mcp.CallToolRequest, in relatedInput) (*mcp.CallToolResult, cardsOutput, error) {
			cards, err := s.Related(ctx, in.URI, in.Limit)
			return nil, cardsOutput{Results: cards}, err
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_history", Annotations: ro, Description: `Show how a memory changed: its commits, newest first, with
the agent session each change came from.`},
		func(ctx context.Context, _ *mcp.CallToolRequest, in historyInput) (*mcp.CallToolResult, historyOutput, error) {
			commits, err := s.History(in.URI, in.Limit)
			return nil, historyOutput{Commits: entries(commits)}, err
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "memory_forget", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}, Description: `Remove a memory that is wrong or obsolete, saying why. The removal
is a commit: the memory stays recoverable from history. Prefer remembering a newer decision
(it supersedes) over forgetting an old one.`},
		func(ctx context.Context, _ *mcp.CallToolRequest, in forgetInput) (*mcp.CallToolResult, forgetOutput, error) {
			commit, err := s.Forget(ctx, in.URI, in.Why, in.Session)
			return nil, forgetOutput{URI: in.URI, Commit: commit, Note: "removed; recoverable with `cairn show " + short(commit) + "~1:" + in.URI + "`"}, err
		})
	return srv
}

func entries(commits []vault.Commit) []historyEntry {
	out := []historyEntry{}
	for _, c := range commits {
		out = append(out, historyEntry{Commit: c.Hash, Time: c.Time.UTC().Format("2006-01-02T15:04:05Z"), Subject: c.Subject, Session: c.Session, Source: c.Source})
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func short(h string) string {
	if len(h) > 8 {
		return h[:8]
	}
	return h
}
