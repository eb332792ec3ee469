// Package ladder builds the size ladder: large documents, composed from the
// corpus, in which the same class B and C edits sit at the start, the middle
// and the end, so that a run can show whether drift grows with document size
// and with where in the document the edit falls.
//
// # Rungs
//
// A rung is one document of about a target size (DefaultRungs: 8, 32, 128
// and 512 KiB). Its size, len(bend.Marshal(rung)), lies within Bounds:
// T − ⌊0.15·T⌋ ≤ size ≤ T + ⌊0.15·T⌋. Build returns an error when whole
// documents cannot make a size: with the default tasks, 4k and below, and
// 7k (Composition).
//
// # Composition
//
// A rung is made of copies of whole corpus documents: every top-level block
// of the document, in order, and every edge. In document order a rung holds
//
//	P₀  A  P₁  B  P₂
//
// where P₀, P₁ and P₂ are each one copy of every task document (the
// documents of the placed tasks, in task order) and A and B are the two
// halves of the filler. The filler documents are the composable corpus
// documents (see Vocabulary) other than the task documents: vocabulary
// documents first, then core documents, each group in corpus order. The
// filler is made by walking that cycle, round and round, taking each
// document that keeps the rung under its upper bound, until the rung
// reaches its target or a whole cycle adds nothing; it is then split into
// A and B, in cycle order, where the numbers of blocks (at every depth)
// differ least, the first such split. Blocks, not bytes, because positions
// are thirds of the blocks, and documents of short list items have three
// times as many blocks per byte as documents of paragraphs.
//
// With t blocks in each P and a and b in A and B, P₁ is blocks t+a to
// 2t+a−1 of n = 3t+a+b, which lies in the middle third when b ≤ 2a and
// a ≤ 2b; P₀ and P₂ are in the first and last thirds whatever a and b are.
// When the filler misses the size bounds or that balance (a small rung
// whose filler is one large document), the walk starts again one document
// later in the cycle, up to once per filler document; Build fails when no
// start works.
//
// Keeping the task documents out of the filler means every rung has exactly
// three copies of the text an instruction quotes, so that a model that
// finds a span by its text rather than its id has the same chance of
// picking the wrong copy in every rung.
//
// # Ids and references
//
// Copy k (k = 0, 1, …, counted in document order) of corpus document NN
// (its place in the sorted corpus, from 01; the file's number for the v0.1
// corpus) is named dNNrk, and every block id and span id x of it becomes "dNNrk-x"
// (§5.2: letters, digits, '-' and '_'). Span ids need no renaming to stay
// unique, since they are unique within a block, but renaming them too keeps
// one rule for every id and lets a reader tell a span's copy from its id
// alone. References follow, in edge subjects and objects, link-mark targets,
// embed targets and string values of edge meta:
//
//   - a reference into the source document with a fragment (bend:<id>#b,
//     bend:<id>#b.s, or the relative bend:#b, bend:#b.s) points at the same
//     block or span of the copy, in the same form: absolute references name
//     the rung's id, relative ones stay relative, and those in edge meta
//     become relative (edge meta is hashed, and an absolute reference there
//     could never name the rung's own content id);
//   - a reference to the whole source document (bend:<id>, bend:) names the
//     source document by its id, since the rung contains the document's
//     blocks but is not the document: "this document supersedes its
//     previous version" stays a statement about that document, which the
//     rung reports (§6.1 allows an external subject for a reported edge);
//   - every other reference (other documents, external URIs) is unchanged,
//     even when it names another corpus document that the rung contains.
//
// Copies of one document therefore repeat their edges between external or
// whole-document references word for word; the rung keeps the first.
// Everything else (text, marks, kinds, unknown members) is copied verbatim.
// The source documents' meta is not copied: a rung's meta records the rung
// name, its target and, for each source document, its prefix, file name and
// id. The rung's declared id is its computed id (§5.1).
//
// # Vocabulary
//
// A document has one vocabulary, and §6.1 requires every predicate to come
// from it or from core, so documents of two different non-core
// vocabularies cannot share a rung. Every rung takes the same vocabulary:
// the first non-core vocabulary, in corpus order, of a document with
// vocabulary blocks (a kind core does not define); else the first non-core
// vocabulary; else core. The composable documents are those of core and of
// that vocabulary. For the v0.1 corpus that is bendscript.argument.v1:
// document 18 and its argument-position, argument-support and
// argument-attack blocks lead the filler, so every rung from 32k up has
// them, and document 17 (bendscript.memory.v1) is never used. The 8k rung
// has no room for document 18 but declares the same vocabulary, so that
// size is the only thing that changes between rungs.
//
// # Edits
//
// Each task of Config.Tasks (DefaultTasks: 02-b, an add_mark, and 02-c, a
// supersede_span) is placed three times, on the task document's copy in
// P₀ (start), P₁ (middle) and P₂ (end). A placed task keeps the corpus
// task's class and covers; its gold edit and instruction have the copy's
// ids (ids in bend: references to other documents are left alone, and
// {{doc}} stays for the runner to fill with the rung's id, FORMAT.md). A
// task can be placed when every operation addresses a block or span of its
// document: set_vocabulary, set_title and references to the whole document
// have no position. Build checks for every placed task that the gold edit
// applies, that the expected document is valid and passes edit.Check, and
// that the block it addresses (Task.Block) is in the first, middle or last
// third of the rung's blocks in pre-order: ⌊3·index/blocks⌋ = 0, 1 or 2.
//
// Instructions are rewritten for ids only: an instruction that describes
// the document as a whole (08-c: "so that it becomes the last block of the
// document") would mislead in a rung. DefaultTasks have none.
//
// DefaultTasks come from one document because three copies of every task
// document must fit into the smallest rung: three copies of one of the
// smallest documents (01, 02, 03, 07, 08, 09) take 4.6–6.0 KB, of any two
// at least 9.8 KB, above 9,420 bytes, the upper bound of an 8 KiB rung.
// Document 02's pair spans the lightest and the heaviest local edits: a
// bold mark on one span, and a supersession that tombstones a span, inserts
// its successor and adds an edge at the other end of the document. Larger
// ladders can place more tasks (Config.Tasks, harness corpus ladder
// --tasks), for instance 01-b, 01-c, 02-b and 02-c from 13k up.
//
// # Determinism
//
// Build reads only its arguments: no clock, no randomness, no map iterated
// without an order. The same corpus, tasks and Config give the same bytes.
//
// # Cost
//
// go test -bench BenchmarkBuild ./suites/ladder (2 CPUs): 2.3 ms for 8k, 6 ms for
// 32k, 31 ms for 128k, 105 ms for 512k; at 512k half of it places the six
// edits, each applied to a copy of the rung, validated and checked.
package ladder
