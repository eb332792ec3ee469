package model

// SpellsKey reports whether s holds key once its JSON escapes are decoded,
// level after level, as the client's redaction reads a body. A key
// shorter than 8 bytes is no real key and is never found (the client does
// not redact it either). The runner asks it of an answer after the
// answer's own format has read it (issue 45: a projection's escapes or
// search/replace blocks spliced a key the body's redaction could not see).
func SpellsKey(s, key string) bool {
	return len(key) >= 8 && spellsKey(s, key)
}
