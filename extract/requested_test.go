package extract

import (
	"strings"
	"testing"

	"github.com/cairnmem/cairn/transcript"
)

// A request, the agent's patch, and maybe a later request: the shape of a
// Codex session where the person says how to build it.
func requestSession(request, patch, later string) *transcript.Session {
	turns := []transcript.Turn{
		{Ref: "u1", Speaker: transcript.Person, Text: request},
		{Ref: "c1", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ApplyPatch", Files: []string{"/repo/shop/orders.py"}, Status: transcript.OK, Command: patch}},
		{Ref: "a1", Speaker: transcript.Agent, Text: "Done, orders.py changed."},
	}
	if later != "" {
		turns = append(turns, transcript.Turn{Ref: "u2", Speaker: transcript.Person, Text: later},
			transcript.Turn{Ref: "c2", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ApplyPatch", Files: []string{"/repo/shop/orders.py"}, Status: transcript.OK, Command: "*** Begin Patch\n*** Update File: shop/orders.py\n@@\n+    pass\n*** End Patch"}})
	}
	return &transcript.Session{Cwd: "/repo", Agent: "codex", Turns: turns}
}

const unitOfWorkPatch = "*** Begin Patch\n*** Update File: shop/orders.py\n@@\n def place_order(cart):\n-    save(cart)\n+    with UnitOfWork.begin() as uow:\n+        uow.add(Order.from_cart(cart))\n+        order_id = new_id(\"ord\")\n*** End Patch"

func TestRequestedMechanism(t *testing.T) {
	for _, tc := range []struct {
		name, request, patch, later string
		want                        string // the title; "" when nothing may be written
	}{
		{"plain words the code writes as one name",
			"Change place_order so that it uses a unit of work to save the order and its lines together.",
			unitOfWorkPatch, "", "place_order: UnitOfWork to save the order and its lines together"},
		{"a code span",
			"Now give orders an id. Use `new_id(\"ord\")` to set the id.",
			unitOfWorkPatch, "", "Orders: `new_id(\"ord\")` to set the id"},
		{"the mechanism never reached the code",
			"Change place_order so that it uses a message queue to save the order.",
			unitOfWorkPatch, "", ""},
		{"an ordinary task chooses nothing",
			"Add a version field to the order and fix the failing test.",
			unitOfWorkPatch, "", ""},
		{"a question is not a request",
			"Could place_order use a unit of work?",
			unitOfWorkPatch, "", ""},
		{"taken back later",
			"Change place_order so that it uses a unit of work to save the order.",
			unitOfWorkPatch, "Actually don't use the UnitOfWork, remove it again.", ""},
		{"a long request that names a library on the way is a task",
			"Alter Shop.Orders such that place_order uses a unit of work to first insert the order, then each of its lines with the order id as foreign key, then update the order's total from the lines.",
			unitOfWorkPatch, "", ""},
		{"a command is not a mechanism",
			"Use `pytest -q tests/test_orders.py` to check it.",
			unitOfWorkPatch, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var kept []string
			for _, c := range extractRequested(requestSession(tc.request, tc.patch, tc.later)) {
				if c.Confidence >= minConfidence {
					kept = append(kept, c.Title)
					if !strings.Contains(c.Body, "Built in: shop/orders.py") {
						t.Errorf("body:\n%s", c.Body)
					}
				}
			}
			wantOne(t, kept, tc.want)
		})
	}
}

// "Alter the existing migration": the person chose the file already there
// over a new one; a session that adds a new migration did not do that.
func TestRequestedExistingPlace(t *testing.T) {
	update := "*** Begin Patch\n*** Update File: db/migrations/0001_initial.py\n@@\n+        sa.Column(\"version\", sa.Integer, nullable=False, server_default=\"1\"),\n*** End Patch"
	add := "*** Begin Patch\n*** Add File: db/migrations/0002_order_version.py\n+def upgrade():\n+    op.add_column(\"orders\", sa.Column(\"version\", sa.Integer))\n*** End Patch"
	for _, tc := range []struct {
		name, patch, file string
		want              string
	}{
		{"changed the existing one", update, "/repo/db/migrations/0001_initial.py", "Add the version column: in the existing migration, not a new one"},
		{"made a new one", add, "/repo/db/migrations/0002_order_version.py", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &transcript.Session{Cwd: "/repo", Agent: "codex", Turns: []transcript.Turn{
				{Ref: "u1", Speaker: transcript.Person, Text: "1. Add a version column to orders.\n2. Alter the existing migration to add the version column"},
				{Ref: "c1", Speaker: transcript.Agent, Call: &transcript.Call{Tool: "ApplyPatch", Files: []string{tc.file}, Status: transcript.OK, Command: tc.patch}},
			}}
			var kept []string
			for _, c := range extractRequested(s) {
				kept = append(kept, c.Title)
				if !strings.Contains(c.Body, "Added: sa.Column(\"version\"") {
					t.Errorf("body:\n%s", c.Body)
				}
			}
			wantOne(t, kept, tc.want)
		})
	}
}

// Words the harness put in the person's place (AGENTS.md, a slash
// command's template) are not the person's request.
func TestRequestedIgnoresInjectedText(t *testing.T) {
	s := requestSession("Change place_order so that it uses a unit of work to save the order.", unitOfWorkPatch, "")
	s.Turns[0].Speaker = transcript.Injected
	s.Turns[0].Source = "instructions"
	if got := extractRequested(s); len(got) > 0 {
		t.Errorf("written from injected text: %q", got[0].Title)
	}
}
