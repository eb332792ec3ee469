package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// plan is what a run will do.
type plan struct {
	suite   *suites.Suite
	tasks   []*task.Task
	judges  []string
	clients map[string]model.Client
	online  []string
}

// planRun resolves the run's tasks, judges and clients and checks that
// every class A answer can be judged, before anything is sent.
func planRun(o Options) (*plan, error) {
	cfg := o.Config
	p := &plan{suite: suites.Of(o.Inputs.Suite), tasks: o.Set.Tasks, judges: JudgeModels(cfg)}
	if o.Resume != nil {
		var err error
		if p.tasks, err = resumedTasks(o); err != nil {
			return nil, err
		}
	}
	if err := o.Prompts.CheckFormats(p.tasks); err != nil {
		return nil, err
	}
	if err := checkPlan(cfg, p); err != nil {
		return nil, err
	}
	var err error
	all := append(slices.Clone(cfg.Models), p.judges...)
	if p.clients, p.online, err = o.Conn.Clients(all, o.Set); err != nil {
		return nil, err
	}
	if err := checkSize(len(cfg.Models), len(p.tasks), cfg.Repeats); err != nil {
		return nil, err
	}
	return p, nil
}

// resumedTasks are the tasks of the run being resumed, in its manifest's
// order, refused when the corpus, tasks or prompts are no longer the
// ones it started with.
func resumedTasks(o Options) ([]*task.Task, error) {
	m := o.Resume
	if m.CorpusHash != o.Set.Hash() || m.PromptHash != o.Prompts.HashFor(m.Inputs.Formats) {
		return nil, fmt.Errorf("resume: the corpus, tasks or prompts changed since the run started (hashes differ); start a new run")
	}
	var tasks []*task.Task
	for _, id := range m.TaskIDs {
		if t := o.Set.Task(id); t != nil {
			tasks = append(tasks, t)
		}
	}
	return tasks, nil
}

// checkPlan refuses judges that cannot judge, two models that would share
// a transcript directory, and class A answers no judge could judge.
func checkPlan(cfg *config.Config, p *plan) error {
	if err := CheckJudges(p.judges); err != nil {
		return err
	}
	if err := checkDirs(append(slices.Clone(cfg.Models), p.judges...)); err != nil {
		return err
	}
	return checkPanel(cfg, p.judges, p.tasks)
}

// JudgeModels returns the class A judges: the fixed list, or with a panel
// the gating models themselves (each judging the others' answers).
func JudgeModels(cfg *config.Config) []string {
	if len(cfg.Judges.Models) > 0 {
		return cfg.Judges.Models
	}
	if cfg.Judges.Panel {
		return slices.Clone(cfg.Models)
	}
	return nil
}

// MaxJobs bounds models × tasks × repeats, the count that sizes a run's
// jobs, scores and report rows: a run or a run.json beyond it is refused
// before anything is allocated for it (issue 20: 100,000,000 repeats
// asked for 24 GB at planning, and rescore for 4.3 TB). It is ten times
// the gating suite at config.MaxRepeats.
const MaxJobs = 2_000_000

// checkSize refuses a run whose plan would be larger than MaxJobs.
func checkSize(models, tasks, repeats int) error {
	if repeats < 1 || repeats > config.MaxRepeats {
		return usage.Errorf("repeats: a whole number from 1 to %d, not %d", config.MaxRepeats, repeats)
	}
	if models > MaxJobs || tasks > MaxJobs || models*tasks > MaxJobs/repeats {
		return usage.Errorf("%d models × %d tasks × %d repeats is more than the %d jobs a run may have", models, tasks, repeats, MaxJobs)
	}
	return nil
}

// checkDirs refuses, before any request, two model ids whose transcripts
// would share a directory (transcript.Slug maps both to one name, or names
// that differ only in case, which are one directory on some file
// systems): they would overwrite each other's transcripts and the run
// could never complete.
func checkDirs(models []string) error {
	seen := map[string]string{}
	for _, m := range models {
		dir := strings.ToLower(transcript.Slug(m))
		if other, ok := seen[dir]; ok && other != m {
			return usage.Errorf("models %q and %q would share the transcript directory %q; run them separately", other, m, transcript.Slug(m))
		}
		seen[dir] = m
	}
	return nil
}

// checkPanel refuses, before any request, a run whose class A answers
// would go unjudged: judges are configured, but for some answering model
// none is another model (the default panel with a single model).
func checkPanel(cfg *config.Config, judges []string, tasks []*task.Task) error {
	if len(judges) == 0 || !slices.ContainsFunc(tasks, func(t *task.Task) bool { return t.Class == task.ClassA }) {
		return nil
	}
	for _, m := range cfg.Models {
		if len(judge.Panel(m, cfg.Models, cfg.Judges.Models)) == 0 {
			return usage.Errorf("no judge other than %s itself could judge its class A answers: pass --judges with another model (offline: --judges %s)", m, judge.OfflineJudge)
		}
	}
	return nil
}
