"""Every user-facing parameter, declared once: name, type, bounds, choices, meaning.

A :class:`Param` is the one owner of what a parameter may be. The Python API validates
through it (``ALPHA.validate(alpha, "compare_table")``), the ``irnb`` command builds its
options from it (:func:`add_option`: type, choices and help), and the widgets take their
sliders' ranges and steps from it (:func:`slider_range`). The error names the parameter,
what is allowed and what was passed:

>>> MEASUREMENT_DEPTH.validate(0, "score_intervals")
Traceback (most recent call last):
...
ValueError: score_intervals: measurement_depth (k) must be an integer ≥ 1, got 0
>>> ALPHA.validate(1.5, None, label="--alpha", wording="satisfy")
Traceback (most recent call last):
...
ValueError: --alpha must satisfy 0 < alpha < 1, got 1.5
>>> TEST.validate("tukye", "compare")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: compare: test must be one of 't', 'wilcoxon', ..., 'tukey', got 'tukye'; did you mean 'tukey'?

A parameter that several functions take with different defaults (``alpha`` is 0.05 in a
comparison, 0.01 in a budget study) is still declared once: ``ALPHA.with_default(0.01)``
keeps its bounds, type and message. Spellings of the same parameter (the measure-name
parameter ``rel`` is the relevance level) are :meth:`Param.renamed` copies.

Words (see the glossary): the *pool depth* d judges the top d documents of every
contributing run; the *measurement depth* k is the cutoff at which a run is scored; the
*run depth* (``max_depth``, trec_eval ``-M``) cuts the runs themselves.
"""

from __future__ import annotations

import difflib
import numbers
import re
from dataclasses import dataclass, replace
from types import MappingProxyType
from collections.abc import Mapping
from typing import Any

__all__ = ["Param", "PARAMS", "add_option", "slider_range", "ALPHA", "CONFIDENCE", "MEASUREMENT_DEPTH",
           "POOL_DEPTH", "RUN_DEPTH", "RELEVANCE_LEVEL", "BACKGROUND_RATE", "SMOOTHING", "PERSISTENCE",
           "JUDGMENTS", "FRACTION", "N_RESAMPLES", "SEED", "TEST", "PAIRED_TEST", "CORRECTION", "REPORT_FORMAT",
           "ESTIMATOR", "REPEATS", "TOP_RUNS", "STRATEGY", "SUGGESTIONS", "ROUND_SIZE", "BUDGET", "DEGREE",
           "DERIVED"]


def _number(x: float) -> str:
    """A bound in words: ``1``, ``0.05``, and ``2**63`` for a large power of two."""
    if isinstance(x, int) and x >= 2 ** 32 and x & (x - 1) == 0:
        return f"2**{x.bit_length() - 1}"
    return f"{x:g}"


@dataclass(frozen=True)
class Param:
    """A declared parameter: type, bounds (inclusive unless ``*_open``), default, description.

    ``type`` is ``int``, ``float`` or ``str``; a ``str`` parameter lists its ``choices``.
    ``default=None`` makes the parameter required. ``symbol`` is the paper's letter (E, λ,
    k, d) for inequalities and sliders; ``step`` is a slider's step. Widgets and the command
    line build their controls from the same declaration.
    """

    name: str
    type: type
    default: Any
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    doc: str = ""
    choices: tuple[str, ...] | None = None
    label: str | None = None  # how errors name it (default: the name)
    symbol: str | None = None  # the paper's symbol, in "satisfy 0 ≤ E ≤ 1" (default: the name)
    step: float | None = None  # a slider's step (default: 1 for an integer, 0.01 for a number)
    keywords: tuple[str, ...] = ()  # words accepted besides numbers ("auto")

    def renamed(self, name: str, **changes: Any) -> Param:
        """The same declaration under another spelling (``rel`` for the relevance level)."""
        return replace(self, name=name, **{"label": None, **changes})

    def with_default(self, default: Any) -> Param:
        """The same declaration with a function's own default (bounds and message unchanged)."""
        return replace(self, default=default)

    def describe(self, wording: str = "be") -> str:
        """The allowed values in words: ``a number with 0 < p < 1``, ``an integer ≥ 1``; with
        ``wording="satisfy"`` the bounds alone: ``satisfy 0 ≤ E ≤ 1``.

        >>> BACKGROUND_RATE.describe(), BACKGROUND_RATE.describe("satisfy")
        ('a number with 0 ≤ background_rate ≤ 1', 'satisfy 0 ≤ E ≤ 1')
        """
        if self.type is str:
            return "one of " + ", ".join(map(repr, self.choices or ()))
        lo, hi = ("<" if self.low_open else "≤"), ("<" if self.high_open else "≤")
        if wording == "satisfy" and self.low is not None and self.high is not None:
            words = "".join(f"{k!r} or " for k in self.keywords)
            return f"{words}satisfy {_number(self.low)} {lo} {self.symbol or self.name} {hi} {_number(self.high)}"
        kind = "an integer" if self.type is int else "a number"
        if self.low is not None and self.high is not None:
            return f"{kind} with {_number(self.low)} {lo} {self.name} {hi} {_number(self.high)}"
        if self.low is not None:
            return f"{kind} {'>' if self.low_open else '≥'} {_number(self.low)}"
        if self.high is not None:
            return f"{kind} {'<' if self.high_open else '≤'} {_number(self.high)}"
        return kind

    def error(self, value: Any, owner: str | None, *, label: str | None = None, wording: str = "be",
              note: str | None = None) -> ValueError:
        """The ValueError for a bad ``value``: ``owner: label must be … (note), got value``."""
        verb = "" if wording == "satisfy" and self.type is not str and self.low is not None \
            and self.high is not None and not self.keywords else "be "
        hint = ""
        if self.type is str and isinstance(value, str):
            close = difflib.get_close_matches(value, self.choices or (), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
        prefix = f"{owner}: " if owner else ""
        why = f" ({note})" if note else ""
        return ValueError(f"{prefix}{label or self.label or self.name} must {verb}{self.describe(wording)}{why}, "
                          f"got {value!r}{hint}")

    def validate(self, value: Any, owner: str | None, *, label: str | None = None, wording: str = "be",
                 note: str | None = None) -> Any:
        """``value`` converted to the declared type, or a ValueError naming the parameter,
        what is allowed and what was passed. Numpy integers are integers (``np.int64(10)``
        gives ``10``), numpy floats are numbers; booleans (``True``, ``np.True_``) never are.
        ``owner`` (the function or command) prefixes the message; ``label`` overrides how
        the parameter is named (a command-line flag); ``note`` says why the bounds are what they are."""
        given = value  # the error shows what was passed, not its conversion

        def bad() -> ValueError:
            return self.error(given, owner, label=label, wording=wording, note=note)

        if self.type is str:
            if not isinstance(value, str) or value not in (self.choices or ()):
                raise bad()
            return value
        if isinstance(value, str) and value in self.keywords:
            return value
        if isinstance(value, bool) or not isinstance(value, (numbers.Integral, numbers.Real)):
            raise bad()  # numpy integers count as integers; booleans never do
        if self.type is int:
            if not isinstance(value, numbers.Integral) and not float(value).is_integer():
                raise bad()
            value = int(value)
        else:
            value = float(value)
            if value != value:  # NaN
                raise bad()
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            raise bad()
        if self.high is not None and (value >= self.high if self.high_open else value > self.high):
            raise bad()
        return value

    def convert(self, raw: str, owner: str | None, *, label: str | None = None, wording: str = "be") -> Any:
        """Parse the text of a value (``"0.8"``, ``"10"``, ``"graded"``) and validate it."""
        raw = raw.strip()
        if self.type is str or raw in self.keywords:
            return self.validate(raw, owner, label=label, wording=wording)
        try:
            number = int(raw) if re.fullmatch(r"[+-]?\d+", raw) else float(raw)
        except ValueError:
            raise self.error(raw, owner, label=label, wording=wording) from None
        return self.validate(number, owner, label=label, wording=wording)


# =============================================================================== the declarations
#: Measurement depth k: the cutoff at which a run is scored (P@k, nDCG@k, Judged@k).
MEASUREMENT_DEPTH = Param("measurement_depth", int, 10, low=1, label="measurement_depth (k)", symbol="k",
                          doc="measurement depth k: the top k documents count")
#: Pool depth d: the top d documents of every contributing run are judged.
POOL_DEPTH = Param("depth", int, 100, low=1, symbol="d",
                   doc="pool depth d: a document is judged if a contributing run ranks it at depth ≤ d")
#: Run depth (trec_eval -M): only the top documents of each run are read.
RUN_DEPTH = Param("max_depth", int, None, low=1, label="max_depth (run cutoff, trec_eval -M)",
                  doc="run depth: use only the top max_depth documents of each run (trec_eval -M)")
#: Relevance level: a grade ≥ the level is relevant (trec_eval -l).
RELEVANCE_LEVEL = Param("relevance_level", int, 1, low=1,
                        doc="relevance level: a grade ≥ relevance_level is relevant (trec_eval -l)")
#: Significance level of a test.
ALPHA = Param("alpha", float, 0.05, low=0.0, high=1.0, low_open=True, high_open=True,
              doc="significance level: a difference counts as significant when p < alpha")
#: Confidence of an interval.
CONFIDENCE = Param("confidence", float, 0.95, low=0.0, high=1.0, low_open=True, high_open=True,
                   doc="confidence of the intervals (0.95: 95% intervals)")
#: Background rate E (Ravana & Moffat 2010 §3).
BACKGROUND_RATE = Param("background_rate", float, 0.01, low=0.0, high=1.0, label="background_rate (E)", symbol="E",
                        doc="E: probability that an unjudged document is relevant (X_B, X_M, and X_I when Δ = 1)")
#: Smoothing λ of estimator X_M; "auto" means λ = 1 − Δ per topic.
SMOOTHING = Param("smoothing", float, "auto", low=0.0, high=1.0, label="smoothing (λ)", symbol="λ", step=0.01,
                  keywords=("auto",),
                  doc="λ: weight of X_I against X_B in X_M; 'auto' (the default) means λ = 1 − Δ per topic")
#: RBP persistence p.
PERSISTENCE = Param("p", float, 0.8, low=0.0, high=1.0, low_open=True, high_open=True,
                    doc="persistence p: probability of moving on to the next document")
#: Judgment budget N of a budget pool.
JUDGMENTS = Param("judgments", int, 1000, low=1,
                  doc="judgment budget N: the first N qrels entries in pooling order are judged")
#: Share of the qrels kept by random subsampling (Büttcher et al. 2007).
FRACTION = Param("fraction", float, 0.5, low=0.05, high=1.0,
                 doc="fraction of each topic's qrels kept by uniform random subsampling")
#: Resamples of a randomization test or a bootstrap.
N_RESAMPLES = Param("n_resamples", int, 10_000, low=1, doc="resamples of the randomization test or bootstrap")
#: Seed of a random generator (a numpy Generator is accepted where said).
SEED = Param("seed", int, 0, low=0, high=2 ** 63, high_open=True, doc="random seed")
#: Repetitions of a randomized experiment.
REPEATS = Param("repeats", int, 1, low=1, doc="repetitions of the randomized experiment")
#: Runs shown in a plot.
TOP_RUNS = Param("top", int, 20, low=1, label="top (runs shown in a plot)", doc="runs shown in a plot")
#: Significance tests (irnb.stats.pairwise_test): paired tests per pair, or ANOVA / Tukey over all runs.
TEST = Param("test", str, "anova", choices=("t", "wilcoxon", "sign", "randomization", "anova", "tukey"),
             doc="anova: one-way ANOVA over all runs + Bonferroni multiple comparisons, the papers' "
                 "procedure; t, wilcoxon, sign, randomization: paired tests per pair, uncorrected; "
                 "tukey: Tukey HSD")
#: The paired tests (one p-value per pair, from that pair's scores alone): a comparison table's tests.
PAIRED_TEST = replace(TEST, default="t", choices=TEST.choices[:4], doc="paired test over topics")
#: Multiple-comparison corrections of p-values (``"none"`` keeps them).
CORRECTION = Param("correction", str, "holm", choices=("bonferroni", "holm", "bh", "none"),
                   doc="multiple-comparison correction (bh = Benjamini-Hochberg)")
#: Output formats of a comparison table.
REPORT_FORMAT = Param("format", str, "markdown", choices=("markdown", "latex", "html", "csv"),
                      doc="output format (csv: the tidy table at full precision)")
#: How documents to judge next are chosen: the default aims to decide pairs; the other two are baselines.
STRATEGY = Param("strategy", str, "decide-pairs", choices=("decide-pairs", "depth", "rbp"),
                 doc="decide-pairs (default), or the baselines depth / rbp")
#: Documents to suggest for judging.
SUGGESTIONS = Param("n", int, 10, low=1, doc="n: how many documents to suggest")
#: Judgments per round of a judging simulation.
ROUND_SIZE = Param("round_size", int, 200, low=1, doc="judgments per round of a simulation")
#: Judgments spent in a judging simulation.
BUDGET = Param("budget", int, 1000, low=1, doc="judgments spent in a simulation")
#: Degree of the polynomial fitted to the background rate by depth (Ravana & Moffat 2010 Fig. 1).
DEGREE = Param("degree", int, 3, low=0, doc="degree of the polynomial fitted to the rate by depth")
#: Point estimators inside [B, T] (Ravana & Moffat 2010 §4).
ESTIMATOR = Param("estimator", str, "M", choices=("S", "B", "I", "M"),
                  doc="point estimate: S simplistic, B background, I interpolated, M smoothed")

#: Every declared parameter by name (the registry the docs and a test read).
PARAMS: Mapping[str, Param] = MappingProxyType({p.name: p for p in (
    MEASUREMENT_DEPTH, POOL_DEPTH, RUN_DEPTH, RELEVANCE_LEVEL, ALPHA, CONFIDENCE, BACKGROUND_RATE, SMOOTHING,
    PERSISTENCE, JUDGMENTS, FRACTION, N_RESAMPLES, SEED, REPEATS, TOP_RUNS, TEST, CORRECTION, ESTIMATOR,
    STRATEGY, SUGGESTIONS, ROUND_SIZE, BUDGET, DEGREE)})
#: Parameters declared from another one (same bounds or choices, a narrower use).
DERIVED: Mapping[str, Param] = MappingProxyType({"paired_test": PAIRED_TEST, "report_format": REPORT_FORMAT})


# =============================================================================== builders
def add_option(parser, *flags: str, param: Param, default: Any = ..., help: str | None = None, **kwargs: Any):
    """Add the command-line option ``flags`` for ``param``: its type, its choices, and a help
    text from its description and default. Values are checked by the command (through
    ``param.validate`` with the flag as label) so that the error names the flag.

    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> _ = add_option(p, "--test", param=TEST)
    >>> p.parse_args(["--test", "tukey"]).test
    'tukey'
    """
    default = param.default if default is ... else default
    text = help if help is not None else param.doc
    if default is not None and "(default" not in text:
        text = f"{text} (default {default})"
    if param.choices is not None:
        kwargs.setdefault("choices", param.choices)
    return parser.add_argument(*flags, dest=kwargs.pop("dest", param.name), type=kwargs.pop("type", param.type),
                               default=default, help=text, **kwargs)


def slider_range(param: Param) -> dict[str, Any]:
    """``min``, ``max`` (when declared) and ``step`` of a slider for ``param``.

    >>> slider_range(SMOOTHING)
    {'min': 0.0, 'max': 1.0, 'step': 0.01}
    >>> slider_range(POOL_DEPTH)
    {'min': 1, 'step': 1}
    """
    cast = int if param.type is int else float
    out: dict[str, Any] = {}
    if param.low is not None:
        out["min"] = cast(param.low)
    if param.high is not None:
        out["max"] = cast(param.high)
    out["step"] = cast(param.step if param.step is not None else (1 if param.type is int else 0.01))
    return out
