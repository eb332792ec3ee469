// Package instructions holds the 60 tasks (NN-a.json, NN-b.json, NN-c.json;
// FORMAT.md defines them), the 40 inverse tasks that undo the class B and C
// ones (inverse/NN-b.json, inverse/NN-c.json), the 40 natural tasks that ask
// for the same class B and C changes as an editor would, without dictating
// ids (natural/NN-b.json, natural/NN-c.json), the pools of reversible
// edits the delegate chains draw from (pool/NN.json) and the prompt templates
// (prompts/), embedded so that a run is reproducible from the binary alone.
package instructions

import "embed"

// FS holds the task files, inverse/, natural/, pool/ and prompts/.
//
//go:embed ??-?.json inverse/??-?.json natural/??-?.json pool/??.json prompts/*.txt
var FS embed.FS
