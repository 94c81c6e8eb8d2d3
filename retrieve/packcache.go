package retrieve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/cairnmem/cairn/index"
)

// A new session's pack is the same for every session that starts while
// the vaults, the configuration and the hour stay the same. It is built
// ahead, when a session ends (Warm), and kept in the project cache, so
// session-start reads it instead of listing and ranking the vault. The
// key holds every index's indexed version, which the sync before the read
// moves on any commit or hand edit, so a changed vault is never answered
// from an old pack, and the stamp of the stale-memory list. Access statistics are left out of the key on
// purpose: they change with every pack shown, and their effect on ranking
// within an hour is small.

// startPackFile is the derived file in the project cache.
const startPackFile = "session-start-pack.json"

// startBucket is how long a prebuilt pack's clock stays good: ages and
// recency are computed at build time, and reminders fall due by the hour.
const startBucket = time.Hour

// packCacheVersion changes when the cached form or the pack's logic does.
const packCacheVersion = "1"

type cachedPack struct {
	Key  string `json:"key"`
	Pack *Pack  `json:"pack"`
	MD   string `json:"markdown"`
}

// cacheable says whether a request is a new session's pack: nothing shown
// yet, no task, no primer of its own.
func cacheable(req PackRequest) bool {
	return req.SessionStart && !req.Resume && !req.OnlyNew && !req.Prompt && req.Task == "" && len(req.Sections) == 0
}

// startKey identifies what a new session's pack depends on.
func (r *Retriever) startKey(vs []*index.View, heads []string, req PackRequest, now time.Time) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s|%v|%d|%v|%+v|%v|", packCacheVersion, buildID(), heads, req.Budget, req.Safe, r.cfg, r.reviewRequired)
	for _, v := range vs {
		fmt.Fprintf(h, "%s:%s|", v.Scope(), v.Version())
	}
	// Stale flags come from a file the finalizer and cairn stale refresh.
	for _, ix := range r.ixs {
		if fi, err := os.Stat(stalePath(ix.Vault())); err == nil {
			fmt.Fprintf(h, "stale:%d:%d|", fi.ModTime().UnixNano(), fi.Size())
		}
	}
	fmt.Fprintf(h, "%d", now.UTC().Truncate(startBucket).Unix())
	return hex.EncodeToString(h.Sum(nil))
}

// buildID ties cached packs to the cairn build that made them.
var buildID = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	id := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			id += " " + s.Value
		}
	}
	return id
})

// loadStartPack returns the prebuilt pack for key, or nil.
func (r *Retriever) loadStartPack(key string) *cachedPack {
	if len(r.ixs) == 0 {
		return nil
	}
	data, err := r.ixs[0].ReadDerived(startPackFile)
	if err != nil {
		return nil
	}
	var c cachedPack
	if json.Unmarshal(data, &c) != nil || c.Key != key || c.Pack == nil {
		return nil
	}
	return &c
}

// storeStartPack keeps p for the sessions that start under key. A failure
// only costs the next session-start the full build.
func (r *Retriever) storeStartPack(key string, p *Pack) {
	if len(r.ixs) == 0 {
		return
	}
	data, err := json.Marshal(cachedPack{Key: key, Pack: p, MD: p.Markdown})
	if err == nil {
		_ = r.ixs[0].WriteDerived(startPackFile, data)
	}
}

// Warm builds the pack the next new session will be given and stores it,
// off any hook's critical path (the finalizer runs it when a session
// ends). Nothing is recorded as shown.
func (r *Retriever) Warm(ctx context.Context) error {
	_, err := r.Pack(ctx, PackRequest{SessionStart: true})
	return err
}
