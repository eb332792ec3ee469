package model

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"bendscript.com/round-trip-harness/internal/regularfile"
)

// APIKeyFromEnv is the OpenRouter key: $OPENROUTER_API_KEY, else an
// OPENROUTER_API_KEY line of a .env file in the working directory (as
// inspect_ai and promptfoo read it). The environment wins; the key is
// never written anywhere. Like [BaseURLFromEnv], the caller chooses to
// call it.
func APIKeyFromEnv() (string, error) {
	if k := os.Getenv(EnvAPIKey); k != "" {
		return k, nil
	}
	b, err := regularfile.Read(".env", MaxEnvFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading .env: %w", err)
	}
	return dotenv(string(b))[EnvAPIKey], nil
}

// CheckAPIKey reports why key cannot be sent: a key holding a space, a
// control character or a byte outside printable ASCII cannot be a header
// value, and was retried as a transport error instead of refused (issue
// 32). The error never repeats the key.
func CheckAPIKey(key string) error {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c >= 0x7f {
			return fmt.Errorf("%s holds a space, a control character or a non-ASCII byte at byte %d: a key is printable ASCII (check the variable or the .env line for a stray character)", EnvAPIKey, i)
		}
	}
	return nil
}

// MaxEnvFile bounds the .env file read for the key.
const MaxEnvFile = 1 << 20

// dotenv parses the lines NAME=value of a .env file: "export " before the
// name, blank lines and # comments are allowed, and a value in matching
// single or double quotes loses them.
func dotenv(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if n := len(value); n >= 2 && (value[0] == '"' || value[0] == '\'') && value[n-1] == value[0] {
			value = value[1 : n-1]
		}
		out[strings.TrimSpace(name)] = value
	}
	return out
}
