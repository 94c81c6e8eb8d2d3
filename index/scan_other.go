//go:build !(linux || darwin) || cairn_portable

package index

// scan walks the vault's work tree and compares it with the manifest, by
// listing every directory (see scanList). The cairn_portable build tag
// selects it on Linux too, so the whole index suite can run the form
// Windows uses: go test -tags cairn_portable ./index/...
func scan(root string, m *manifest) (*scanResult, error) { return scanList(root, m) }
