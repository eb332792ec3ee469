package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/transcript"
)

// recordedFlags are the run flags a resume takes from the run's manifest,
// each with the value the run recorded, printed as the flag prints it: a
// resume may repeat one, never contradict it.
func recordedFlags(m *transcript.Manifest, cfg *config.Config, in transcript.Inputs) map[string]string {
	return map[string]string{
		"models": strings.Join(m.Models, ","), "judges": strings.Join(cfg.Judges.Models, ","),
		"repeats": strconv.Itoa(m.Repeats), "seed": strconv.FormatInt(m.Seed, 10),
		"corpus": in.CorpusDir, "instructions": in.InstructionsDir, "reports": in.ReportDir, "no-preflight": strconv.FormatBool(in.NoPreflight),
		"suite": suites.Of(in.Suite).Name, "rungs": strings.Join(in.Rungs, ","), "steps": strconv.Itoa(in.Steps), "round-trips": strconv.Itoa(in.RoundTrips),
		"formats": strings.Join(in.Formats, ","), "feedback": strconv.Itoa(in.Feedback),
	}
}

// asked is a flag's value as recordedFlags prints it: a list flag's
// items joined by commas, without spaces or empty items.
func asked(name, value string) string {
	if name == "formats" {
		if f, err := formatsOf(value); err == nil {
			return strings.Join(f, ",")
		}
		return value
	}
	if name != "models" && name != "judges" && name != "rungs" {
		return value
	}
	return strings.Join(splitList(value), ",")
}

// resumeRun reads the run in dir to continue it with everything its
// manifest recorded. A flag given (by name, as its flag.Value prints it)
// that contradicts the manifest is refused rather than silently ignored,
// and so is --config (the configuration is in the manifest); concurrency,
// progress and the spending cap may change. baseURL is where this resume
// sends requests and the key (--base-url, else $OPENROUTER_BASE_URL, else
// OpenRouter); command runs the harness, for the resume command a refusal
// prints; notes receives what the resume says aloud before it writes
// anything. It returns the run's manifest, configuration and inputs, the
// report directory filled in for a manifest from before it was recorded.
func resumeRun(dir string, flags map[string]string, baseURL, command string, notes io.Writer) (*transcript.Manifest, *config.Config, transcript.Inputs, error) {
	m, cfg, err := pipeline.ReadRun(dir)
	if err != nil {
		return nil, nil, transcript.Inputs{}, fmt.Errorf("resume: %w", err)
	}
	in := m.Inputs
	in.ReportDir = cmp.Or(in.ReportDir, pipeline.DefaultReportDir)
	if err := checkResumeFlags(flags, recordedFlags(m, cfg, in)); err != nil {
		return nil, nil, in, err
	}
	// run.json is no hash-covered record of where requests go: an edited
	// one must not send the key to another server. The resume sends where
	// its command line (or the environment, or the default) says, and the
	// run's record must agree.
	if in.BaseURL != "" && in.BaseURL != baseURL {
		return nil, nil, in, usage.Errorf("resume: run.json says the run asked %s, but this resume would send the key to %s: to resume against the run's server, name it yourself:\n  %s",
			in.BaseURL, baseURL, pipeline.ResumeCommand(command, dir, in))
	}
	if in.BaseURL != "" {
		fmt.Fprintf(notes, "resume: requests and the API key go to %s\n", baseURL)
	}
	if _, given := flags["reports"]; !given {
		// Writing reports leaks nothing: the recorded directory is used,
		// and said aloud before anything is written.
		fmt.Fprintf(notes, "resume: reports go to %s (recorded in run.json)\n", in.ReportDir)
	}
	return m, cfg, in, nil
}

// checkResumeFlags refuses --config, and a flag whose value contradicts
// the one the run recorded, in the flags' name order.
func checkResumeFlags(flags, recorded map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(flags)) {
		rec, fixed := recorded[name]
		switch {
		case name == "config" && flags[name] != "":
			return usage.Errorf("resume: the run's configuration is in its manifest; --config does not apply")
		case fixed && asked(name, flags[name]) != rec:
			return usage.Errorf("resume: --%s %q contradicts the run's manifest (%q); resume without it, or start a new run", name, asked(name, flags[name]), rec)
		}
	}
	return nil
}
