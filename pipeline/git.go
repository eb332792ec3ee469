package pipeline

import (
	"os/exec"
	"strings"
)

// GitCommit returns the checked-out commit, recorded in the manifest
// (Options.GitCommit), or "" outside a git checkout.
func GitCommit() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
