package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/metric"
	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/wI2L/jsondiff"
)

// CopyLimit bounds the bytes that the "copy" operations of one JSON Patch
// may add in all (ApplyOptions.AccumulatedCopySizeLimit): a chain of copies
// of copies doubles the document at each step, so without a bound a short
// hostile answer could allocate without limit. 4 MiB is eight times the
// largest rung of the size ladder; no honest edit copies that much.
const CopyLimit = 4 << 20

// patchOps are the RFC 6902 operations, and what each requires besides
// "op" and "path".
var patchOps = map[string][]string{
	"add":     {"value"},
	"remove":  nil,
	"replace": {"value"},
	"move":    {"from"},
	"copy":    {"from"},
	"test":    {"value"},
}

// applyJSONPatch applies an RFC 6902 patch to given. Every operation's
// shape is checked first (NotFormat), then the patch is applied with
// evanphx/json-patch: negative indexes off, no paths created on add, copies
// bounded by CopyLimit. When the patch fails, the first operation whose
// prefix of the patch fails is the one named (a failure is monotone in the
// prefix, so a binary search finds it in log n applications; with at most
// MaxOps operations, at most 11).
func applyJSONPatch(given []byte, raw string) (out []byte, fail *Failure) {
	defer func() {
		if p := recover(); p != nil {
			out, fail = nil, whole(JSONPatch, Failed, fmt.Sprintf("the patch could not be applied: %v", p))
		}
	}()
	elems, fail := extractOps(JSONPatch, raw)
	if fail != nil {
		return nil, fail
	}
	for i, e := range elems {
		if reason := checkPatchOp(e); reason != "" {
			return nil, at(JSONPatch, NotFormat, i, e, reason)
		}
	}
	if !json.Valid(given) {
		return nil, whole(JSONPatch, Failed, "the document given is not JSON")
	}
	patch, err := jsonpatch.DecodePatch([]byte(marshalArray(elems)))
	if err != nil {
		return nil, whole(JSONPatch, NotFormat, err.Error())
	}
	apply := func(n int) ([]byte, error) { return patch[:n].ApplyWithOptions(given, patchOptions()) }
	if out, err = apply(len(patch)); err == nil {
		return out, nil
	}
	k := sort.Search(len(patch)+1, func(n int) bool { _, err := apply(n); return err != nil })
	if k == 0 || k > len(patch) {
		return nil, whole(JSONPatch, Failed, err.Error())
	}
	_, err = apply(k)
	return nil, at(JSONPatch, Failed, k-1, elems[k-1], err.Error())
}

func patchOptions() *jsonpatch.ApplyOptions {
	o := jsonpatch.NewApplyOptions()
	o.SupportNegativeIndices = false
	o.AccumulatedCopySizeLimit = CopyLimit
	o.AllowMissingPathOnRemove = false
	o.EnsurePathExistsOnAdd = false
	o.EscapeHTML = false
	return o
}

// MaxOps bounds the operations of one patch answer, in either format. An
// operation may cost time in proportion to the array it edits (evanphx
// copies the array on each insert; package edit searches the tree for an
// id), so without a bound an answer of N inserts at the front took time
// in N²: 80,000 ops 9.8 s, a 16 MB answer minutes (issue 32). The gold
// edits of the corpus and of the 512k rung need at most 3 operations;
// 1,000 leaves room for an edit a hundred times wider.
const MaxOps = 1000

// extractOps finds the JSON array of an answer (metric.ExtractJSONArray:
// bare, or one Markdown fence) and returns its elements: at most MaxOps.
func extractOps(format, raw string) ([]*bend.Value, *Failure) {
	x := metric.ExtractJSONArray(raw, isArray)
	switch {
	case x.Value == nil || x.Reason != "":
		return nil, whole(format, NotJSON, x.Reason)
	case x.Value.Kind != bend.Array:
		return nil, whole(format, NotFormat, fmt.Sprintf("the answer is %s, not an array of operations", kindName(x.Value)))
	case len(x.Value.Elems) > MaxOps:
		return nil, whole(format, NotFormat, fmt.Sprintf("the answer has %d operations, over the limit of %d per answer", len(x.Value.Elems), MaxOps))
	}
	return x.Value.Elems, nil
}

// checkPatchOp returns why v is not an RFC 6902 operation, or "".
func checkPatchOp(v *bend.Value) string {
	if v.Kind != bend.Object {
		return fmt.Sprintf("an operation is an object, not %s", kindName(v))
	}
	op := v.Get("op")
	switch {
	case op == nil:
		return `missing "op"`
	case op.Kind != bend.String:
		return fmt.Sprintf(`"op" must be a string, not %s`, kindName(op))
	}
	needs, ok := patchOps[op.Str]
	if !ok {
		return fmt.Sprintf("unknown op %q (want add, remove, replace, move, copy or test)", op.Str)
	}
	for _, k := range append([]string{"path"}, needs...) {
		f := v.Get(k)
		switch {
		case f == nil:
			return fmt.Sprintf("%s needs %q", op.Str, k)
		case k != "value" && f.Kind != bend.String:
			return fmt.Sprintf("%s: %q must be a string, not %s", op.Str, k, kindName(f))
		case k != "value" && !isPointer(f.Str):
			return fmt.Sprintf(`%s: %q is %q, not a JSON pointer ("" or "/" followed by tokens; "~" only as ~0 or ~1)`, op.Str, k, f.Str)
		}
	}
	return ""
}

// isPointer reports whether s is an RFC 6901 JSON pointer with no token
// of digits that has a leading zero: RFC 6901 §4 forbids such an array
// index, which evanphx reads as a number ("/blocks/01" edited block 1,
// issue 32). A member named "01" (only possible in meta) cannot be
// addressed by a patch answer; no BendScript member has such a name.
func isPointer(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return false
		}
	}
	for _, tok := range strings.Split(s[1:], "/") {
		if len(tok) > 1 && tok[0] == '0' && strings.Trim(tok, "0123456789") == "" {
			return false
		}
	}
	return true
}

// answerJSONPatch diffs given→target with jsondiff, comparing arrays by
// their longest common subsequence so that a block inserted among 500 is
// one add, not 500 replaces. Numbers are read as json.Number, so that their
// literals survive. Each operation is written "op", "from", "path",
// "value", in the order RFC 6902 shows them (jsondiff writes "value"
// first); the members of a value are in key order, as encoding/json writes
// a map.
func answerJSONPatch(given []byte, target *bend.Document, _ []*edit.Op) (string, error) {
	p, err := jsondiff.CompareJSON(given, bend.Marshal(target), jsondiff.LCS(), jsondiff.UnmarshalFunc(unmarshalNumbers))
	if err != nil {
		return "", fmt.Errorf("json-patch: diffing the document given and the target: %w", err)
	}
	elems := make([]*bend.Value, len(p))
	for i, op := range p {
		o := &bend.Value{Kind: bend.Object}
		add := func(k string, v *bend.Value) { o.Members = append(o.Members, bend.Member{Key: k, Value: v}) }
		add("op", bend.StringValue(op.Type))
		if op.From != "" {
			add("from", bend.StringValue(op.From))
		}
		add("path", bend.StringValue(op.Path))
		if op.Type == jsondiff.OperationAdd || op.Type == jsondiff.OperationReplace || op.Type == jsondiff.OperationTest {
			v, err := valueOf(op.Value)
			if err != nil {
				return "", fmt.Errorf("json-patch: operation %d: %w", i, err)
			}
			add("value", v)
		}
		elems[i] = o
	}
	return marshalArray(elems), nil
}

// valueOf converts a value of jsondiff (what encoding/json decodes, numbers
// as json.Number) to a bend.Value.
func valueOf(x any) (*bend.Value, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bend.ParseValue(bytes.TrimRight(b.Bytes(), "\n"))
}

func unmarshalNumbers(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// slipJSONPatch moves one array index of one path (or from) by one: the
// miscount a reader makes in a long array or a deep list. The index picked
// is uniform over every index of every path; 0 becomes 1, any other n
// becomes n-1 or n+1 with equal chance. The result may edit the wrong
// element, fail a test, or point past the end: whatever a real miscount
// does.
func slipJSONPatch(answer string, r *rand.Rand) (string, string) {
	x := metric.ExtractJSONArray(answer, isArray)
	if x.Value == nil || x.Value.Kind != bend.Array {
		return answer, ""
	}
	type index struct {
		op    int
		field *bend.Value
		key   string
		token int
	}
	var all []index
	for i, e := range x.Value.Elems {
		for _, k := range []string{"path", "from"} {
			f := e.Get(k)
			if f == nil || f.Kind != bend.String {
				continue
			}
			for j, tok := range strings.Split(f.Str, "/") {
				if isIndex(tok) {
					all = append(all, index{i, f, k, j})
				}
			}
		}
	}
	if len(all) == 0 {
		return answer, ""
	}
	c := all[r.IntN(len(all))]
	toks := strings.Split(c.field.Str, "/")
	n, _ := strconv.Atoi(toks[c.token])
	m := n + 1
	if n > 0 && r.IntN(2) == 0 {
		m = n - 1
	}
	toks[c.token] = strconv.Itoa(m)
	was := c.field.Str
	c.field.Str = strings.Join(toks, "/")
	return marshalArray(x.Value.Elems), fmt.Sprintf("operation %d: %s %s became %s", c.op, c.key, was, c.field.Str)
}

// isIndex reports whether a pointer token is an array index (RFC 6901: 0,
// or digits without a leading zero).
func isIndex(tok string) bool {
	if tok == "" || (len(tok) > 1 && tok[0] == '0') {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return false
		}
	}
	return true
}
