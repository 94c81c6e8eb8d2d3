// Package synth generates reproducible synthetic vaults of realistic
// memories for benchmarks: the same seed and size always give the same
// files, so figures from different runs and machines compare.
package synth

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

var (
	techs      = split("bleve postgres sqlite redis kafka grpc protobuf graphql nginx envoy terraform kubernetes helm docker bazel goreleaser cobra kong zap slog prometheus grafana opentelemetry jaeger vault consul etcd nats rabbitmq s3 minio clickhouse duckdb pgx sqlc gorm ent templ htmx react vite tailwind playwright vitest jest esbuild webpack rust wasm tokio axum")
	areas      = split("search indexing caching sessions authentication authorization billing checkout payments notifications email delivery logging tracing metrics alerting deploys migrations backups replication sharding rate-limiting feature-flags onboarding settings exports imports reports dashboards uploads thumbnails webhooks retries scheduling queues workers cli config secrets-handling build-pipeline release-process test-suite fixtures")
	reasons    = split("it-is-pure-go|it-needs-no-cgo|the-team-already-knows-it|it-halves-p99-latency|it-removes-a-daemon|licensing-is-simpler|it-runs-offline|the-binary-stays-static|it-supports-transactions|it-streams-results|memory-stays-bounded|cold-start-is-faster|it-has-first-class-tracing|upgrades-are-painless|the-api-is-stable")
	components = split("api-gateway auth-service billing-worker indexer scheduler sync-engine web-frontend mobile-client cli importer exporter migrator notifier ingest-pipeline report-builder cache-layer session-store search-service hook-runner merge-driver")
	errorsList = split("connection-refused|context-deadline-exceeded|nil-pointer-dereference|too-many-open-files|database-is-locked|permission-denied|unexpected-EOF|certificate-has-expired|out-of-memory|index-out-of-range|deadlock-detected|checksum-mismatch|address-already-in-use|no-space-left-on-device|unmarshal-type-error")
	causes     = split("a-goroutine-leaked-file-handles|the-retry-loop-had-no-backoff|two-tests-shared-a-temp-directory|the-pool-size-was-one|a-stale-lock-file-survived-a-crash|clock-skew-between-hosts|the-config-default-changed-upstream|an-unbounded-channel-filled-up|the-migration-ran-twice|utf-8-was-truncated-mid-rune|the-cache-key-ignored-the-tenant|a-map-was-written-concurrently")
	fixes      = split("added-a-context-timeout|closed-the-body-in-a-defer|switched-to-t.TempDir|serialized-writes-behind-a-lock|added-exponential-backoff|pinned-the-dependency-version|made-the-migration-idempotent|bounded-the-channel|moved-the-check-before-the-write|added-a-regression-test")
	actions    = split("commit-secrets|log-tokens|call-the-network-in-tests|edit-generated-files|skip-the-linter|push-to-main|store-timestamps-in-local-time|panic-in-library-code|use-global-state|block-the-event-loop|ignore-errors-from-close|vendor-dependencies")
	people     = split("the-user prefers|the-team wants|reviewers expect|the-lead asked-for")
	styles     = split("table-driven-tests|small-pull-requests|conventional-commits|explicit-error-wrapping|early-returns|short-functions|descriptive-names|structured-logging|feature-flags-for-risky-changes|docs-next-to-code")
)

func split(s string) []string {
	sep := " "
	if strings.Contains(s, "|") {
		sep = "|"
	}
	var out []string
	for _, w := range strings.Split(s, sep) {
		out = append(out, strings.ReplaceAll(w, "-", " "))
	}
	return out
}

// Kinds in the proportions of a long-lived project vault: many outcomes and
// events, fewer decisions and constraints.
var mix = []schema.Kind{
	schema.KindOutcome, schema.KindOutcome, schema.KindOutcome, schema.KindEvent, schema.KindEvent,
	schema.KindSession, schema.KindSession, schema.KindDecision, schema.KindDecision, schema.KindCase,
	schema.KindCase, schema.KindThread, schema.KindConstraint, schema.KindPreference, schema.KindPattern,
}

// Memory returns the i-th synthetic memory of a seed.
func Memory(seed int64, i int, epoch time.Time) *schema.Memory {
	r := rand.New(rand.NewSource(seed*1_000_003 + int64(i)))
	pick := func(xs []string) string { return xs[r.Intn(len(xs))] }
	kind := mix[r.Intn(len(mix))]
	var title, body string
	tech, area, comp := pick(techs), pick(areas), pick(components)
	switch kind {
	case schema.KindDecision:
		alt := pick(techs)
		title = fmt.Sprintf("Use %s for %s", tech, area)
		body = fmt.Sprintf("We decided to use %s for %s because %s. %s was considered, but %s. This affects the %s.\n\n## Details\n\nRevisit if %s stops being true.",
			tech, area, pick(reasons), alt, pick(causes), comp, pick(reasons))
	case schema.KindConstraint:
		a := pick(actions)
		title = fmt.Sprintf("Never %s in %s", a, area)
		body = fmt.Sprintf("Do not %s anywhere in %s: the %s depends on it. Reviewers reject changes that %s.", a, area, comp, a)
	case schema.KindCase:
		e := pick(errorsList)
		title = fmt.Sprintf("%s in %s", e, comp)
		body = fmt.Sprintf("Symptom: %s while running %s. Root cause: %s. Fix: %s, verified by rerunning the %s tests.", e, area, pick(causes), pick(fixes), comp)
	case schema.KindOutcome:
		title = fmt.Sprintf("Changed %s in %s", area, comp)
		body = fmt.Sprintf("Edited internal/%s/%s.go and internal/%s/%s_test.go. Ran go test ./internal/%s/... (exit 0) and golangci-lint (exit 0).",
			slug(comp), slug(area), slug(comp), slug(area), slug(comp))
	case schema.KindEvent:
		title = fmt.Sprintf("Migrated %s to %s", area, tech)
		body = fmt.Sprintf("The %s now uses %s for %s. Rollout finished without incidents; %s.", comp, tech, area, pick(reasons))
	case schema.KindSession:
		title = fmt.Sprintf("Session: %s work on %s", area, comp)
		body = fmt.Sprintf("Asked: improve %s in the %s. Done: %s. Left: check %s with %s.", area, comp, pick(fixes), area, tech)
	case schema.KindThread:
		title = fmt.Sprintf("Should %s move to %s?", area, tech)
		body = fmt.Sprintf("Open question: moving %s to %s would help because %s, but %s. Needs a benchmark on the %s.", area, tech, pick(reasons), pick(causes), comp)
	case schema.KindPreference:
		st := pick(styles)
		title = fmt.Sprintf("Prefer %s", st)
		body = fmt.Sprintf("%s %s, especially in %s.", capitalize(pick(people)), st, area)
	default:
		st := pick(styles)
		title = fmt.Sprintf("Pattern: %s in %s", st, comp)
		body = fmt.Sprintf("The %s uses %s throughout; follow it when touching %s.", comp, st, area)
	}
	m := schema.New(kind, title, epoch.Add(time.Duration(i)*time.Minute))
	m.Body = body
	m.Tags = []string{slug(area), slug(comp)}
	info, _ := kind.Info()
	m.URI = schema.URI{Scope: schema.ScopeProject, Path: fmt.Sprintf("%s/%s-%d", info.Dir, schema.Slugify(title), i)}
	return m
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func slug(s string) string { return strings.ReplaceAll(s, " ", "-") }

// Epoch is the first memory's time in every synthetic vault.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Fill writes n synthetic memories into v in batches of one commit each.
func Fill(ctx context.Context, v *vault.Vault, seed int64, n int, progress func(done int)) error {
	const batch = 2000
	for start := 0; start < n; start += batch {
		end := min(start+batch, n)
		_, err := v.Update(ctx, vault.CommitMeta{Verb: "seed", Subject: fmt.Sprintf("seed: synthetic memories %d-%d", start, end-1)}, func(tx *vault.Tx) error {
			for i := start; i < end; i++ {
				if err := tx.Put(Memory(seed, i, Epoch)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if progress != nil {
			progress(end)
		}
	}
	return nil
}
