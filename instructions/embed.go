// Package instructions holds the 60 tasks (NN-a.json, NN-b.json, NN-c.json;
// FORMAT.md defines them) and the prompt templates (prompts/), embedded so
// that a run is reproducible from the binary alone.
package instructions

import "embed"

// FS holds the task files and prompts/.
//
//go:embed ??-?.json prompts/*.txt
var FS embed.FS
