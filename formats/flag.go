package formats

import (
	"fmt"
	"strings"
)

// FlagHelp is the help of harness run's --formats flag, from the table.
func FlagHelp() string {
	parts := make([]string, len(Table))
	for i, f := range Table {
		parts[i] = fmt.Sprintf("%s (%s)", f.Name, f.Help)
	}
	return "answer formats of class B and C tasks, comma-separated: " + strings.Join(parts, ", ") +
		"; each format's answers are scored and reported apart, the verdict stays on document (default document)"
}
