package formats

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// applyBendOps reads the answer as a gold edit (edit.FromValue: NotFormat
// names the operation and why) and applies it to given with edit.Apply
// (Failed: an unknown id, a mark already there, ...). The output is
// bend.Marshal of the result.
func applyBendOps(given []byte, raw string) (out []byte, fail *Failure) {
	defer func() {
		if p := recover(); p != nil {
			out, fail = nil, whole(BendOps, Failed, fmt.Sprintf("the operations could not be applied: %v", p))
		}
	}()
	elems, fail := extractOps(BendOps, raw)
	if fail != nil {
		return nil, fail
	}
	ops, err := edit.FromValue(&bend.Value{Kind: bend.Array, Elems: elems})
	if err != nil {
		return nil, opFailure(NotFormat, elems, err)
	}
	d, err := bend.Parse(given)
	if err != nil {
		return nil, whole(BendOps, Failed, "the document given does not parse: "+err.Error())
	}
	res, err := edit.Apply(d, ops)
	if err != nil {
		return nil, opFailure(Failed, elems, err)
	}
	return bend.Marshal(res), nil
}

// opFailure turns an error of package edit into a Failure that names the
// operation.
func opFailure(kind string, elems []*bend.Value, err error) *Failure {
	var oe *edit.OpError
	if errors.As(err, &oe) && oe.Index >= 0 && oe.Index < len(elems) {
		return at(BendOps, kind, oe.Index, elems[oe.Index], oe.Err.Error())
	}
	return whole(BendOps, kind, err.Error())
}

// answerBendOps answers with the gold edit itself.
func answerBendOps(_ []byte, _ *bend.Document, ops []*edit.Op) (string, error) {
	elems := make([]*bend.Value, len(ops))
	for i, op := range ops {
		elems[i] = op.Value()
	}
	return marshalArray(elems), nil
}

// idFields are the members of an operation that address existing content
// by id (insert_block's and insert_span's "block"/"span" hold objects and
// are skipped by kind).
var idFields = []string{"block", "span", "after", "parent"}

// slipBendOps changes one addressing id of one operation: its last letter
// or digit becomes the next one (9→0, z→a), the misread a reader makes of
// ids like blk-7b01. The id picked is uniform over every non-empty block,
// span, after and parent string. The new id may name no content (the
// answer fails) or other content (the wrong place is edited).
func slipBendOps(answer string, r *rand.Rand) (string, string) {
	elems, fail := extractOps(BendOps, answer)
	if fail != nil {
		return answer, ""
	}
	type slot struct {
		op  int
		key string
		v   *bend.Value
	}
	var all []slot
	for i, e := range elems {
		for _, k := range idFields {
			if f := e.Get(k); f != nil && f.Kind == bend.String && f.Str != "" {
				all = append(all, slot{i, k, f})
			}
		}
	}
	if len(all) == 0 {
		return answer, ""
	}
	s := all[r.IntN(len(all))]
	was := s.v.Str
	s.v.Str = bump(was)
	return marshalArray(elems), fmt.Sprintf("operation %d: %s %s became %s", s.op, s.key, was, s.v.Str)
}

// bump returns id with its last ASCII letter or digit advanced by one
// (wrapping), or id+"x" when it has none.
func bump(id string) string {
	b := []byte(id)
	for i := len(b) - 1; i >= 0; i-- {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			b[i] = '0' + (c-'0'+1)%10
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+1)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+1)%26
		default:
			continue
		}
		return string(b)
	}
	return id + "x"
}
