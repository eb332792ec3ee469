// Package corpus holds the 20 documents of the v0.1 test corpus (§8.2),
// embedded so that a run is reproducible from the binary alone. README.md
// maps each file to its §8.2 row.
package corpus

import "embed"

// FS holds the corpus documents, NN-<slug>.bend.json.
//
//go:embed *.bend.json
var FS embed.FS
