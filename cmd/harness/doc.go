// Command harness is the BendScript v0.1 round-trip drift harness (§8 of
// the spec): it sends corpus documents and edit tasks to models through an
// OpenAI-compatible API, scores every answer with the drift metric, and
// writes the verdict report.
//
// Usage:
//
//	harness <command> [flags] [args]
//
// Documents:
//
//	validate FILE...             check .bend files against the v0.1 rules
//	id [--check|--write] FILE... print, check or rewrite their content ids
//	project [--parse] FILE       a .bend file as the text projection, or back
//
// Tasks and corpus:
//
//	corpus check                 the documents, tasks, gold edits, inverses and the §8.2 table
//	corpus ladder --out DIR      the size ladder: large documents with placed edits
//	corpus sensitivity           what each threshold lets through
//	expect --task FILE           the expected document of a class B/C task
//	score --task FILE --output F one model answer scored: drift, components, compliance
//	judge calibrate --models J   judges against the hand-labelled class A answers
//
// Runs and reports:
//
//	run                          the tasks against the models, judged, scored, reported
//	rescore RUN_DIR              the scores and report of an archived run, offline
//	runs [DIR]                   the runs in a directory
//	show RUN TASK                one transcript as a person reads it
//	compare OLD.json NEW.json    two reports per model and class, with significance
//	trend REPORT.json...         headline numbers across reports in date order
//	version                      the harness version
//
// Every command prints its flags and examples with -h; the sections below
// are the full reference (`go doc ./cmd/harness` prints them), and a test
// holds them to the commands and flags the binary has.
//
// Shared flags mean the same everywhere: --corpus and --instructions name
// the data directories (the embedded copies stand in only for ./corpus and
// ./instructions when those do not exist; any other directory that does
// not exist is an error), --config the configuration file (built-in
// defaults when ./harness.yaml does not exist), --reports (run) and --out
// (rescore) the directory of reports.
//
// Environment: the harness reads four variables, and no other.
// `OPENROUTER_API_KEY` is the key sent to online models, required for any
// model not named offline/... (those answer in process and need none of
// these); it may instead be an `OPENROUTER_API_KEY=...` line of a `.env`
// file in the working directory (`export` and quotes allowed), the
// environment winning, and the harness never writes it anywhere.
// `OPENROUTER_BASE_URL` is the API root when --base-url is not given (a
// run through a root other than OpenRouter's gates only when
// gating.api_roots lists it). `HARNESS_SEAL_KEY`, when set, seals a run's
// archive when its requests are done (runs/<run-id>/seal.json, an HMAC over
// every file of the run), and rescore and --resume verify the seal and
// refuse an archive whose seal breaks; without it an archive is unsealed,
// and the report's integrity says so. `CI`, when set and not empty, keeps
// --progress auto to one line per job even on a terminal, for CI logs.
// `GOMEMLIMIT`, when set (`off` included), replaces the soft memory limit
// of 100 MiB that run and rescore keep to otherwise (docs/reports.md).
//
// Files: run writes runs/<run-id>/ (run.json, the manifest, and one
// content-hashed transcript per request) and reports/<run-id>.json, .md,
// .html, .csv and .junit.xml.
//
// Exit codes: 0 success or a passing verdict; 1 a negative result (an
// invalid document, a failing verdict, an id mismatch); 2 the command
// could not run (usage, configuration, I/O, an interrupted run).
//
// # CLI reference
//
//	go run ./cmd/harness <command> [flags]      (or make and use bin/harness)
//
//	run [flags]                    run the tasks against the models, judge class A, score, write the
//	                               report
//	rescore RUN                    recompute every score and the report from archived transcripts,
//	                               offline; RUN is a run directory or its id in runs/, as for show
//	                               and run --resume
//	compare A.json B.json          per model and class: old → new median and P95, and the lossless
//	                               share, with significance (--format text|md|json); refuses reports
//	                               of different suites
//	runs [--wide] [DIR]            list the runs in DIR (runs/): id, start, suite, models, verdict,
//	                               state (running while a process holds it, refused when every
//	                               request failed for good), cost; fits 120 columns, the run id
//	                               whole, --wide prints every field whole; --reconcile RUN prices
//	                               the attempts of unknown cost (GET /generation) within the run's
//	                               timeouts.reconcile; a sealed run needs HARNESS_SEAL_KEY, and is
//	                               re-sealed
//	show RUN TASK [--model M]      print one transcript: instruction, expected → produced diff,
//	                               diagnostics, judge votes, cost, and its attempts when retried or
//	                               interrupted
//	trend [--html F] REPORT...     per model, suite and class: the headline numbers across reports
//	                               in date order, each change marked
//	score --task FILE --output F   score one raw model answer (- reads stdin): drift, components,
//	                               edit compliance, lossless, residual, unrequested changes; FILE
//	                               may be a gating, natural (aligned), inverse or size-ladder task
//	                               (<rung>.tasks.json with --id), or a .bend.json document for its
//	                               produce task (--id p: JSON from the projection; --id r: the
//	                               projection, parsed back)
//	expect --task FILE             print the expected document of a class B/C, P or R task of any of
//	                               those kinds
//	corpus check                   check the 20 documents, the 60 tasks, their gold edits, their 40
//	                               inverses and the §8.2 table
//	corpus ladder --out DIR        build the size ladder: documents of about 8, 32, 128 and 512 KB
//	                               with edits at start, middle, end
//	corpus sensitivity             what each threshold lets through: canonical losses scored against
//	                               the configured thresholds
//	judge calibrate --models M,...  run judges on the hand-labelled answers: accuracy and agreement
//	                                (kappa)
//	validate FILE...               check .bend files: FILE: ok or every error; exit 0 all valid, 1
//	                               any invalid, 2 usage or a file that cannot be read
//	id [--check|--write] FILE...   print FILE<TAB>CID; --check exits 1 on a stale declared id;
//	                               --write rewrites the id (and self-references naming the old id)
//	                               in place
//	project [--parse] FILE         render a .bend file as the harness's text projection
//	                               (docs/projection.md); --parse reads a projection back into .bend
//	                               JSON, its id computed
//	version                        print the harness version
//
// Every command prints its flags and examples with `-h`.
//
// # harness run
//
//	harness run                                    # the gating run: harness.yaml's models, judged
//	                                               # by each other
//	harness run --dry-run                          # preflight only: check models, print jobs,
//	                                               # tokens and estimated cost
//	harness run --models a/x,b/y --judges c/z      # an informational run on other models
//	harness run --repeats 3                        # each job 3 times (seeds seed..seed+2) to
//	                                               # measure inter-run noise
//	harness run --resume runs/20261122T101500Z     # finish an interrupted run: only jobs without a
//	                                               # successful transcript
//	harness run --tasks 03-b,17-* --summary        # part of the work (a partial run), the Markdown
//	                                               # report printed too
//	harness run --dry-run --max-cost 20            # the estimate (answers and judge votes) against
//	                                               # a spending cap
//	harness run --max-cost 20                      # stop before spending more than about $20;
//	                                               # resume with a higher cap
//
//	| flag | default | meaning |
//	|---|---|---|
//	| `--config FILE` | `harness.yaml` | the configuration (models, judges, parameters, concurrency,
//	    timeouts, retries, thresholds, weights) |
//	| `--models a,b,c` | the configuration's | answering models; `offline/oracle`,
//	    `offline/identity`, `offline/noisy` work anywhere a model does (and `offline/rare-slip`,
//	    exact but for one large slip per chain: see *Delegation* in docs/suites.md) |
//	| `--judges a,b` | the panel | fixed judge list (`offline/judge` decides by the grounding checks
//	    alone) |
//	| `--repeats N`, `--seed S` | the configuration's (`repeats: 1`, `seed: 20260427`) | repeats per
//	    job, 1 to 1000; repeat r uses seed S+r |
//	| `--per-model N`, `--global N` | 6, 18 | requests in flight per model and in all, at least 1; a
//	    judge's votes count against its model's budget together with its answers |
//	| `--out DIR`, `--reports DIR` | `runs`, `reports` | where run directories and reports go |
//	| `--run-id ID` | the UTC start time to the millisecond and a random suffix
//	    (`20261122T101500.123Z-3f9a`) | the run directory's name: one path element of letters,
//	    digits, `.`, `-`, `_` |
//	| `--resume DIR` | | resume that run: its manifest fixes the models, tasks, configuration,
//	    corpus, instructions and reports directory (said aloud); a flag that contradicts it is
//	    refused (`--per-model`, `--global`, `--progress` may change). The API root is never taken
//	    from the manifest: the resume sends to `--base-url` (else `$OPENROUTER_BASE_URL`, else
//	    OpenRouter) and is refused when the run recorded another; the interrupted run's printed
//	    command names it |
//	| `--dry-run` | | preflight, then stop |
//	| `--no-preflight` | | skip the model-list check (servers without `/models`) |
//	| `--base-url URL` | `$OPENROUTER_BASE_URL`, else OpenRouter | any OpenAI-compatible API root
//	    (vLLM, llama.cpp, a local test server) |
//	| `--progress MODE` | `auto` | `bars` (one live line per model), `lines` (one line per job, for
//	    CI logs), `none`. Each shows done/total per model: the total is the jobs planned before the
//	    run (answers, relay steps, judge votes) and never grows; a chain that ends early takes its
//	    later steps off it, and a class A answer that brings no vote (an API error, no valid answer)
//	    its votes, so a finished run ends at done = total; feedback rounds, which no plan can count,
//	    show beside it as `+N extra` |
//	| `--corpus DIR`, `--instructions DIR` | `corpus`, `instructions`, else the embedded ones |
//	    another corpus or task set; only the default names fall back to the embedded data: any other
//	    directory that does not exist is refused |
//	| `--suite S` | `gating` | `gating` (§8: the verdict), `natural` (the same changes asked for as
//	    an editor would), `size` (the size ladder), `relay` (chains of edits), `produce` (each
//	    document written as `.bend` from its text projection, and as the projection; see *The
//	    produce suite* in docs/suites.md), `delegate` (round trips drawn from each document's pool
//	    of reversible edits, RS@k; see *Delegation* in docs/suites.md), `all` (gating, natural and
//	    relay; the gating verdict) |
//	| `--rungs 8k,32k,...` | `8k,32k,128k,512k` | the size suite's rungs (with `--suite delegate`:
//	    one chain per rung instead of per document), each at most `2m` (memory grows with the rung:
//	    2 MiB rungs with two models × three formats peak at 1.1 GB) |
//	| `--steps K` | 8 | the relay's steps per chain, 1 to 99 |
//	| `--round-trips R` | 10 | the delegate suite's round trips per chain, 1 to 50 (2R interactions:
//	    20 calls per document per model at the default) |
//	| `--formats F,...` | `document` | answer formats of class B and C tasks: `document`,
//	    `json-patch`, `bend-ops`, `search-replace`, each scored and reported apart (see *Answer
//	    formats* in docs/suites.md); a gating run must include `document`, its verdict |
//	| `--feedback N` | 0 | feedback rounds, 0 to 3: a class B/C answer that does not parse, apply or
//	    validate is asked again in the same conversation, told only its mechanical failure, up to N
//	    times; the last round is scored, the first try reported beside it (see *Feedback rounds* in
//	    docs/suites.md) |
//	| `--tasks IDS`, `--classes a,b,c`, `--docs NN,...`, `--limit N` | the whole suite | run part of
//	    the suite: task ids and globs (`03-b,17-*`), classes, documents (numbers, names or globs),
//	    at most N tasks in id order (a relay chain counts as one, and is kept whole). A selected run
//	    is partial in every report and never gives the gating verdict `pass` |
//	| `--max-cost USD` | the configuration's `max_cost`, else no cap | the spending cap: no new
//	    request whose estimate, added to the known cost and the estimates of the requests in flight,
//	    would cross it (a request costing more than its estimate can still go past it); the run then
//	    stops incomplete (exit 2) and prints its `--resume` command with the cap it suggests: the
//	    known cost plus the estimate of the work left, at the listed prices (twice the old cap when
//	    no price is listed) |
//	| `--summary` | off | also print the whole Markdown report (it is always written to
//	    `reports/<run-id>.md`) |
//	| `--format text\|json` | `text` | `json` prints the JSON report on stdout and the notes on
//	    stderr |
//
// A run ends, whatever the suite, with three lines: the verdict (with its
// failure count), then the paths of the HTML and the JSON reports, so that
// the verdict is the last thing on the screen; the Markdown report stays in
// its file unless `--summary` asks for it on the terminal too. A run whose
// thresholds or weights differ from §8.5/§8.4 says "custom" wherever they
// show (the threshold table, each failure's `source`, the report's `custom`
// list and a warning), and never calls its verdict §8.5's; weights must sum
// to 1. The informational suites (natural, size, relay, produce, delegate) end with
// `complete (informational)` or `incomplete (informational)`, never PASS
// (exit 0 only when complete).
//
// Before any paid request the run checks everything that could keep it from
// finishing: the key, two models sharing a transcript directory, judges that
// cannot judge, class A answers nobody else could judge (one model with the
// default panel: pass `--judges`), and, in the preflight, the key and its
// credit (`/key`), every model id against the provider's model list and the
// models this account can route (`/models/user`), and pinned providers
// against the model's endpoints. The preflight prints, per model, the jobs,
// the estimated tokens (reasoning and cache included) and cost and what
// they stand on (the same model's answers in earlier runs of the `--out`
// directory, or the listing's assumption), what determinism and request
// policy it sends, and the jobs the model's maximum output caps or rules
// out; `--dry-run` does the same checks and stops (see docs/running.md,
// "How the estimate is made"). The report states what the whole night
// cost, as `harness runs` counts it.
//
// # Determinism per model
//
// §8.7 asks for `temperature: 0` and a fixed seed *where supported*.
// OpenRouter's model list says per model which parameters it takes
// (`supported_parameters`) and silently drops the others, and some vendors
// ignore what the listing still names. So a control is sent only where the
// vendor honours it, and run.json and the report say why not elsewhere:
// Claude Opus 4.7 and later ignore `temperature` (not sent) and list no
// `seed`; OpenAI's GPT-5 models take `seed` but no `temperature`; Gemini 3
// gets `temperature: 1.0`, its default, because Google warns that lower
// values may loop. The model stays a valid gating model. `run.json`
// (`determinism`, `policies`) and the report (`results.<model>.determinism`,
// the Markdown "Models" table, the warnings) record per model what was sent
// and why the rest was not; a model lacking either control gives numbers
// that are not reproducible call for call: `--repeats N` measures that
// noise. Offline models are deterministic; with `--no-preflight` both
// controls are sent, unchecked.
//
// Per-model settings in `harness.yaml` (`model_settings`): `max_tokens` (the
// output budget; reasoning tokens count against it), `reasoning` (`effort`,
// `max_tokens` or `enabled`, OpenRouter's reasoning object) and `provider`
// (`only`, `ignore`, `order`, `allow_fallbacks`, `require_parameters`) to
// pin the upstream provider. The report lists which provider served each
// model's answers and warns when there was more than one; an answer cut off
// at the budget is reported as "ran out of budget while reasoning" (mostly
// reasoning tokens) or as truncated output.
//
// # Prompt caching
//
// Every answer request is the system primer, then the document, then the
// task, so the three tasks of a document share a byte-identical prefix. A
// document's class A task is sent first; its B and C tasks (and the class A
// answer's judge votes) join the queue when it is archived, so the prefix is
// written to the provider's cache once and read twice. OpenAI and Gemini
// cache long prefixes by themselves; for Anthropic models the document is its
// own content part marked `cache_control: {"type": "ephemeral"}`. The
// report's "cached" column shows the share of prompt tokens served from the
// cache; the preflight prices the cacheable prefixes at the listing's
// `input_cache_read` price when it gives one. 429, 5xx, transport errors
// and silent streams are retried with exponential backoff and jitter,
// honouring `Retry-After`/`retry-after-ms`; a bad key, exhausted credit or an
// unknown model stop that model's remaining jobs at once, and an error about
// one request (a refusal, a moderation block) fails that job alone ("What an
// OpenRouter error does to a run" in docs/reliability.md). A call
// that fails after its retries is recorded as an error transcript: it is
// counted (and makes the run incomplete), never scored as drift. After a fatal
// error the calls already in flight finish and are archived (they were sent);
// jobs not yet sent are archived as `skipped`, with no attempt and a cost of
// 0. Ctrl-C (or SIGTERM) closes the streams in flight (archived as
// `interrupted`), or cancels the score phase and the report writing, keeps
// every finished transcript and prints the
// `--resume` command (exit 2); a second Ctrl-C ends the harness at once.
// `retries.max` is at most 20, `backoff_base` from 100 ms to 10 min, and
// `backoff_max` from the base to 10 min. The harness's own bookkeeping
// never holds a run up: each call for its accounting (`GET /generation`,
// `/key`, the listings, the endpoints) is bounded by `timeouts.bookkeeping`
// (default 20 s, at most 2 retries), and the end-of-run reconcile of the
// attempts of unknown cost by `timeouts.reconcile` (default 60 s in all);
// what it cannot price stays unknown, and the report says which and why.
// Numeric flags take decimal digits only (`--round-trips 0x10` is refused).
// With `HARNESS_SEAL_KEY` a run is sealed and `run.json` says so: a
// rescore or resume of a run whose `seal.json` is gone exits 2 with the
// key and warns first without it, and a sealed run is resumed or
// reconciled only with the key (docs/reliability.md). Judge votes are runner jobs like
// answers: each class A answer's votes join the queue as soon as it is
// archived, so judging overlaps answering, and they show in the progress
// output (`offline/judge judges offline/oracle 03-a r0`).
//
// # Exit codes
//
//	| code | `run`, `rescore` | `compare` and the other commands |
//	|---|---|---|
//	| 0 | verdict pass | success |
//	| 1 | verdict fail (a threshold, or an incomplete run) | a negative result (invalid file, stale
//	    id, failing check) |
//	| 2 | could not run: usage, configuration, no key, I/O, a transcript that does not match its
//	    hash or its slot, a corpus or configuration that differs from the run's, a run another
//	    process holds, a resume against another API root than the run's; an interrupted run (Ctrl-C,
//	    a full disk), one stopped at its spending cap, one stopped because the account ran out of
//	    credit or rate limits outlasted the retries, after printing its `--resume` command | could
//	    not run (usage, I/O: a missing file or a directory, an unreadable report, reports of
//	    different suites) |
//
// CI (`.ci/run`) installs Debian's `chromium` when no Chromium is found, for
// the viewer's browser test; without it that test skips. `go test` prints a
// skip only with `-v`, so `make test` prints the browser test's status line
// itself (`browser test: ran` or `browser test: SKIP ...`).
package main
