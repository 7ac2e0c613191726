"""The ``irnb`` command.

``irnb evaluate QRELS RUN... -m MEASURE...`` evaluates runs like trec_eval (plus a run
column); ``irnb report QRELS RUN... -m MEASURE...`` writes the comparison table for a
paper; ``irnb trec_eval [options] QRELS RUN`` is a drop-in for trec_eval 10.0
(its options, its output line for line; :mod:`irnb.trec_eval`); ``irnb lab`` opens
JupyterLab on the teaching notebooks. Errors go to stderr with exit status 2 and no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .params import (ALPHA, BACKGROUND_RATE, COMPLETE, CONFIDENCE, CORRECTION, ESTIMATOR, N_RESAMPLES, PAIRED_TEST,
                     POOL_DEPTH, RELEVANCE_LEVEL, REPORT_FORMAT, RUN_DEPTH, SEED, SMOOTHING, STRATEGY, SUGGESTIONS,
                     TEST, add_option)

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own errors: exit 2, no traceback (as argparse)
        self.print_usage(sys.stderr)
        self.exit(2, f"irnb: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="irnb", description="IR evaluation with incomplete judgments")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ev = sub.add_parser("evaluate", help="evaluate runs against qrels (trec_eval-compatible)",
                        description="Evaluate runs like trec_eval: one line per run, measure and topic.")
    ev.add_argument("qrels", help="qrels file (plain or .gz)")
    ev.add_argument("runs", nargs="+", help="run files, directories of runs, or .tar/.tar.xz archives")
    ev.add_argument("-m", "--measure", action="append", dest="measures", default=None,
                    help="measure, e.g. P@10, AP, nDCG@20, map, P_10 (repeatable; default: a standard set)")
    ev.add_argument("-q", "--per-topic", action="store_true", help="print per-topic values as well as 'all'")
    add_option(ev, "-c", "--complete", param=COMPLETE,
               help="average over every qrels topic, scoring unanswered topics as empty rankings")
    add_option(ev, "-l", "--relevance-level", param=RELEVANCE_LEVEL, metavar="LEVEL",
               help="grade ≥ LEVEL is relevant (default 1)")
    add_option(ev, "-M", "--max-depth", param=RUN_DEPTH, metavar="DEPTH",
               help="run depth: use only the top DEPTH documents of each run")
    ev.add_argument("-J", "--judged-only", action="store_true",
                    help="condensed lists: drop documents not in the qrels before ranking")
    ev.add_argument("--keep-first", action="store_true",
                    help="keep the first occurrence of a docno repeated within a topic (default: error)")
    ev.add_argument("--compat", choices=("9", "10"), default="9",
                    help="trec_eval version to follow: 9 (default: 32-bit scores, as pytrec_eval, ir_measures and "
                         "published leaderboards) or 10 (trec_eval 10.0: doubles)")
    ev.add_argument("--format", choices=("trec", "csv", "json"), default="trec",
                    help="trec: run<TAB>measure<TAB>topic|all<TAB>value (4 decimals); csv/json: full precision")
    pool = ev.add_argument_group("simulated pools and score intervals")
    add_option(pool, "--pool-depth", param=POOL_DEPTH, dest="pool_depth", default=None, metavar="D",
               help="evaluate against a simulated pool: the qrels restricted to the top D of the pool runs")
    pool.add_argument("--pool-runs", nargs="+", default=None, metavar="RUN",
                      help="runs whose top D form the pool (default: all runs given)")
    pool.add_argument("--intervals", action="store_true",
                      help="add lower, upper and residual columns for P@k, RBP(p) and SDCG@k")
    add_option(pool, "--estimator", param=ESTIMATOR, default=None, help="add a " + ESTIMATOR.doc)
    add_option(pool, "--E", param=BACKGROUND_RATE, default=None, metavar="VALUE",
               help=f"background rate E: probability that an unjudged document is relevant "
                    f"(default {BACKGROUND_RATE.default})")
    add_option(pool, "--lambda", param=SMOOTHING, type=str, default=None, metavar="VALUE|auto",
               help=f"smoothing λ for estimator M: {SMOOTHING.describe()}")
    ev.set_defaults(func=_cmd_evaluate)

    cmp_ = sub.add_parser("compare", help="all-pairs significance tests and the decision matrix",
                          description="Test every pair of runs on a measure and on its assessment measure "
                                      "(Judged@k, or MAA for AP) and classify each pair into the decision "
                                      "matrix's cases 1-4 (Baillie et al.). Default test: the papers' ANOVA "
                                      "over all runs + Bonferroni multiple comparisons (one-way, alpha = 0.05: "
                                      "irnb's reading; the papers name neither).")
    cmp_.add_argument("qrels", help="qrels file (plain or .gz)")
    cmp_.add_argument("runs", nargs="+", help="run files, directories of runs, or .tar/.tar.xz archives")
    cmp_.add_argument("-m", "--measure", required=True, help="measure at depth k, e.g. P@10, P@100, AP")
    add_option(cmp_, "--test", param=TEST, help=f"{TEST.doc} (default {TEST.default})")
    add_option(cmp_, "--alpha", param=ALPHA, help=f"significance level (default {ALPHA.default})")
    cmp_.add_argument("--assessment", default=None, metavar="FAMILY",
                      help="assessment measure: a name used as given (MAA, Judged@100) or a family that "
                           "needs a depth (Judged, JudgedRet, NotUnj, Unj), taken at the measure's "
                           "(default: Judged@k, MAA for AP)")
    add_option(cmp_, "--seed", param=SEED, help="seed for the randomization test (default 0)")
    cmp_.add_argument("--keep-first", action="store_true",
                      help="keep the first occurrence of a docno repeated within a topic (default: error)")
    cmp_.add_argument("--format", choices=("trec", "csv", "json"), default="trec",
                      help="trec: tab-separated, 4 decimals; csv/json: full precision")
    cmp_.set_defaults(func=_cmd_compare)

    sim = sub.add_parser("simulate", help="write the simulated TREC-like collection (runs, qrels, truth)",
                         description="Write a seeded simulated TREC-like test collection with complete truth.")
    _configure_simulate(sim)
    sim.set_defaults(func=_cmd_simulate)

    jn = sub.add_parser("judge-next", help="which unjudged documents to judge next (qid docno lines)",
                        description="Print the unjudged documents whose judgments best decide the run "
                                    "comparisons, most useful first, as 'qid docno' lines.")
    _configure_judge_next(jn)
    jn.set_defaults(func=_cmd_judge_next)

    te = sub.add_parser("trec_eval", help="a drop-in for trec_eval 10.0 (same options, same output)",
                        description="irnb trec_eval [trec_eval options] QRELS RUN: prints what trec_eval 10.0 "
                                    "prints; see `irnb trec_eval -h`.", add_help=False)
    te.add_argument("args", nargs=argparse.REMAINDER, help="trec_eval's options and files")
    te.set_defaults(func=_cmd_trec_eval)

    rep = sub.add_parser("reproduce", help="reproduce a table or figure of the seed papers",
                         description="Reproduce a table or figure of the five papers irnb teaches (Baillie et "
                                     "al. 2007/2008, Büttcher et al. 2007, Ravana & Moffat 2010, the thesis "
                                     "chapter) on the embedded default collection or on your runs and qrels.")
    _configure_reproduce(rep)
    rep.set_defaults(func=_cmd_reproduce)

    rpt = sub.add_parser("report", help="the comparison table for a paper (means, CIs, significance, effect sizes)",
                         description="One table: each run's mean per measure with a seeded bootstrap confidence "
                                     "interval, significance against a baseline (or letter groups) after a "
                                     "multiple-comparison correction, effect sizes d_z, the best value in bold, "
                                     "and Judged@k when judgments are incomplete.")
    _configure_report(rpt)
    rpt.set_defaults(func=_cmd_report)

    lab = sub.add_parser("lab", help="open JupyterLab on a working copy of the teaching notebooks",
                         description="Copy the teaching notebooks to a working folder and run JupyterLab on the "
                                     "first one; Ctrl-C or SIGTERM stops the server. Options after -- go to "
                                     "JupyterLab, e.g. irnb lab -- --port 9999.")
    lab.add_argument("--dir", default=None, help="where to put the working copy (default: ./irnb-notebooks)")
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")
    lab.add_argument("--binder", action="store_true", help="print the Binder links (JupyterLab, Voila) and exit")
    lab.add_argument("jupyter_args", nargs="*", metavar="-- JUPYTER_OPTION",
                     help="options passed to JupyterLab unchanged (after --)")
    lab.set_defaults(func=_cmd_lab)
    return parser


DEFAULT_MEASURES = ("num_ret", "num_rel", "num_rel_ret", "AP", "Rprec", "Bpref", "RR", "P@5", "P@10", "P@20",
                    "nDCG", "nDCG@10", "Judged@10")


def _format_value(measure, value: float, digits: int | None) -> str:
    if measure.spec.aggregate == "sum":
        return str(int(round(value)))
    return f"{value:.{digits}f}" if digits is not None else repr(float(value))


def _cmd_evaluate(args) -> int:
    import warnings

    from .experiment import Experiment, MissingTopicsWarning
    from .measures import parse_measures

    _check_pool_options(args)
    measures = parse_measures(args.measures or DEFAULT_MEASURES)
    experiment = Experiment(args.runs, args.qrels, on_duplicate="keep_first" if args.keep_first else "error",
                            compat=args.compat)
    with warnings.catch_warnings():  # said once per run below, in the CLI's own words
        warnings.simplefilter("ignore", MissingTopicsWarning)
        _evaluate_and_print(args, experiment, measures)
    for run, topics in experiment.ignored_topics.items():
        print(f"irnb: note: run {run!r}: {len(topics)} topic(s) not in the qrels were not evaluated "
              f"({', '.join(t if len(t) <= 40 else t[:40] + '…' for t in topics[:5])}"
              f"{'…' if len(topics) > 5 else ''})", file=sys.stderr)
    _warn_missing_topics(experiment, complete=args.complete and not (args.intervals or args.estimator))
    return 0


def _warn_missing_topics(experiment, *, complete: bool) -> None:
    """On stderr, for (at most 10) runs that do not answer every qrels topic, what the mean
    does with the topics they miss (MissingTopicsWarning's words, with the CLI's -c)."""
    from .experiment import missing_topics_note

    missing = list(experiment.missing_topics.items())
    for run, topics in missing[:10]:
        note = missing_topics_note(run, topics, len(experiment.topics), complete=complete)
        note = note.replace("complete=True (trec_eval -c)", "-c").replace("complete=True, trec_eval -c", "-c")
        print(f"irnb: warning: {note}", file=sys.stderr)
    if len(missing) > 10:
        print(f"irnb: warning: … and {len(missing) - 10} more runs that do not answer every qrels topic "
              f"({len(missing)} of {len(experiment.run_names)} runs)", file=sys.stderr)


def _evaluate_and_print(args, experiment, measures) -> None:
    from .metrics import evaluate

    pool = None
    if args.pool_depth is not None:
        from .pooling import depth_pool

        pool = depth_pool(experiment, depth=args.pool_depth, runs=args.pool_runs or list(experiment.run_names))
    extra: list[str] = []
    if args.intervals or args.estimator:
        from .intervals import interval_table

        smoothing = None if args.smoothing is None else SMOOTHING.parse(args.smoothing, None, label="--lambda")
        frame = interval_table(
            experiment, measures, pool=pool, estimator=args.estimator,
            background_rate=BACKGROUND_RATE.default if args.background_rate is None else args.background_rate,
            smoothing="auto" if smoothing is None else smoothing,
        )
        if not args.per_topic:
            frame = frame[frame["topic"] == "all"]
        extra = (["lower", "upper", "residual"] if args.intervals else []) + (["estimate"] if args.estimator else [])
        frame = frame[["run", "topic", "measure", "value", *extra]]
    else:
        ev = evaluate(experiment, measures, relevance_level=args.relevance_level, complete=args.complete,
                      max_depth=args.max_depth, judged_only=args.judged_only,
                      judged=None if pool is None else pool.judged)
        frame = ev.to_frame(per_topic=args.per_topic)
        # as trec_eval prints them: num_q and the geometric means (gm_map, gm_bpref) only for 'all'
        all_only = {m.name for m in measures if m.family == "num_q" or m.spec.aggregate == "gmean"}
        frame = frame[~(frame["measure"].isin(all_only) & frame["topic"].ne("all"))]
    frame = frame.sort_values(["run", "measure"], kind="stable")
    if args.format == "trec":
        lines = []
        order = {m.name: i for i, m in enumerate(measures)}
        frame = frame.assign(_m=frame["measure"].map(order), _all=frame["topic"].eq("all"))
        frame = frame.sort_values(["run", "_all", "topic", "_m"], kind="stable")
        by_name = {m.name: m for m in measures}
        columns = [frame[c] for c in ["run", "measure", "topic", "value", *extra]]
        for run, measure, topic, value, *more in zip(*columns, strict=True):
            cells = [run, measure, topic, _format_value(by_name[measure], value, 4)]
            cells += ["-" if v != v else f"{v:.4f}" for v in more]
            lines.append("\t".join(cells))
        sys.stdout.write("\n".join(lines) + "\n")
    elif args.format == "csv":
        frame.to_csv(sys.stdout, index=False, float_format="%.17g")
    else:
        records = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")  # NaN → null
        json.dump(records, sys.stdout, indent=1, allow_nan=False)
        sys.stdout.write("\n")


def _check_pool_options(args) -> None:
    """Reject flag values and combinations that have no meaning, before any file is read;
    messages name the flag."""
    RELEVANCE_LEVEL.validate(args.relevance_level, None, label="-l (relevance level)")
    if args.max_depth is not None:
        RUN_DEPTH.validate(args.max_depth, None, label="-M (run cutoff)")
    if args.pool_depth is not None:
        POOL_DEPTH.validate(args.pool_depth, None, label="--pool-depth (pool depth d)")
    if args.background_rate is not None:
        BACKGROUND_RATE.validate(args.background_rate, None, label="--E (background rate E)", wording="satisfy")
    if args.smoothing is not None:
        SMOOTHING.validate(SMOOTHING.parse(args.smoothing, None, label="--lambda"), None,
                           label="--lambda (smoothing λ)", wording="satisfy")
    if args.pool_runs and args.pool_depth is None:
        raise ValueError("--pool-runs needs --pool-depth D (the depth of the simulated pool)")
    if (args.background_rate is not None or args.smoothing is not None) and not args.estimator:
        raise ValueError("--E and --lambda set a point estimator's parameters; add --estimator S|B|I|M")
    if args.smoothing is not None and args.estimator != "M":
        raise ValueError(f"--lambda (smoothing λ) applies to estimator M only, got --estimator {args.estimator}")
    if args.intervals or args.estimator:
        clash = [flag for flag, on in (("-c", args.complete), ("-J", args.judged_only),
                                       ("-M", args.max_depth is not None), ("-l", args.relevance_level != 1)) if on]
        if clash:
            raise ValueError(f"--intervals/--estimator cannot be combined with {', '.join(clash)}: "
                             "intervals are defined on full rankings at relevance level 1")


def _configure_simulate(parser) -> None:
    from .datasets.params import configure_simulate_parser

    configure_simulate_parser(parser)


def _cmd_simulate(args) -> int:
    from .datasets.files import run_simulate

    return run_simulate(args)


COMPARE_TESTS = TEST.choices  # = irnb.stats.TESTS: both read the one declaration
COMPARE_COLUMNS = ["run_a", "run_b", "measure", "assessment", "mean_diff", "p_measure", "assessment_diff",
                   "p_assessment", "case", "strength", "better", "more_assessed"]


def _cmd_compare(args) -> int:
    import warnings

    from .decision import compare_table
    from .stats import TEST_OPTIONS
    from .experiment import Experiment, MissingTopicsWarning, missing_topics_note

    ALPHA.validate(args.alpha, None, label="--alpha", wording="satisfy")
    SEED.validate(args.seed, None, label="--seed")
    experiment = Experiment(args.runs, args.qrels, on_duplicate="keep_first" if args.keep_first else "error")
    if len(experiment.run_names) < 2:
        raise ValueError(f"compare needs at least two runs, got {len(experiment.run_names)}")
    options = {"seed": args.seed} if "seed" in TEST_OPTIONS[args.test] else {}
    with warnings.catch_warnings():  # said below, in the CLI's own words
        warnings.simplefilter("ignore", MissingTopicsWarning)
        table = compare_table(experiment, args.measure, test=args.test, alpha=args.alpha,
                              assessment=args.assessment, **options)
    for run, topics in list(experiment.missing_topics.items())[:10]:
        note = missing_topics_note(run, topics, len(experiment.topics), complete=False,
                                   consequence="left out of its pairs' tests (a pair is tested on the topics both runs "
                                               "answer)")
        print(f"irnb: warning: {note}", file=sys.stderr)
    about = table.attrs
    if args.format == "trec":  # a header line says what produced the table
        sys.stdout.write(f"# {about['measure']} with {about['assessment']}: {about['procedure']}\n")
    else:  # csv and json: every row says it
        table = table.assign(test=about["test"], correction=about["correction"], alpha=about["alpha"])
    table = table[COMPARE_COLUMNS + ([] if args.format == "trec" else ["test", "correction", "alpha"])]
    if args.format == "trec":
        sys.stdout.write("\t".join(COMPARE_COLUMNS) + "\n")
        for row in table.itertuples(index=False):
            cells = [f"{v:.4f}" if isinstance(v, float) else ("-" if v is None else str(v)) for v in row]
            sys.stdout.write("\t".join(cells) + "\n")
    elif args.format == "csv":
        table.to_csv(sys.stdout, index=False, float_format="%.17g")
    else:
        records = table.astype(object).where(table.notna(), None).to_dict(orient="records")
        json.dump(records, sys.stdout, indent=1)
        sys.stdout.write("\n")
    return 0


def _configure_judge_next(parser) -> None:
    parser.add_argument("qrels", help="qrels file: the judgments so far (documents it lists with grade ≥ 0 are judged)")
    parser.add_argument("runs", nargs="+", metavar="run", help="run files, directories or archives")
    add_option(parser, "-n", param=SUGGESTIONS, help=f"how many documents to print (default {SUGGESTIONS.default})")
    parser.add_argument("-m", "--measure", default="P@10", help="P@k, RBP(p=...) or SDCG@k (default P@10)")
    add_option(parser, "--strategy", param=STRATEGY)
    add_option(parser, "-E", "--background-rate", param=BACKGROUND_RATE, default=None,
               help="chance that an unjudged document is relevant (default: estimated from the qrels)")
    parser.add_argument("--why", action="store_true", help="add the gain and the reason as a comment on each line")


def _cmd_judge_next(args) -> int:
    from .experiment import Experiment
    from .intervals import interval_measure
    from .judging import judge_next

    interval_measure(args.measure, None, "judge-next -m")  # before any file is read
    if args.background_rate is not None:
        BACKGROUND_RATE.validate(args.background_rate, None, label="-E (background rate E)", wording="satisfy")
    experiment = Experiment(args.runs, args.qrels)
    if len(experiment.run_names) < 2:
        raise ValueError(f"judge-next needs at least two runs: it suggests the documents that decide which of "
                         f"two runs scores higher, got {len(experiment.run_names)} run "
                         f"({', '.join(experiment.run_names)})")
    table = judge_next(experiment, n=args.n, measure=args.measure, strategy=args.strategy,
                       background_rate=args.background_rate)
    for row in table.itertuples(index=False):
        why = f"\t# gain {row.gain:.4f}: {row.why}" if args.why else ""
        sys.stdout.write(f"{row.topic} {row.docno}{why}\n")
    return 0


def _configure_reproduce(parser) -> None:
    parser.add_argument("id", nargs="?", help="reproduction id, e.g. baillie2007-table1 (see --list)")
    parser.add_argument("--list", action="store_true", help="print every id with its title, one per line")
    add_option(parser, "--seed", param=SEED, default=None,
               help="seed of the paper's simulated setting (without your data) and of the reproduction's own "
                    "random draws (default: 0)")
    data = parser.add_argument_group("your data (default: the paper's simulated setting)")
    data.add_argument("--qrels", default=None, metavar="FILE", help="qrels file (plain or .gz)")
    data.add_argument("--runs", nargs="+", default=None, metavar="RUN",
                      help="run files, directories of runs, or .tar/.tar.xz archives")
    data.add_argument("--groups", default=None, metavar="TSV",
                      help="run groups: a file of run<TAB>group lines, one per run ('#' lines skipped)")
    data.add_argument("--contributors", nargs="+", default=None, metavar="RUN",
                      help="the runs that contributed to the pool (default: every run)")
    data.add_argument("--manual", nargs="+", default=None, metavar="RUN", help="the runs that are manual")
    data.add_argument("--truth", default=None, metavar="FILE", help="complete (deeper) qrels to compare with")
    data.add_argument("--label", default=None, help="name of the data in the output (default: 'your data')")
    data.add_argument("--keep-first", action="store_true",
                      help="keep the first occurrence of a docno repeated within a topic (default: error)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a reproduction's own option, e.g. -o test=t -o depths=10,100 (repeatable; "
                             "irnb.reproductions() lists them)")
    parser.add_argument("--figure", default=None, metavar="FILE", help="also save the figure (png, pdf, svg)")


def _cmd_trec_eval(args) -> int:
    from .trec_eval import main as trec_eval_main

    return trec_eval_main(args.args)


def _option_value(text: str):
    """``10,100`` → (10, 100); ``0.01`` → 0.01; ``none`` → None; else the text."""
    import ast

    if text.lower() == "none":
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return tuple(value) if isinstance(value, list) else value


def _cmd_reproduce(args) -> int:
    from .papers import read_groups, reproduce, reproductions

    if args.list:
        if args.id:
            raise ValueError("--list prints every id; drop the id or --list")
        for row in reproductions().itertuples(index=False):
            sys.stdout.write(f"{row.id}\t{row.title}\n")
        return 0
    if not args.id:
        raise ValueError("reproduce needs an id (irnb reproduce --list prints them)")
    several = _several_valued_options(args.id)
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"-o/--option must be NAME=VALUE, got {item!r}")
        value = _option_value(value.strip())
        # an option that takes several values (depths=10,100) takes one as a list of one (depths=10)
        options[name.strip()] = (value,) if name.strip() in several and not isinstance(value, (tuple, type(None))) \
            else value
    figure = _figure_path(args.figure) if args.figure else None  # before anything is computed or printed
    given = [flag for flag, value in (("--groups", args.groups), ("--contributors", args.contributors),
                                      ("--truth", args.truth), ("--manual", args.manual)) if value]
    if (args.qrels is None) != (args.runs is None):
        raise ValueError("your data needs both --qrels FILE and --runs RUN... (or neither: the paper's simulated "
                         "setting)")
    experiment = None
    if args.qrels is not None:
        from .experiment import Experiment

        experiment = Experiment(args.runs, args.qrels, groups=read_groups(args.groups) if args.groups else None,
                                contributors=args.contributors, truth=args.truth,
                                on_duplicate="keep_first" if args.keep_first else "error")
        if args.manual:
            unknown = [r for r in args.manual if r not in experiment.run_names]
            if unknown:
                more = "…" if len(experiment.run_names) > 8 else ""
                raise ValueError(f"--manual: unknown run {unknown[0]!r} (the runs: "
                                 f"{', '.join(experiment.run_names[:8])}{more})")
    elif given:
        raise ValueError(f"{', '.join(given)} describe your data; add --qrels FILE --runs RUN...")
    if args.seed is not None:
        options["seed"] = args.seed  # reproduce's own seed: the setting's and the reproduction's draws
    result = reproduce(args.id, experiment, manual=args.manual, label=args.label, **options)
    if figure and result.draw is None:
        raise ValueError(f"--figure: {args.id} is a table; it has no figure (drop --figure)")
    drawn = None
    if figure:  # drawn before the table is printed: a figure that fails prints nothing
        import matplotlib

        matplotlib.use("Agg")
        import numpy as np

        drawn = np.asarray(result.figure(), dtype=object).reshape(-1)[0].figure
    sys.stdout.write(str(result) + "\n")
    if result.pool_depth is not None and result.pool_depth.warning:
        sys.stderr.write(f"warning: {result.pool_depth.warning}\n")
    if drawn is not None:
        drawn.savefig(figure, bbox_inches="tight")
        sys.stdout.write(f"figure: {figure}\n")
    return 0


def _several_valued_options(id: str | None) -> set[str]:
    """The options of reproduction ``id`` whose default is a tuple (depths, methods, fractions)."""
    import inspect

    from .papers import reproduction_ids
    from .papers.registry import REGISTRY

    if id not in reproduction_ids():
        return set()
    parameters = inspect.signature(REGISTRY[id].run).parameters.values()
    return {p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY and isinstance(p.default, tuple)}


def _figure_path(text: str):
    """``--figure FILE`` checked before anything runs: a file name with one of matplotlib's formats
    in a folder that exists and can be written."""
    import os
    from pathlib import Path

    from matplotlib.backend_bases import FigureCanvasBase

    path = Path(text)
    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    if path.is_dir() or not path.name or text.endswith(("/", os.sep)):
        raise ValueError(f"--figure: {text!r} is a folder; name a file in it, e.g. {str(path / 'figure.png')!r}")
    if path.suffix.lower().lstrip(".") not in formats or path.stem in ("", "."):
        raise ValueError(f"--figure: the file name must end in one of {', '.join('.' + f for f in formats)}, "
                         f"got {text!r}")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"--figure: folder {str(folder)!r} does not exist (for {text!r})")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"--figure: folder {str(folder)!r} cannot be written (for {text!r})")
    return path


def _configure_report(parser) -> None:
    parser.add_argument("qrels", help="qrels file (plain or .gz)")
    parser.add_argument("runs", nargs="+", help="run files, directories of runs, or .tar/.tar.xz archives")
    parser.add_argument("-m", "--measure", action="append", dest="measures", required=True,
                        help="measure, e.g. AP, P@10, nDCG@10 (repeatable)")
    parser.add_argument("--baseline", default=None, metavar="RUN",
                        help="run the others are tested against (default: all pairs, letter groups)")
    add_option(parser, "--test", param=PAIRED_TEST)
    add_option(parser, "--correction", param=CORRECTION)
    add_option(parser, "--alpha", param=ALPHA, help=f"significance level (default {ALPHA.default})")
    add_option(parser, "--confidence", param=CONFIDENCE, help="confidence level of the intervals (0.95)")
    add_option(parser, "--resamples", param=N_RESAMPLES, dest="resamples", help="bootstrap resamples (default 10000)")
    add_option(parser, "--seed", param=SEED, help="bootstrap seed (default 0)")
    add_option(parser, "-c", "--complete", param=COMPLETE,
               help="average over every qrels topic, scoring unanswered topics 0")
    parser.add_argument("--keep-first", action="store_true",
                        help="keep the first occurrence of a docno repeated within a topic (default: error)")
    add_option(parser, "--format", param=REPORT_FORMAT)


def _cmd_report(args) -> int:
    import warnings

    from .experiment import Experiment, MissingTopicsWarning
    from .reporting import report

    N_RESAMPLES.validate(args.resamples, None, label="--resamples")  # before any file is read
    experiment = Experiment(args.runs, args.qrels, on_duplicate="keep_first" if args.keep_first else "error")
    with warnings.catch_warnings():  # said below, in the CLI's own words
        warnings.simplefilter("ignore", MissingTopicsWarning)
        result = report(experiment, args.measures, baseline=args.baseline, test=args.test,
                        correction=args.correction, alpha=args.alpha, confidence=args.confidence,
                        n_resamples=args.resamples, seed=args.seed, complete=args.complete)
    sys.stdout.write(result.render(args.format))
    _warn_missing_topics(experiment, complete=args.complete)
    return 0


def _cmd_lab(args) -> int:
    from .lab import binder_url, open_lab

    if args.binder:
        print(f"JupyterLab: {binder_url('lab')}\nVoila dashboard: {binder_url('voila')}")
        return 0
    return open_lab(target=args.dir, open_browser=not args.no_browser, jupyter_args=args.jupyter_args)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["trec_eval"]:  # trec_eval's own option syntax (-mP.5, -l2, -q after files): no argparse
        from .trec_eval import main as trec_eval_main

        return trec_eval_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ImportError as err:  # an optional package (scikit-learn, matplotlib …): say which, and how to add it
        if (err.name or "irnb").split(".")[0] == "irnb":  # irnb's own module: a bug, shown as one
            raise
        from .lab import missing_package

        print(f"irnb: error: {missing_package(err.name, _command_words(args))}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"irnb: error: {_command_words(args)} ran out of memory; give it fewer runs, topics, a smaller "
              "cutoff or fewer resamples", file=sys.stderr)
        return 2
    except (ValueError, TypeError, OSError) as err:
        print(f"irnb: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        return 130


def _command_words(args) -> str:
    """``irnb reproduce buttcher2007-table6``: the command as the user named it."""
    words = ["irnb", args.command] + ([args.id] if getattr(args, "id", None) else [])
    return " ".join(words)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
