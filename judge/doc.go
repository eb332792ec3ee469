// Package judge decides class A answer faithfulness (§8.3, §8.4): "a binary
// judgment by a separate LLM judge on whether the answer references real
// content in d". Judges are where evaluation harnesses are least
// trustworthy, so every part of a judgment is fixed, recorded and
// recomputable.
//
// # Who judges
//
// An answer is never judged by the model that gave it ([model.SameWeights] ignores
// OpenRouter variant suffixes). By default each answer is judged by the
// other gating models, a cross-vendor panel; a fixed judge list may replace
// it ([Config].Fixed), still without the answerer ([Panel]). The panel's
// decision ([Decide]) with f faithful and u unfaithful valid votes is
//
//	faithful = f > u
//
// so a tie and the absence of any valid vote are unfaithful. A judge that
// fails, refuses or replies with something that is not a vote is a judge
// error: counted, recorded, and given no weight.
//
// # What a judge is asked
//
// The document, the question, the evidence ids the answer cites, and the
// answer verbatim in a message of its own ([BuildRequest]), at temperature
// 0 with a fixed seed, asking for structured output
// {"faithful": bool, "quotes": [string], "reason": string} ([VoteSchema]).
// Replies are read tolerantly ([ParseVote]): bare, fenced or wrapped in
// prose. The template is embedded and versioned ([PromptVersion]); its
// sha256 is recorded in every judge transcript.
//
// # Checks that need no model
//
// Beside every verdict, [Ground] records whether each evidence id the
// answer cites exists in the document, and whether each quote a judge
// gives occurs in the document's text; a vote with a quote that does not
// is flagged ungrounded. These checks never change the decision: they are
// shown next to it, so that a judge that invents its support is visible.
//
// # Transcripts and rescoring
//
// Each vote is a runner job (jobs.JudgeVotes, from [Config.Record] and
// [Config.CallOn]); the runner stores it as a judge transcript beside the
// task transcripts (transcript.Write: atomic, content-hashed), keeping on
// resume a vote already written for the same answer ([Config.Current]). [VerdictFrom] recomputes a verdict from the answer
// and judge transcripts alone, with no model call; the score phase and
// rescore both use it, so a fresh report and a rescored one cannot differ.
//
// # The offline judge and calibration
//
// [Offline] ("offline/judge") is a judge that decides by the grounding
// checks alone: faithful when the answer parses, cites at least one id,
// and every cited id exists. It cannot tell a true claim from an invented
// one that cites a real passage. A calibration asks judges about the
// hand-labelled answers of testdata/calibration ([CalibrationSet]): the
// package builds the calls ([CalibrationCalls]), the runner sends them as
// it sends a run's votes (pipeline.Calibrate), and [Calibration] reports
// accuracy per judge, per label and for the panel, and agreement between
// judges: Cohen's κ for two ([CohenKappa]), Fleiss' κ for three or more
// ([FleissKappa]).
package judge
