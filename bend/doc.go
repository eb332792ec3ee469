// Package bend reads, validates, writes and identifies BendScript v0.1
// documents (.bend.json).
//
// Parse reads a document into the typed model (Document, Block, Span, Mark,
// Edge), keeping unknown members and meta verbatim as Values so that Marshal
// loses nothing; Validate reports what breaks the spec, as typed errors that
// name a JSON pointer and a section.
//
// # Content ids
//
// ID is a CIDv1 of the RFC 8785 (JCS) serialization of the document's
// identity form (IdentityForm: blocks and edges, self-references relative,
// edges sorted and deduplicated; docs/interpretations.md, §5.1). Canonical
// writes those bytes in one pass straight from the typed model, and
// CanonicalValue from any Value; nothing is serialized and parsed again,
// and ID feeds the bytes to sha2-256 as they are written. Object members
// are sorted by the UTF-16 code units of their names, numbers are printed
// as ECMAScript's Number.prototype.toString prints the double they denote
// (1e+21, 1e-7, 0 for -0), and strings escape only the quote, the backslash
// and control characters. Where RFC 8785 has no answer (a number beyond a
// double, a string that is not UTF-8, a duplicate name) they fail.
//
// github.com/gowebpki/jcs, which ids were first computed with, is no longer
// used by this package's code, only by its tests, as the oracle: our bytes
// must equal jcs.Transform's on the RFC 8785 test vectors, the sample
// doubles, every corpus document, the shapes transcripts hash, random
// values, documents built in code, and whatever FuzzCanonical finds.
//
// Reading a 1 MB document and computing its id (BenchmarkParseAndID) takes
// about 16 ms and allocates 5.6 MB; encoding/json decoding the same bytes
// into an any and hashing them (BenchmarkBaselineDecodeSHA256) takes about
// 20 ms and 8.8 MB. Before one-pass hashing it took 130 ms and 62.6 MB. The
// 5.6 MB assume Parse finds an arena in its pool, as it does when documents
// are read one after another; the first Parse in a process allocates 12.4 MB.
package bend
