"""The comparison table a paper needs: means with bootstrap confidence intervals,
significance after a multiple-comparison correction, effect sizes, judged coverage.

:func:`report` evaluates an :class:`~irnb.experiment.Experiment` and returns a
:class:`Report`, which renders as Markdown, LaTeX, HTML or CSV (``irnb report`` on the
command line). What each cell means (written policy):

* **Mean**: the measure's aggregate as trec_eval computes it (over the topics each run
  answered, or every qrels topic with ``complete=True``; GMAP-like measures are geometric
  means). Counts summed over topics (``num_ret``…) are refused.
* **Confidence interval**: a seeded percentile bootstrap over topics. For a run with n
  evaluated topics (in topic-id string order), ``np.random.default_rng(seed).integers(0,
  n, size=(B, n))`` gives B = ``n_resamples`` resamples of its topics (the same draws for
  every run and measure with n topics, so runs are resampled in step; see
  :func:`bootstrap_ci` for very many topics); the interval is the ``(1 − c)/2`` and
  ``(1 + c)/2`` quantiles (``np.quantile``, linear) of the B resampled means, c =
  ``confidence``. Geometric means are bootstrapped on the log scale.
* **Significance**: with a ``baseline``, each other run is tested against it with a
  paired test over the topics both answered (:func:`irnb.stats.pairwise_test`; ``t`` by
  default), and the S − 1 p-values of each measure are corrected together (``holm`` by
  default, ``bonferroni`` or ``bh``). ▲ marks a run significantly better than the baseline
  at ``alpha``, ▼ significantly worse ("better" follows the measure's direction). Without a
  baseline every pair is tested, the S(S − 1)/2 p-values of each measure are corrected
  together, and runs get letters (compact letter display, best run first): two runs that
  share a letter do not differ significantly.
* **Effect size**: the paired d_z = mean(run − other) / sd(run − other) over shared topics
  against the baseline, or, without one, against the column's best run.
* **Best** value per column in bold (all tied values).
* **Judged@k**: when some run has unjudged documents in its top k (Unj@k > 0 on some
  topic), the table adds Judged@k (Assessment Precision: judged documents in the top k
  over k, so a ranking shorter than k scores below 1) beside the measure, k = the
  measure's cutoff, else ``measurement_depth`` (10); the caption says how each measure treats
  unjudged documents.
* Run metadata (``#`` comments, ir_metadata; :mod:`irnb.runmeta`) is listed under the table.

Hand example (three topics, run a = 0.5, 0.6, 0.7 against baseline b = 0.4, 0.4, 0.4):
mean(a) = 0.6; differences 0.1, 0.2, 0.3 give t = 3.4641, p = 0.0742 (not significant at
0.05) and d_z = 0.2 / 0.1 = 2.
"""

from __future__ import annotations

import html as _html
import io as _io
from dataclasses import dataclass, field
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from .params import (ALPHA, CONFIDENCE, CORRECTION, MEASUREMENT_DEPTH, N_RESAMPLES, PAIRED_TEST, REPORT_FORMAT,
                     SEED)
from .params import COMPLETE, HIGHER_IS_BETTER, LOG_SCALE

__all__ = ["Report", "report", "bootstrap_ci", "compact_letters", "topic_differences", "FORMATS", "REPORT_TESTS"]

FORMATS = REPORT_FORMAT.choices
REPORT_TESTS = PAIRED_TEST.choices
_CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini–Hochberg (FDR)",
                     "none": "no correction"}
_BOOTSTRAP_CELLS = 4_000_000  # topic draws per block of resamples (32 MB of indices)


# =================================================================== pieces
def bootstrap_ci(values, *, confidence: float = CONFIDENCE.default, n_resamples: int = N_RESAMPLES.default,
                 seed: int = SEED.default,
                 log_scale: bool = False) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (one run's per-topic scores).

    Resamples are ``np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))``
    (drawn in blocks of ⌊4,000,000 / n⌋ resamples, one ``integers`` call per block, when
    that is fewer than ``n_resamples``); the interval is the ``(1 ∓ confidence)/2``
    quantiles of the resampled means (of the geometric mean with ``log_scale``, values
    floored at 1e-5 as trec_eval's GMAP).

    Two topics, 0 and 1: every resample's mean is 0, 0.5 or 1, so the 95 % interval is [0, 1].

    >>> bootstrap_ci([0.0, 1.0], n_resamples=1000)
    (0.0, 1.0)
    """
    log_scale = LOG_SCALE.validate(log_scale, "bootstrap_ci")
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array of per-topic scores, got shape {v.shape}")
    return tuple(float(x) for x in _bootstrap(v[None, :], confidence, n_resamples, seed, log_scale)[0])


def _bootstrap(values: np.ndarray, confidence: float, n_resamples: int, seed: int,
               log_scale: bool) -> np.ndarray:
    """(R, 2) intervals for R rows of the same length n, all from the same resamples."""
    n = values.shape[1]
    rng = np.random.default_rng(seed)
    v = np.log(np.maximum(values, 1e-5)) if log_scale else values
    rows = max(1, _BOOTSTRAP_CELLS // n)  # resamples per block: bounded memory with many topics
    means = np.empty((v.shape[0], n_resamples))
    for lo in range(0, n_resamples, rows):
        idx = rng.integers(0, n, size=(min(rows, n_resamples - lo), n))
        means[:, lo:lo + idx.shape[0]] = [row[idx].mean(axis=1) for row in v]
    q = (1.0 - confidence) / 2.0
    out = np.quantile(means, [q, 1.0 - q], axis=1).T
    return np.exp(out) if log_scale else out


def compact_letters(names: Iterable[str], means: Iterable[float], differ: Mapping[tuple[str, str], bool],
                    *, higher_is_better: bool = True) -> dict[str, str]:
    """Compact letter display (Piepho's insert-and-absorb): letters such that two runs share
    a letter exactly when ``differ`` does not call them significantly different. Runs are
    taken best first and letters given in that order, so the best run gets ``a``.

    a > b > c with only (a, c) different: a and b share "a", b and c share "b".

    >>> compact_letters("abc", [3, 2, 1], {("a", "c"): True})
    {'a': 'a', 'b': 'ab', 'c': 'b'}
    """
    higher_is_better = HIGHER_IS_BETTER.validate(higher_is_better, "compact_letters")
    names = list(names)
    means = np.asarray(list(means), dtype=np.float64)
    order = np.argsort(-means if higher_is_better else means, kind="stable")
    ranked = [names[i] for i in order]
    columns: list[set[str]] = [set(ranked)]
    for i, a in enumerate(ranked):
        for b in ranked[i + 1:]:
            if not (differ.get((a, b)) or differ.get((b, a))):
                continue
            new: list[set[str]] = []
            for col in columns:
                if a in col and b in col:
                    new.extend([col - {a}, col - {b}])
                else:
                    new.append(col)
            columns = [c for c in new if not any(c < other for other in new)]  # absorb subsets
            columns = [c for j, c in enumerate(columns) if c not in columns[:j]]
    position = {name: i for i, name in enumerate(ranked)}
    columns.sort(key=lambda col: min(position[n] for n in col))
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if len(columns) > len(letters):
        raise ValueError(f"compact letter display needs {len(columns)} letters, at most {len(letters)} are available")
    return {name: "".join(letters[j] for j, col in enumerate(columns) if name in col) for name in names}


def topic_differences(evaluation, measure, run: str, baseline: str) -> pd.DataFrame:
    """Per topic, ``run`` minus ``baseline`` on ``measure`` over the topics both were
    evaluated on, sorted from the largest gain to the largest loss (ties by topic): the
    columns ``topic, run, baseline, difference``. What
    :func:`irnb.plots.topic_difference_plot` draws.

    >>> import pandas as pd
    >>> from irnb import Experiment, evaluate
    >>> qrels = pd.DataFrame({"qid": ["1", "2"], "docno": "d", "grade": 1})
    >>> runs = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": ["1", "2"] * 2,
    ...                      "docno": ["d", "x", "x", "d"], "score": 1.0})
    >>> ev = evaluate(Experiment(runs, qrels), ["P@1"])
    >>> topic_differences(ev, "P@1", "a", "b")[["topic", "difference"]].values.tolist()
    [['1', 1.0], ['2', -1.0]]
    """
    for name, label in ((run, "run"), (baseline, "baseline")):
        if name not in evaluation.run_names:
            raise ValueError(f"{label}: unknown run {name!r} (expected one of {list(evaluation.run_names)[:5]}…)")
    s, b = evaluation.run_names.index(run), evaluation.run_names.index(baseline)
    values = evaluation[measure]
    both = evaluation.evaluated[s] & evaluation.evaluated[b]
    frame = pd.DataFrame({"topic": np.asarray(evaluation.topics, dtype=object)[both],
                          "run": values[s][both], "baseline": values[b][both]})
    frame["difference"] = frame["run"] - frame["baseline"]
    return frame.sort_values(["difference", "topic"], ascending=[False, True], kind="stable").reset_index(drop=True)


# =================================================================== the report
@dataclass(frozen=True, eq=False)
class Report:
    """A comparison table (see the module docstring). ``table`` is tidy, one row per run and
    measure: ``run, measure, mean, ci_low, ci_high, n_topics, p_value`` (raw), ``p_adjusted``,
    ``significant``, ``direction`` (+1 better, −1 worse than the baseline, 0 equal or no
    baseline; "better" follows the measure's direction), ``d_z``,
    ``letters``, ``judged_measure``, ``judged``, ``best``. Render with :meth:`render`."""

    table: pd.DataFrame = field(repr=False)
    measures: tuple[str, ...]
    run_names: tuple[str, ...]
    baseline: str | None
    test: str
    correction: str
    alpha: float
    confidence: float
    n_resamples: int
    seed: int
    caption: str = field(repr=False)
    metadata: Mapping[str, str] = field(repr=False, default_factory=dict)
    digits: int = 4

    # ------------------------------------------------------------- cells
    def _cell(self, row, fmt: str) -> str:
        d = self.digits
        value = f"{row.mean:.{d}f}"
        if row.best:
            value = {"markdown": f"**{value}**", "latex": f"\\textbf{{{value}}}",
                     "html": f"<b>{value}</b>"}[fmt]
        interval = f"[{row.ci_low:.{d}f}, {row.ci_high:.{d}f}]"
        mark = ""
        if self.baseline is not None and row.significant:
            up = row.direction > 0
            mark = {"markdown": "▲" if up else "▼", "html": "▲" if up else "▼",
                    "latex": "$^{\\uparrow}$" if up else "$^{\\downarrow}$"}[fmt]
        elif self.baseline is None and row.letters:
            mark = {"markdown": f"<sup>{row.letters}</sup>", "html": f"<sup>{row.letters}</sup>",
                    "latex": f"\\textsuperscript{{{row.letters}}}"}[fmt]
        return f"{value} {interval}{(' ' if fmt != 'latex' else '') + mark if mark else ''}"

    def _grid(self, fmt: str) -> tuple[list[str], list[list[str]]]:
        """Header and rows of the rendered table: run, then per measure its cell and d_z, and
        Judged@k once per k beside the first measure that needs it."""
        by = {(r.run, r.measure): r for r in self.table.itertuples(index=False)}
        header = ["run"]
        columns: list[tuple[str, str]] = []
        shown_judged: set[str] = set()
        other = "baseline" if self.baseline is not None else "best"
        for m in self.measures:
            header.append(m)
            columns.append(("cell", m))
            header.append(f"d ({other})")
            columns.append(("d", m))
            judged = by[(self.run_names[0], m)].judged_measure
            if judged and judged not in shown_judged:
                shown_judged.add(judged)
                header.append(judged)
                columns.append(("judged", m))
        rows = []
        for run in self.run_names:
            label = run + (" (baseline)" if run == self.baseline else "")
            cells = [label]
            for kind, m in columns:
                r = by[(run, m)]
                if kind == "cell":
                    cells.append(self._cell(r, fmt))
                elif kind == "d":
                    cells.append("–" if np.isnan(r.d_z) else f"{r.d_z + 0.0:+.2f}")  # + 0.0: no "-0.00"
                else:
                    cells.append(f"{r.judged:.3f}")
            rows.append(cells)
        return header, rows

    def _notes(self) -> list[str]:
        return [f"{run}: {text}" for run, text in self.metadata.items() if text]

    # ------------------------------------------------------------- formats
    def to_markdown(self) -> str:
        header, rows = self._grid("markdown")
        esc = [[c.replace("|", "\\|") for c in row] for row in [header, *rows]]
        lines = ["| " + " | ".join(esc[0]) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in esc[1:]]
        text = "\n".join(lines) + "\n\n" + self.caption + "\n"
        notes = self._notes()
        if notes:
            text += "\nRun metadata:\n\n" + "\n".join(f"- {n}" for n in notes) + "\n"
        return text

    def to_latex(self) -> str:
        header, rows = self._grid("latex")

        def tex(text: str) -> str:
            for a, b in (("\\", "\\textbackslash{}"), ("&", "\\&"), ("%", "\\%"), ("#", "\\#"), ("_", "\\_"),
                         ("–", "--"), ("Δ", "$\\Delta$"), ("α", "$\\alpha$"), ("▲", "$\\uparrow$"),
                         ("▼", "$\\downarrow$"), ("≤", "$\\le$"), ("−", "$-$")):
                text = text.replace(a, b)
            return text

        spec = "l" + "r" * (len(header) - 1)
        lines = ["\\begin{table}", "\\centering", f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
                 " & ".join(tex(h) for h in header) + " \\\\", "\\midrule"]
        for row in rows:
            lines.append(" & ".join([tex(row[0])] + [c.replace("–", "--") for c in row[1:]]) + " \\\\")
        lines += ["\\bottomrule", "\\end{tabular}", f"\\caption{{{tex(self.caption)}}}"]
        notes = self._notes()
        if notes:
            lines.append("\\par\\footnotesize Run metadata: " + "; ".join(tex(n) for n in notes))
        lines.append("\\end{table}")
        return "\n".join(lines) + "\n"

    def to_html(self) -> str:
        header, rows = self._grid("html")

        def esc(cell: str) -> str:  # keep the markup this module wrote, escape everything else
            kept = {"<b>": "\0b", "</b>": "\0/b", "<sup>": "\0s", "</sup>": "\0/s"}
            for tag, mark in kept.items():
                cell = cell.replace(tag, mark)
            cell = _html.escape(cell)
            for tag, mark in kept.items():
                cell = cell.replace(mark, tag)
            return cell

        lines = ["<table>", f"<caption>{_html.escape(self.caption)}</caption>", "<thead><tr>"
                 + "".join(f"<th>{_html.escape(h)}</th>" for h in header) + "</tr></thead>", "<tbody>"]
        for row in rows:
            lines.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
        lines.append("</tbody>")
        notes = self._notes()
        if notes:
            lines.append(f"<tfoot><tr><td colspan=\"{len(header)}\">Run metadata: "
                         + "; ".join(_html.escape(n) for n in notes) + "</td></tr></tfoot>")
        lines.append("</table>")
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        """The tidy ``table`` (full precision) with a ``metadata`` column; no caption."""
        frame = self.table.assign(metadata=self.table["run"].map(lambda r: self.metadata.get(r, "")))
        out = _io.StringIO()
        frame.to_csv(out, index=False, float_format="%.17g", lineterminator="\n")
        return out.getvalue()

    def render(self, format: str = REPORT_FORMAT.default) -> str:
        REPORT_FORMAT.validate(format, None)
        return {"markdown": self.to_markdown, "latex": self.to_latex, "html": self.to_html,
                "csv": self.to_csv}[format]()

    def __str__(self) -> str:
        return self.to_markdown()

    def _repr_markdown_(self) -> str:
        return self.to_markdown()


# =================================================================== building it
def report(experiment, measures, *, baseline: str | None = None, test: str = PAIRED_TEST.default,
           correction: str = CORRECTION.default, alpha: float = ALPHA.default, confidence: float = CONFIDENCE.default,
           n_resamples: int = N_RESAMPLES.default, seed: int = SEED.default, complete: bool = COMPLETE.default,
           measurement_depth: int = MEASUREMENT_DEPTH.default, digits: int = 4,
           judged_depth: int | None = None) -> Report:
    """The comparison table of every run of ``experiment`` on ``measures`` (see the module
    docstring for what each cell means).

    >>> import pandas as pd
    >>> from irnb import Experiment
    >>> qrels = pd.DataFrame({"qid": ["1", "2", "3"], "docno": "d", "grade": 1})
    >>> runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 3, "qid": ["1", "2", "3"] * 2,
    ...                      "docno": ["d", "d", "x"] + ["x", "x", "d"], "score": 1.0})
    >>> rep = report(Experiment(runs, qrels), ["P@1"], baseline="b", n_resamples=200)
    >>> rep.table[["run", "mean", "p_value"]].round(4).values.tolist()   # a: 2 of 3 topics, b: 1 of 3
    [['a', 0.6667, 0.6667], ['b', 0.3333, nan]]
    """
    complete = COMPLETE.validate(complete, "report")
    from .experiment import Experiment
    from .measures import parse_measures
    from .metrics import evaluate
    from .corrections import adjust_p_values
    from .stats import SignificanceTest

    if not isinstance(experiment, Experiment):
        raise TypeError(f"experiment must be an irnb.Experiment (build one with irnb.Experiment(runs, qrels)), "
                        f"got {type(experiment).__name__}")
    paired_test = SignificanceTest(PAIRED_TEST.validate(test, None))  # the one check of test on this path
    CORRECTION.validate(correction, None)
    alpha, confidence = ALPHA.validate(alpha, None), CONFIDENCE.validate(confidence, None)
    n_resamples, seed = N_RESAMPLES.validate(n_resamples, None), SEED.validate(seed, None)
    if judged_depth is not None:  # deprecated spelling: the glossary's word is measurement depth
        import warnings

        warnings.warn("report(judged_depth=) is now report(measurement_depth=): the k of Judged@k for a measure "
                      "without a cutoff", DeprecationWarning, stacklevel=2)
        measurement_depth = judged_depth
    k = MEASUREMENT_DEPTH.validate(measurement_depth, None)
    names = experiment.run_names
    if baseline is not None and baseline not in names:
        import difflib

        close = difflib.get_close_matches(str(baseline), list(names), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"baseline: unknown run {baseline!r}{hint} "
                         f"(expected one of the {len(names)} runs)")
    parsed = parse_measures(measures)
    for m in parsed:
        if m.spec.aggregate == "sum":
            raise ValueError(f"measures: {m.name} is a count summed over topics; a report compares measures "
                             "averaged over topics (e.g. AP, P@10, nDCG@10)")
    judged_for = {m: parse_measures(f"Judged@{m.cutoff or k}")[0] for m in parsed}
    unjudged_for = {m: parse_measures(f"Unj@{m.cutoff or k}")[0] for m in parsed}
    ev = evaluate(experiment, list(dict.fromkeys([*parsed, *judged_for.values(), *unjudged_for.values()])),
                  complete=complete)
    S = len(names)
    rows = []
    for m in parsed:
        values, evaluated = ev[m], ev.evaluated
        means = ev.aggregate(m)
        log_scale = m.spec.aggregate == "gmean"
        ci = np.full((S, 2), np.nan)
        n_topics = evaluated.sum(axis=1)
        for n in np.unique(n_topics):  # runs with n topics share one set of resamples
            if n == 0:
                continue
            group = np.flatnonzero(n_topics == n)
            block = np.stack([values[s][evaluated[s]] for s in group])
            ci[group] = _bootstrap(block, confidence, n_resamples, seed, log_scale)
        p_raw = np.full(S, np.nan)
        p_adj = np.full(S, np.nan)
        d_z = np.full(S, np.nan)
        direction = np.zeros(S, dtype=np.int64)
        letters = [""] * S
        sign = 1.0 if m.spec.higher_is_better else -1.0
        scores = np.where(evaluated, values, np.nan)
        if S >= 2:
            tests = paired_test(scores, run_names=names)
            a, b = tests.run_a, tests.run_b
            if baseline is not None:
                base = names.index(baseline)
                for i in np.flatnonzero((a == base) | (b == base)):
                    other, flip = (int(b[i]), -1.0) if a[i] == base else (int(a[i]), 1.0)
                    p_raw[other] = tests.p_value[i]
                    d_z[other] = flip * tests.d_z[i]
                others = [s for s in range(S) if s != base]
                p_adj[others] = adjust_p_values(p_raw[others], correction)
                diff = means - means[base]
                direction = np.where(diff * sign > 0, 1, np.where(diff * sign < 0, -1, 0))
            else:
                p_all = adjust_p_values(tests.p_value, correction)
                differ = {(names[x], names[y]): bool(p <= alpha)
                          for x, y, p in zip(a.tolist(), b.tolist(), p_all.tolist(), strict=True)}
                letters = [compact_letters(names, means, differ, higher_is_better=m.spec.higher_is_better)[n]
                           for n in names]
                best_run = int(np.argmax(means * sign))
                for i in np.flatnonzero((a == best_run) | (b == best_run)):
                    other, flip = (int(b[i]), -1.0) if a[i] == best_run else (int(a[i]), 1.0)
                    d_z[other] = flip * tests.d_z[i]
        best_value = np.nanmax(means * sign)
        best = np.isclose(means * sign, best_value, rtol=0, atol=1e-12)
        judged_m = judged_for[m]
        judged = ev.aggregate(judged_m)
        # an unjudged document in some run's top k (a ranking shorter than k is not one)
        incomplete = bool((np.where(evaluated, ev[unjudged_for[m]], 0.0) > 0).any())
        for s, run in enumerate(names):
            rows.append({
                "run": run, "measure": m.name, "mean": means[s], "ci_low": ci[s, 0], "ci_high": ci[s, 1],
                "n_topics": int(n_topics[s]), "p_value": p_raw[s], "p_adjusted": p_adj[s],
                "significant": bool(p_adj[s] <= alpha) if baseline is not None else False,
                "direction": int(direction[s]),
                "d_z": d_z[s], "letters": letters[s], "judged_measure": judged_m.name if incomplete else "",
                "judged": judged[s], "best": bool(best[s]),
            })
    table = pd.DataFrame(rows)
    caption = _caption(parsed, table, names, baseline=baseline, test=test, correction=correction, alpha=alpha,
                       confidence=confidence, n_resamples=n_resamples, seed=seed, complete=complete)
    metadata = experiment.summary()["metadata"].to_dict()
    return Report(table=table, measures=tuple(m.name for m in parsed), run_names=tuple(names), baseline=baseline,
                  test=test, correction=correction, alpha=float(alpha), confidence=float(confidence),
                  n_resamples=int(n_resamples), seed=int(seed), caption=caption,
                  metadata={k: v for k, v in metadata.items() if v}, digits=digits)


def _caption(parsed, table: pd.DataFrame, names, *, baseline, test, correction, alpha, confidence, n_resamples,
             seed, complete) -> str:
    counts = table.drop_duplicates("run")["n_topics"]
    if counts.min() == counts.max():
        topics = f"{int(counts.min())} topics"
    else:
        topics = f"{int(counts.min())}–{int(counts.max())} topics per run (the topics each run answered)"
    if complete:
        topics += ", unanswered topics scored 0"
    S = len(names)
    level = f"{int(round(confidence * 100))} %" if abs(confidence * 100 - round(confidence * 100)) < 1e-9 \
        else f"{confidence * 100:g} %"
    parts = [f"Mean over {topics} [{level} percentile bootstrap confidence interval, "
             f"{n_resamples:,} resamples, seed {seed}]."]
    how = f"{dict(PAIRED_TEST.meanings)[test]}, {_CORRECTION_NAMES[correction]} correction"
    if baseline is not None:
        parts.append(f"▲/▼: significantly better/worse than the baseline {baseline} ({how} over the "
                     f"{S - 1} comparisons per measure, α = {alpha:g}); d: paired effect size d_z against "
                     f"{baseline}.")
    else:
        parts.append(f"Runs sharing a letter do not differ significantly ({how} over the {S * (S - 1) // 2} "
                     f"pairs per measure, α = {alpha:g}); d: paired effect size d_z against the column's best run.")
    parts.append("Best value per column in bold.")
    rules: dict[str, list[str]] = {}
    for m in parsed:
        rules.setdefault(m.spec.unjudged, []).append(m.name)
    parts.append("Unjudged documents: " + "; ".join(f"{rule} for {', '.join(ms)}" for rule, ms in rules.items())
                 + ".")
    judged = [j for j in dict.fromkeys(table["judged_measure"]) if j]
    if judged:
        shares = ", ".join(f"{j}: the share of each run's top {j.split('@')[1]} documents that are judged"
                           for j in judged)
        parts.append(f"Judgments are incomplete: {shares} (mean over topics).")
    else:
        parts.append("Every document in the measured top k of every run is judged.")
    return " ".join(parts)
