package metric

import (
	"fmt"
	"sort"
)

// A Diagnostic is one finding beside the components: what kind of thing it
// is (one of the Kind constants) and which one (an id, an edge, a JSON
// pointer, a count). Diagnostics are data: they explain a score and never
// change it.
type Diagnostic struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// The kinds of Diagnostic. Ids of spans are written block.span; edges as
// "subject predicate object" with self-references relative; marks as
// "block.span mark".
const (
	KindBlockLost          = "block_lost"          // an expected block id is absent from the output
	KindBlockAdded         = "block_added"         // an output block id is absent from the expected document
	KindBlockKindChanged   = "block_kind_changed"  // a block kept its id but not its kind
	KindSpanLost           = "span_lost"           // in a block on both sides, an expected span is absent
	KindSpanAdded          = "span_added"          // in a block on both sides, a span is new
	KindSpanTextChanged    = "span_text_changed"   // a span on both sides has other text (or became or stopped being a tombstone)
	KindEdgeLost           = "edge_lost"           // an expected edge (normalized) is absent
	KindEdgeAdded          = "edge_added"          // an output edge (normalized) is not expected
	KindEdgeMetaChanged    = "edge_meta_changed"   // an edge on both sides carries other meta (no component compares edge meta)
	KindMarkLost           = "mark_lost"           // an expected mark is absent
	KindMarkAdded          = "mark_added"          // an output mark is not expected
	KindPredicateRewritten = "predicate_rewritten" // a namespaced predicate was replaced by one outside its vocabulary
	KindVocabularyChanged  = "vocabulary_changed"  // the vocabulary field differs
	KindBrokenReference    = "broken_reference"    // an intra-document reference of the output does not resolve (§6.4)
	KindIDChanged          = "id_changed"          // the output declares neither the source's id nor its own content id
	KindIDMissing          = "id_missing"          // the output declares no id
	KindMetaChanged        = "meta_changed"        // document meta differs (no component compares it)
	KindTitleChanged       = "title_changed"       // the title differs (span coverage counts it as text)
	KindProse              = "prose_outside_fence" // the document was fenced and surrounded by other text
	KindAligned            = "new_ids_aligned"     // the output's new ids were matched to the expected document's (natural suite)
	KindWorkBound          = "work_bound"          // a component hit its work bound: its value may be overstated
	KindNotLossless        = "not_lossless"        // a difference from the expected document under the lossless equivalences (the first MaxDifferences)
	KindResidual           = "residual"            // a fact of the residual component lost or added (meta, unknown members, version, edge copies)
	KindUnrequested        = "unrequested_change"  // a place the gold edit left as it was that the output changed
)

// diagList collects diagnostics by kind.
type diagList map[string][]string

func (l *diagList) add(kind, detail string) {
	if *l == nil {
		*l = make(diagList)
	}
	(*l)[kind] = append((*l)[kind], detail)
}

// sorted returns the diagnostics sorted by kind and detail, each kind cut
// to MaxListed entries plus one "… and N more" entry.
func (l diagList) sorted() []Diagnostic {
	kinds := make([]string, 0, len(l))
	for k := range l {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	out := []Diagnostic{}
	for _, k := range kinds {
		ds := l[k]
		sort.Strings(ds)
		for i, d := range ds {
			if i == MaxListed {
				out = append(out, Diagnostic{k, fmt.Sprintf("… and %d more", len(ds)-MaxListed)})
				break
			}
			out = append(out, Diagnostic{k, d})
		}
	}
	return out
}

// sortDiagnostics sorts by kind, keeping the order within a kind.
func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Kind < ds[j].Kind })
}
