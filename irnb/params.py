"""Every user-facing parameter, declared once: name, type, bounds, choices, meaning.

A :class:`Param` is the one owner of what a parameter may be. The Python API validates
through it (``ALPHA.validate(alpha, "compare_table")``), the ``irnb`` command builds its
options from it (:func:`add_option`: type, choices and help), and the widgets take their
sliders' ranges from it (:func:`slider_range`). The error names the parameter,
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
ValueError: compare: test must be one of 't' (paired t-test), ..., got 'tukye'; did you mean 'tukey'?

A parameter that several functions take with different defaults (``alpha`` is 0.05 in a
comparison, 0.01 in a budget study) is still declared once: ``ALPHA.with_default(0.01)``
keeps its bounds, type and message. Spellings of the same parameter (the measure-name
parameter ``rel`` is the relevance level) are :meth:`Param.renamed` copies.

Beyond one number in bounds, a declaration can say: words accepted besides numbers
(``keywords``: smoothing's ``"auto"``), other values accepted besides the bounds
(``sentinels``: ``n_jobs=None`` or ``-1``), objects of other types taken as they are
(``also``: a seed or a numpy Generator), what each special value means (``meanings``), a
bound set by the data (:meth:`Param.within`: a budget ≤ the qrels entries), a bound that
names another parameter (``low="relevance_level"``, its value passed as ``given=``), and a
fixed number of ordered values (:class:`ParamList`: Ravana & Moffat's shallow ≤ medium ≤
deep budgets), and a bound between parameters checked together (:class:`Relation`: the
simulator's pool depth ≤ run depth). A flag is a parameter of type ``bool``: True or False
(a numpy boolean too, given back as a Python one), or a sentinel such as ``None``:

>>> PROGRESS.validate("yes", "sweep")
Traceback (most recent call last):
...
irnb.params.ParameterError: sweep: progress must be True, False or None (automatic), got 'yes'

Errors are ``ValueError``; a flag, and a parameter that also takes objects of another type,
raise :class:`ParameterError`, both a ``ValueError`` and a ``TypeError`` (as scikit-learn's
``InvalidParameterError``), since a value of the wrong type is a type error there.

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

import numpy as np

__all__ = ["Param", "ParamList", "Relation", "ParameterError", "PARAMS", "add_option", "slider_range",
           "random_generator", "ALPHA", "CONFIDENCE", "MEASUREMENT_DEPTH", "POOL_DEPTH", "RUN_DEPTH", "NUM_DOCS",
           "RELEVANCE_LEVEL",
           "BACKGROUND_RATE", "SMOOTHING", "PERSISTENCE", "JUDGMENTS", "FRACTION", "N_RESAMPLES", "SEED",
           "RANDOM_STATE", "GAINS", "LevelGains",
           "TEST", "PAIRED_TEST", "CORRECTION", "REPORT_FORMAT", "ESTIMATOR", "REPEATS", "DRAWS",
           "CONTRIBUTING_RUNS", "FACTOR", "TOP_RUNS", "SAMPLES", "LEVEL", "PRIOR",
           "STRATEGY", "SUGGESTIONS", "ROUND_SIZE", "BUDGET", "DEGREE", "N_JOBS", "COMPARISONS", "MAX_GROUPS",
           "BUDGET_LEVELS", "DERIVED", "FLAGS", "COMPLETE", "CONTINUITY_CORRECTION", "HIGHER_IS_BETTER",
           "ASSESSMENT_HIGHER_IS_BETTER", "KEEP_UNPOOLED", "PARSE_THREADS", "ONLY_QRELS", "RELEVANT", "PROBABILITIES",
           "WITHIN_QRELS",
           "PROGRESS", "DOWNLOAD_PROGRESS", "TREC_COVID_ROUND",
           "HOLDS", "TRUTH", "JUDGED_ONLY", "PER_TOPIC", "INCLUDE_ALL", "KEEP_DIFF",
           "LOG_SCALE", "ACROSS_GROUPS", "OVERWRITE", "WITH_TRUTH", "OPEN_BROWSER", "DISPLAY_FLAG", "DISPLAY_CHOICE",
           "CHOICES", "ADJUSTMENT", "INTERVAL_ADJUSTMENT", "MATRIX_VALUE", "TOPIC_RULE", "WILCOXON_ZERO_METHOD",
           "WILCOXON_METHOD", "BIAS_REFERENCE", "CASE_FORM", "ON_DUPLICATE", "TREC_VERSION", "BINDER_KIND",
           "RANKED_RUNS", "POOLED_RUNS", "RUN_SET", "ASSESSMENT_FAMILY", "ESTIMATOR_NAME",
           "JUDGE_ACCURACY", "LENIENCY", "WORD_BIAS", "TOP_TAU_RUNS", "RERANK_DEPTH"]

_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five"}


class ParameterError(ValueError, TypeError):
    """A value that its parameter's declaration does not allow (wrong type or out of bounds).

    Both a ``ValueError`` and a ``TypeError``, as scikit-learn's ``InvalidParameterError``;
    raised by flags (a value other than True or False is a type error) and by parameters
    that also take objects of another type (a seed or a numpy Generator), where a value of
    neither kind is a type error and code catching either works.
    """


def _number(x: float) -> str:
    """A bound in words: ``1``, ``0.05``, and ``2**63`` for a large power of two."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        x = int(x)
        return f"2**{x.bit_length() - 1}" if x >= 2 ** 32 and x & (x - 1) == 0 else str(x)  # 1234567, not 1.23457e+06
    return f"{x:g}"


def _either(parts: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _is(value: Any, special: Any) -> bool:
    """``value`` is the special value ``special``: None is None, a word the same word, a
    number the same number (numpy integers too; a boolean never)."""
    if special is None or isinstance(special, str):
        return value is special if special is None else isinstance(value, str) and value == special
    return (not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Number)
            and value == special)


@dataclass(frozen=True)
class Param:
    """A declared parameter: type, bounds (inclusive unless ``*_open``), default, description.

    ``type`` is ``int``, ``float``, ``str`` or ``bool`` (a flag: True or False, or one of
    its ``sentinels``); a ``str`` parameter lists its ``choices`` (:meth:`among` sets them
    from the data at hand; ``synonyms``: other words for a choice, given back as the
    choice). An error lists the choices one way: quoted, each with its meaning where
    ``meanings`` gives one, and tells a near miss "did you mean".
    ``default=None`` makes the parameter required. ``symbol`` is the paper's letter (E, λ,
    k, d) for inequalities and sliders. Widgets and the command line build their controls
    from the same declaration (how a widget draws them is the widget's own).

    Beside numbers in bounds a parameter may accept ``keywords`` (words: ``"auto"``),
    ``sentinels`` (other values: ``None``, ``-1``) and objects of the types in ``also``
    (a numpy Generator, named ``also_doc``), each taken as it is; ``meanings`` says what a
    special value means. A bound may name another parameter (``low="relevance_level"``):
    its value comes from ``validate(..., given={"relevance_level": 2})``. ``note`` says why
    the bounds are what they are; :meth:`within` narrows them for one call.

    What an error says (policy): a number out of bounds is told the bounds, the sentinels
    and the other types it could have been (not the words); a value of no accepted kind is
    told everything the parameter accepts, except that where other types are accepted
    (``also``) it is told the kinds without bounds (``an integer or a numpy Generator``).
    """

    name: str
    type: type
    default: Any
    low: float | str | None = None
    high: float | str | None = None
    low_open: bool = False
    high_open: bool = False
    doc: str = ""
    choices: tuple[str, ...] | None = None
    label: str | None = None  # how errors name it (default: the name)
    symbol: str | None = None  # the paper's symbol, in "satisfy 0 ≤ E ≤ 1" (default: the name)
    keywords: tuple[str, ...] = ()  # words accepted besides numbers ("auto")
    sentinels: tuple[Any, ...] = ()  # other values accepted besides the bounds (None, -1)
    also: tuple[type, ...] = ()  # other types accepted as they are (np.random.Generator)
    also_doc: str = ""  # how errors name them ("a numpy Generator")
    meanings: tuple[tuple[Any, str], ...] = ()  # (special value, what it means): ("auto", "λ = 1 − Δ")
    note: str | None = None  # why the bounds are what they are, said in errors
    synonyms: tuple[tuple[str, str], ...] = ()  # (other word, the choice it names): ("smoothed", "M")

    def renamed(self, name: str, **changes: Any) -> Param:
        """The same declaration under another spelling (``rel`` for the relevance level)."""
        return replace(self, name=name, **{"label": None, **changes})

    def with_default(self, default: Any) -> Param:
        """The same declaration with a function's own default (bounds and message unchanged)."""
        return replace(self, default=default)

    def within(self, *, low: float | None = None, high: float | None = None, note: str | None = None) -> Param:
        """The same declaration with a bound set by the data at hand (``None``: unchanged);
        ``note`` says where the bound comes from.

        >>> JUDGMENTS.within(high=7, note="the number of qrels entries").validate(8, "f")
        Traceback (most recent call last):
        ...
        ValueError: f: judgments must be an integer with 1 ≤ judgments ≤ 7 (the number of qrels entries), got 8
        """
        return replace(self, low=self.low if low is None else low, high=self.high if high is None else high,
                       note=self.note if note is None else note)

    def increasing(self, values: Any, owner: str | None, *, name: str, noun: str) -> tuple:
        """One value or several, each checked by this declaration, as a tuple that increases
        without repeats (a single number is a tuple of one); else a ValueError naming the
        list ``name``, what it must be (increasing ``noun``) and what was given. An item is
        named ``name (noun symbol)`` in the item's own error.

        >>> MEASUREMENT_DEPTH.increasing(20, "f", name="depths", noun="measurement depths")
        (20,)
        >>> MEASUREMENT_DEPTH.increasing((100, 10), "f", name="depths", noun="measurement depths")
        Traceback (most recent call last):
        ...
        ValueError: f: depths must be increasing measurement depths without repeats, got (100, 10)
        >>> MEASUREMENT_DEPTH.increasing((10, 0), "f", name="depths", noun="measurement depths")
        Traceback (most recent call last):
        ...
        ValueError: f: depths (measurement depths k) must be an integer ≥ 1, got 0
        >>> MEASUREMENT_DEPTH.increasing(None, "f", name="depths", noun="measurement depths")
        Traceback (most recent call last):
        ...
        ValueError: f: depths must be one or several measurement depths, got None
        """
        prefix = f"{owner}: " if owner else ""
        label = f"{name} ({noun} {self.symbol})" if self.symbol else f"{name} ({noun})"
        if isinstance(values, (numbers.Number, str, bytes)):  # one value (True too: refused as a value)
            given = [values]
        else:
            try:
                given = list(values)
            except TypeError:
                raise ValueError(f"{prefix}{name} must be one or several {noun}, got {values!r}") from None
        checked = tuple(self.validate(v, owner, label=label) for v in given)
        if not checked or any(a >= b for a, b in zip(checked[:-1], checked[1:], strict=True)):
            raise ValueError(f"{prefix}{name} must be increasing {noun} without repeats, got {values!r}")
        return checked

    def among(self, choices) -> Param:
        """The same choice parameter with its choices set by the data at hand (the run sets a
        study has).

        >>> RUN_SET.among(("contributing", "non-contributing")).validate("all", None)
        Traceback (most recent call last):
        ...
        ValueError: run_set must be one of 'contributing' or 'non-contributing', got 'all'
        """
        return replace(self, choices=tuple(choices))

    def _choices_text(self) -> str:
        """The choices quoted, each with its meaning where declared: ``'S' (simplistic) or 'B' (background)``."""
        return _either([self._special(c) for c in self.choices or ()] or ["(no choice)"])

    def _near_miss(self, value: str) -> str:
        """``; did you mean 'tukey'?`` for a value close to a choice or a synonym, else nothing."""
        close = difflib.get_close_matches(value, [*(self.choices or ()), *dict(self.synonyms)], n=1)
        return f"; did you mean {close[0]!r}?" if close else ""

    # ----------------------------------------------------------------------------- words
    def _bound(self, bound: float | str | None, given: Mapping[str, Any] | None) -> tuple[Any, str | None]:
        """(value, text) of a bound; a bound naming another parameter reads ``given``."""
        if not isinstance(bound, str):
            return bound, None if bound is None else _number(bound)
        if given is None or bound not in given:
            raise TypeError(f"{self.name}'s bound is the value of {bound}: pass given={{{bound!r}: ...}}")
        return given[bound], f"{bound} ({given[bound]})"

    def _special(self, value: Any, meaning: bool = True) -> str:
        said = dict(self.meanings).get(value) if meaning and not isinstance(value, bool) else None
        return f"{value!r}" + (f" ({said})" if said else "")

    def _bounded(self, given: Mapping[str, Any] | None = None) -> str:
        """The declared type with its bounds: ``an integer ≥ 1``, ``a non-negative integer``."""
        kind = "an integer" if self.type is int else "a number"
        (lo, lo_text), (hi, hi_text) = self._bound(self.low, given), self._bound(self.high, given)
        lo_sign, hi_sign = ("<" if self.low_open else "≤"), ("<" if self.high_open else "≤")
        if lo is not None and hi is not None:
            return f"{kind} with {lo_text} {lo_sign} {self.name} {hi_sign} {hi_text}"
        if lo is not None:
            if self.low == 0 and not self.low_open and self.type is int:  # a declared 0, not a named bound
                return "a non-negative integer"
            return f"{kind} {'>' if self.low_open else '≥'} {lo_text}"
        if hi is not None:
            return f"{kind} {'<' if self.high_open else '≤'} {hi_text}"
        return kind

    def describe(self, wording: str = "be", *, part: str = "all", given: Mapping[str, Any] | None = None) -> str:
        """The allowed values in words: ``a number with 0 < p < 1``, ``an integer ≥ 1``; with
        ``wording="satisfy"`` the bounds alone: ``satisfy 0 ≤ E ≤ 1``. ``part="bounds"``
        leaves out the keywords (what a number out of bounds is told); ``part="kinds"`` the
        bounds and meanings (``a number or 'auto'``: what a value of no accepted kind is told).

        >>> BACKGROUND_RATE.describe(), BACKGROUND_RATE.describe("satisfy")
        ('a number with 0 ≤ background_rate ≤ 1', 'satisfy 0 ≤ E ≤ 1')
        >>> SMOOTHING.describe(), SMOOTHING.describe(part="kinds")
        ("a number with 0 ≤ smoothing ≤ 1 or 'auto' (λ = 1 − Δ)", "a number or 'auto'")
        >>> N_JOBS.describe(), N_JOBS.describe(part="kinds")
        ('None, -1 (every core) or an integer ≥ 1', 'None, -1 or an integer')
        """
        if self.type is str:
            return "one of " + self._choices_text()
        if self.type is bool:  # a flag: True, False and its sentinels (None)
            return _either(["True", "False"] + [self._special(s, part != "kinds") for s in self.sentinels])
        if wording == "satisfy" and self.low is not None and self.high is not None:
            (_, lo), (_, hi) = self._bound(self.low, given), self._bound(self.high, given)
            lo_sign, hi_sign = ("<" if self.low_open else "≤"), ("<" if self.high_open else "≤")
            words = "".join(f"{k!r} or " for k in self.keywords)
            return f"{words}satisfy {lo} {lo_sign} {self.symbol or self.name} {hi_sign} {hi}"
        meaning = part != "kinds"
        parts = [self._special(s, meaning) for s in self.sentinels]
        parts.append(("an integer" if self.type is int else "a number") if part == "kinds" else self._bounded(given))
        parts += [self.also_doc] if self.also else []
        parts += [] if part == "bounds" else [self._special(k, meaning) for k in self.keywords]
        return _either(parts)

    def error(self, value: Any, owner: str | None, *, label: str | None = None, wording: str = "be",
              note: str | None = None, part: str = "all", given: Mapping[str, Any] | None = None) -> ValueError:
        """The error for a bad ``value``: ``owner: label must be … (note), got value`` (a
        :class:`ParameterError` when the parameter also takes other types)."""
        verb = "" if wording == "satisfy" and self.type is not str and self.low is not None \
            and self.high is not None and not self.keywords else "be "
        hint = self._near_miss(value) if self.type is str and isinstance(value, str) else ""
        prefix = f"{owner}: " if owner else ""
        note = note if note is not None else self.note
        why = f" ({note})" if note else ""
        kind = ParameterError if self.also or self.type is bool else ValueError
        return kind(f"{prefix}{label or self.label or self.name} must {verb}"
                    f"{self.describe(wording, part=part, given=given)}{why}, got {value!r}{hint}")

    # ----------------------------------------------------------------------------- checks
    def validate(self, value: Any, owner: str | None, *, label: str | None = None, wording: str = "be",
                 note: str | None = None, given: Mapping[str, Any] | None = None) -> Any:
        """``value`` converted to the declared type, or a ValueError naming the parameter,
        what is allowed and what was passed (a :class:`ParameterError` for a flag and where
        other types are accepted). Numpy integers are integers (``np.int64(10)`` gives
        ``10``), numpy floats are numbers; booleans (``True``, ``np.True_``) never are, and a
        flag takes nothing else (``np.True_`` gives ``True``). ``owner`` (the function or
        command) prefixes the message; ``label`` overrides how the parameter is named (a
        command-line flag); ``note`` says why the bounds are what they are; ``given`` holds
        the parameters a bound names.

        >>> RANDOM_STATE.validate(-1, "randomization_test")
        Traceback (most recent call last):
        ...
        irnb.params.ParameterError: randomization_test: seed must be a non-negative integer or a numpy Generator, got -1
        """
        given_value = value  # the error shows what was passed, not its conversion

        def bad(part: str = "all") -> ValueError:
            return self.error(given_value, owner, label=label, wording=wording, note=note, part=part, given=given)

        if self.type is str:
            if isinstance(value, str) and value in dict(self.synonyms):
                return dict(self.synonyms)[value]
            if not isinstance(value, str) or value not in (self.choices or ()):
                raise bad()
            return value
        if self.type is bool:
            if any(_is(value, special) for special in self.sentinels):
                return value
            if not isinstance(value, (bool, np.bool_)):
                raise bad()
            return bool(value)
        for special in self.sentinels + self.keywords:
            if _is(value, special):
                return special
        if self.also and isinstance(value, self.also):
            return value
        wrong_kind = "kinds" if self.also else "all"
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, numbers.Real)):
            raise bad(wrong_kind)  # numpy integers count as integers; booleans never do
        if self.type is int:
            if not isinstance(value, numbers.Integral) and not float(value).is_integer():
                raise bad(wrong_kind)
            value = int(value)
        else:
            value = float(value)
            if value != value:  # NaN
                raise bad()
        low, high = self._bound(self.low, given)[0], self._bound(self.high, given)[0]
        if low is not None and (value <= low if self.low_open else value < low):
            raise bad("bounds")
        if high is not None and (value >= high if self.high_open else value > high):
            raise bad("bounds")
        return value

    def parse(self, raw: str, owner: str | None, *, label: str | None = None) -> Any:
        """The text of a value (``"0.8"``, ``"10"``, ``"auto"``) as a value, unchecked against
        the bounds; text that is no value of the declared kind is told the kinds:

        >>> SMOOTHING.parse("lots", None, label="--lambda")
        Traceback (most recent call last):
        ...
        ValueError: --lambda must be a number or 'auto', got 'lots'
        """
        return self._parse(raw, owner, label=label, wording="be", part="kinds")

    def _parse(self, raw: str, owner: str | None, *, label: str | None, wording: str, part: str) -> Any:
        raw = raw.strip()
        if self.type is str or raw in self.keywords:
            return raw
        try:
            return int(raw) if re.fullmatch(r"[+-]?\d+", raw) else float(raw)
        except ValueError:
            raise self.error(raw, owner, label=label, wording=wording, part=part) from None

    def convert(self, raw: str, owner: str | None, *, label: str | None = None, wording: str = "be") -> Any:
        """Parse the text of a value (``"0.8"``, ``"10"``, ``"graded"``) and validate it."""
        value = self._parse(raw, owner, label=label, wording=wording, part="all")
        return self.validate(value, owner, label=label, wording=wording)


@dataclass(frozen=True)
class ParamList:
    """A fixed number of values of one declared parameter, in non-decreasing order, each
    named (Ravana & Moffat's shallow ≤ medium ≤ deep judgment budgets).

    >>> BUDGET_LEVELS.within(high=100).describe()
    'three increasing numbers of judgments (shallow ≤ medium ≤ deep) between 1 and 100'
    >>> BUDGET_LEVELS.within(high=100).validate([10, 50, 100], "f")
    (10, 50, 100)
    """

    name: str
    item: Param
    names: tuple[str, ...]  # one per value, in order
    noun: str  # the values in words: "numbers of judgments"
    doc: str = ""

    def within(self, **bounds: Any) -> ParamList:
        """The same list with its items' bounds narrowed (:meth:`Param.within`)."""
        return replace(self, item=self.item.within(**bounds))

    def describe(self) -> str:
        """``three increasing numbers of judgments (shallow ≤ medium ≤ deep) between 1 and 100``."""
        count = _COUNTS.get(len(self.names), str(len(self.names)))
        text = f"{count} increasing {self.noun} ({' ≤ '.join(self.names)})"
        low, high = self.item.low, self.item.high
        if low is not None and high is not None and not (self.item.low_open or self.item.high_open):
            return f"{text} between {_number(low)} and {_number(high)}"
        return f"{text}, each {self.item.describe()}"

    def validate(self, values: Any, owner: str | None) -> tuple:
        """The values as a tuple, each checked by the item's declaration, in order; else a
        ValueError that names the list, says what it must be and what was given."""
        try:
            checked = tuple(self.item.validate(v, None) for v in values)
        except (TypeError, ValueError):  # not iterable, or an item out of bounds
            checked = ()
        if len(checked) != len(self.names) or any(a > b for a, b in zip(checked[:-1], checked[1:], strict=True)):
            prefix = f"{owner}: " if owner else ""
            raise ValueError(f"{prefix}{self.name} must be {self.describe()}, got {values!r}")
        return checked


@dataclass(frozen=True)
class Relation:
    """A bound between declared parameters checked together: the sum of the ``left``
    parameters must be ``≤`` (or, with ``sign="<"``, ``<``) the ``right`` one, a number, or
    the right one divided by ``divisor``; ``note`` says why (the simulator: a pool cannot be
    deeper than the runs). A bound on one parameter that another one sets, with the usual
    words, is a named bound instead (``Param(low="relevance_level")``).

    >>> pools = Relation(("pool_depth",), "run_depth", note="a pool cannot be deeper than the runs")
    >>> pools.describe()
    'pool_depth ≤ run_depth'
    >>> pools.check({"pool_depth": 2000, "run_depth": 1000}, "simulate")
    Traceback (most recent call last):
    ...
    ValueError: simulate: pool_depth (2000) must be ≤ run_depth (1000): a pool cannot be deeper than the runs
    >>> Relation(("a", "b"), 0.9, note="c").check({"a": 0.5, "b": 0.5}, None)
    Traceback (most recent call last):
    ...
    ValueError: a + b (0.5 + 0.5) must be ≤ 0.9: c
    """

    left: tuple[str, ...]  # parameters whose values are summed
    right: str | float  # a parameter, or a number
    sign: str = "≤"  # or "<"
    divisor: float | None = None  # the right parameter's value divided by this
    note: str = ""

    def __post_init__(self):
        if self.sign not in ("≤", "<"):
            raise ValueError(f"Relation: sign must be '≤' or '<', got {self.sign!r}")
        if self.divisor is not None and not isinstance(self.right, str):
            raise ValueError(f"Relation: a divisor divides a parameter, got right={self.right!r}")

    @property
    def names(self) -> tuple[str, ...]:
        """The parameters the relation reads."""
        return self.left + ((self.right,) if isinstance(self.right, str) else ())

    def _right(self) -> str:
        if not isinstance(self.right, str):
            return _number(self.right)
        return self.right if self.divisor is None else f"{self.right} / {_number(self.divisor)}"

    def describe(self) -> str:
        """The relation in words: ``novel_runs + keyword_runs < num_runs``."""
        return f"{' + '.join(self.left)} {self.sign} {self._right()}"

    def check(self, values: Mapping[str, Any], owner: str | None) -> None:
        """Nothing if the (validated) ``values`` satisfy the relation; else a ValueError
        that names the parameters with their values (the given ones as they are, a
        computed bound in short form) and says why."""
        total = sum(values[name] for name in self.left)
        if not isinstance(self.right, str):
            bound, shown = self.right, self._right()
        else:
            bound = values[self.right] if self.divisor is None else values[self.right] / self.divisor
            shown = f"{self._right()} ({values[self.right] if self.divisor is None else _number(bound)})"
        if (total < bound) if self.sign == "<" else (total <= bound):
            return
        prefix = f"{owner}: " if owner else ""
        given = " + ".join(str(values[name]) for name in self.left)
        why = f": {self.note}" if self.note else ""
        raise ValueError(f"{prefix}{' + '.join(self.left)} ({given}) must be {self.sign} {shown}{why}")


def random_generator(seed: Any, owner: str | None, *, note: str | None = None) -> np.random.Generator:
    """``seed`` itself if a numpy Generator, else a new one seeded by the integer ``seed``
    (checked by :data:`RANDOM_STATE`; ``note`` says what the seed makes reproducible).

    >>> float(random_generator(7, "f").random()) == float(np.random.default_rng(7).random())
    True
    """
    seed = RANDOM_STATE.validate(seed, owner, note=note)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


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
#: Documents in the collection (trec_eval -N): utility counts the non-relevant ones not retrieved.
NUM_DOCS = Param("num_docs", int, 0, low=0,
                 doc="documents in the collection (trec_eval -N; 0: unknown), for utility's fourth coefficient")
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
SMOOTHING = Param("smoothing", float, "auto", low=0.0, high=1.0, label="smoothing (λ)", symbol="λ",
                  keywords=("auto",), meanings=(("auto", "λ = 1 − Δ"),),
                  doc="λ: weight of X_I against X_B in X_M; 'auto' (the default) means λ = 1 − Δ per topic")
#: RBP persistence p.
PERSISTENCE = Param("p", float, 0.8, low=0.0, high=1.0, low_open=True, high_open=True,
                    doc="persistence p: probability of moving on to the next document")


@dataclass(frozen=True)
class LevelGains(Param):
    """A parameter whose value is (level, gain) pairs in the order given: an integer grade
    level and the gain of its documents, written ``level:gain,…`` (``1:3,2:9``). The order is
    kept because it matters (trec_eval sorts levels whose gains are less than 1 apart in the
    order given, :mod:`irnb.custom_gains`); ``()``: the grades are the gains.

    >>> GAINS.convert("1:3,2:9,-1:0.5", "measure nDCG")
    ((1, 3.0), (2, 9.0), (-1, 0.5))
    >>> GAINS.convert("1=3", "measure nDCG")
    Traceback (most recent call last):
    ...
    ValueError: measure nDCG: gains must be level:gain pairs separated by commas (an integer grade level, a number), \
e.g. 1:3,2:9, got '1=3'
    """

    def describe(self, wording: str = "be", *, part: str = "all", given: Mapping[str, Any] | None = None) -> str:
        return "level:gain pairs separated by commas (an integer grade level, a number), e.g. 1:3,2:9"

    def validate(self, value: Any, owner: str | None, *, label: str | None = None, wording: str = "be",
                 note: str | None = None, given: Mapping[str, Any] | None = None) -> tuple[tuple[int, float], ...]:
        """The pairs as a tuple of (int, float), from pairs or a mapping; else a ValueError
        naming the parameter, what it must be and what was passed; a text is read as written
        in a measure name (:meth:`convert`)."""
        if isinstance(value, str):
            return self.convert(value, owner, label=label)
        pairs = value.items() if isinstance(value, Mapping) else value
        try:
            out = []
            for level, gain in pairs:
                if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Integral):
                    raise TypeError
                if isinstance(gain, (bool, np.bool_)) or not isinstance(gain, numbers.Real) or gain != gain:
                    raise TypeError
                out.append((int(level), float(gain)))
        except (TypeError, ValueError):
            raise self.error(value, owner, label=label) from None
        return tuple(out)

    def convert(self, raw: str, owner: str | None, *, label: str | None = None,
                wording: str = "be") -> tuple[tuple[int, float], ...]:
        """``"1:3,2:9"`` as ((1, 3.0), (2, 9.0)); an empty text as ()."""
        pairs = []
        for part in filter(None, (p.strip() for p in raw.split(","))):
            level, colon, gain = part.partition(":")
            if not colon or not re.fullmatch(r"[+-]?\d+", level.strip()):
                raise self.error(raw, owner, label=label)
            try:
                pairs.append((int(level), float(gain)))
            except ValueError:
                raise self.error(raw, owner, label=label) from None
        try:
            return self.validate(pairs, owner, label=label)
        except ValueError:  # a NaN gain: the error shows the text given
            raise self.error(raw, owner, label=label) from None

    def error(self, value: Any, owner: str | None, *, label: str | None = None, **_: Any) -> ValueError:
        prefix = f"{owner}: " if owner else ""
        return ValueError(f"{prefix}{label or self.label or self.name} must be {self.describe()}, got {value!r}")


#: Gains given per grade level (trec_eval's ``-m ndcg.1=3,2=9``); none: the grades are the gains.
GAINS = LevelGains("gains", tuple, (), doc="the gain of each grade level given (a level not given gains its grade; "
                   "trec_eval's rel_level=gain parameters)")

#: Judgment budget N of a budget pool.
JUDGMENTS = Param("judgments", int, 1000, low=1,
                  doc="judgment budget N: the first N qrels entries in pooling order are judged")
#: Share of the qrels kept by random subsampling (Büttcher et al. 2007).
FRACTION = Param("fraction", float, 0.5, low=0.05, high=1.0,
                 doc="fraction of each topic's qrels kept by uniform random subsampling")
#: Resamples of a randomization test or a bootstrap.
# a million resamples leave a p-value or an interval end a Monte Carlo error below 0.0005; more only
# fill memory (the resamples are held at once: runs × resamples numbers)
N_RESAMPLES = Param("n_resamples", int, 10_000, low=1, high=1_000_000,
                    note="more resamples change no printed digit and need runs × resamples numbers in memory",
                    doc="resamples of the randomization test or bootstrap")
#: Relevance samples of the unjudged documents (irnb.sampling): each costs one evaluation of every run.
SAMPLES = Param("samples", int, 1000, low=1, high=100_000,
                note="every sample is one evaluation of every run; the interval ends settle long before",
                doc="relevance samples of the unjudged documents (each one evaluation of every run)")
#: Level of a sampled interval (the share of the samples between its ends).
LEVEL = CONFIDENCE.renamed("level", doc="level of the sampled intervals (0.95: the central 95% of the samples)")
#: Prior of an unjudged document's relevance (irnb.sampling): a number E, a named prior, or per-document probabilities.
PRIOR = Param("prior", float, "run", low=0.0, high=1.0, symbol="E", keywords=("run", "pool", "estimated"),
              also=(np.ndarray,),
              also_doc="per-document probabilities (an array (run, topic, rank), a DataFrame topic, docno, "
                       "probability, or CompletedQrels)",
              meanings=(("run", "the run's judged documents, Fröbe et al."),
                        ("pool", "the topic's judged documents, Fröbe et al."),
                        ("estimated", "E estimated as Ravana & Moffat do")),
              doc="probability that an unjudged document is relevant: E, 'run', 'pool', 'estimated', or "
                  "per-document probabilities")
#: Seed of a random generator (a numpy Generator is accepted where said: :data:`RANDOM_STATE`).
SEED = Param("seed", int, 0, low=0, high=2 ** 63, high_open=True, doc="random seed")
#: A seed or a numpy Generator used as it is (numpy takes any non-negative integer): :func:`random_generator`.
RANDOM_STATE = replace(SEED, high=None, high_open=False, also=(np.random.Generator,), also_doc="a numpy Generator",
                       doc="random seed, or a numpy Generator used as it is")
#: Parallel workers of a sweep (irnb.sweep): None runs in this process, -1 on every core.
N_JOBS = Param("n_jobs", int, None, low=1, sentinels=(None, -1),
               meanings=((-1, "every core"),),
               doc="parallel workers: None (this process, one task after another), -1 (every core) or a number")
#: Number of comparisons m of a Bonferroni correction (at least the number of p-values).
COMPARISONS = Param("m", int, None, low=1, label="m (number of comparisons)",
                    doc="number of comparisons m of a Bonferroni correction (default: the number of p-values)")
#: Groups shown in Büttcher et al.'s Table 5 (two runs each).
MAX_GROUPS = Param("max_groups", int, 4, low=1, note="groups shown, two runs each",
                   doc="groups shown in buttcher2007-table5, two runs each")
#: Repetitions of a randomized experiment.
REPEATS = Param("repeats", int, 1, low=1, doc="repetitions of the randomized experiment")
#: Random draws of a design replayed on a collection (e.g. which runs contribute to a pool).
DRAWS = Param("draws", int, 12, low=1, doc="random draws of the replayed design")
#: How far an estimate may lie from the truth and count as close: within a factor of it.
FACTOR = Param("factor", float, 2.0, low=1.0, low_open=True,
               doc="an estimate within truth / factor … factor · truth counts as close")
#: How many runs contribute to a pool.
CONTRIBUTING_RUNS = Param("contributing", int, None, low=1, label="contributing (number of pool-contributing runs)",
                          doc="number of runs that contribute to the pool")
#: Runs shown in a plot.
TOP_RUNS = Param("top", int, 20, low=1, label="top (runs shown in a plot)", doc="runs shown in a plot")
#: Significance tests (irnb.stats.pairwise_test): paired tests per pair, or ANOVA / Tukey over all runs.
TEST = Param("test", str, "anova", choices=("t", "wilcoxon", "sign", "randomization", "anova", "tukey"),
             meanings=(("t", "paired t-test"), ("wilcoxon", "Wilcoxon signed-rank test"), ("sign", "sign test"),
                       ("randomization", "paired randomization test"),
                       ("anova", "one-way ANOVA + Bonferroni multiple comparisons"), ("tukey", "Tukey HSD")),
             doc="anova: one-way ANOVA over all runs + Bonferroni multiple comparisons (the papers' ANOVA "
                 "then Bonferroni; one-way and α are irnb's reading); t, wilcoxon, sign, randomization: paired "
                 "tests per pair, uncorrected; tukey: Tukey HSD")
#: The paired tests (one p-value per pair, from that pair's scores alone): a comparison table's tests.
PAIRED_TEST = replace(TEST, default="t", choices=TEST.choices[:4], meanings=TEST.meanings[:4],
                      doc="paired test over topics")
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
_ESTIMATOR_NAMES = (("S", "simplistic"), ("B", "background"), ("I", "interpolated"), ("M", "smoothed"))
#: A point estimator by its letter, its name or its symbol (``"M"``, ``"smoothed"``, ``"X_M"``: all ``"M"``).
ESTIMATOR_NAME = replace(ESTIMATOR, meanings=_ESTIMATOR_NAMES,
                         synonyms=tuple((word, key) for key, name in _ESTIMATOR_NAMES for word in (name, f"X_{key}")),
                         doc="point estimator: a letter (S, B, I, M), its name (smoothed) or its symbol (X_M)")

# ------------------------------------------------------------------------------- choices
# Words from a fixed list.
#: A multiple-comparison correction of p-values that corrects (``correction`` without ``"none"``).
ADJUSTMENT = CORRECTION.renamed("method", label="adjustment method", choices=CORRECTION.choices[:3],
                                doc="multiple-comparison correction of the p-values (bh = Benjamini-Hochberg)")
#: How the confidence intervals of a pair figure are adjusted for the multiple comparisons.
INTERVAL_ADJUSTMENT = Param("intervals", str, "test", choices=("test", "bonferroni", "none"),
                            label="intervals (adjustment for multiple comparisons)",
                            doc="test: Bonferroni-adjusted over every pair of runs when the test corrects for "
                                "multiplicity (anova, tukey), unadjusted otherwise; bonferroni: always adjusted; "
                                "none: never")
#: A column of a pairwise-test result shown as a run × run matrix.
MATRIX_VALUE = Param("value", str, "p_value", label="matrix value",
                     choices=("mean_diff", "d_z", "statistic", "direction", "p_value", "n_topics"),
                     doc="the pairwise tests' column shown as a run × run matrix")
#: Which topics a pair of runs is compared on: those both answer, or those every run answers.
TOPIC_RULE = Param("topics", str, "pairwise", choices=("pairwise", "common"),
                   doc="pairwise: the topics both runs answer; common: the topics every run answers")
#: scipy's Wilcoxon treatment of zero differences.
WILCOXON_ZERO_METHOD = Param("zero_method", str, "wilcox", choices=("wilcox", "pratt", "zsplit"),
                             doc="zero differences: dropped (wilcox), ranked then dropped (pratt) or split between "
                                 "the signs (zsplit), as scipy")
#: scipy's Wilcoxon null distribution: exact, the normal approximation, or chosen by the number of topics.
WILCOXON_METHOD = Param("method", str, "auto", choices=("auto", "exact", "asymptotic"),
                        doc="Wilcoxon p-value: exact, asymptotic (normal) or auto, as scipy")
#: The reference judgments of a leave-one-group-out experiment (Büttcher et al.).
BIAS_REFERENCE = Param("reference", str, "qrels", choices=("qrels", "pool"),
                       note="'qrels': the official qrels minus the left-out runs' unique pool entries; "
                            "'pool': depth-d pools",
                       doc="reference judgments: the official qrels, or the depth-d pools")
#: The layout of Baillie et al.'s case tables.
CASE_FORM = Param("form", str, "2007", choices=("2007", "2008"),
                  note="Baillie et al. 2007 Table 1, 2008 Tables 3-4",
                  doc="case table layout: 2007 (Table 1) or 2008 (Tables 3-4)")
#: What a repeated docno in a run or qrels file does.
ON_DUPLICATE = Param("on_duplicate", str, "error", choices=("error", "keep_first"),
                     doc="a repeated docno in a topic: an error, or keep its first line")
#: trec_eval's major version whose rules irnb follows (9.x: scores compared as 32-bit floats).
TREC_VERSION = Param("compat", str, "9", choices=("9", "10"),
                     doc="trec_eval major version: 9 compares scores as 32-bit floats, 10 as doubles")
#: Where a Binder link opens: JupyterLab, or the dashboard in Voila.
BINDER_KIND = Param("kind", str, "lab", choices=("lab", "voila"),
                    doc="lab: JupyterLab on the first notebook; voila: the dashboard")
#: The runs a Büttcher et al. reproduction ranks: the contributing runs (the paper ranks "all
#: 42 runs in the pool", §5.1–5.2), or every run of the data.
RANKED_RUNS = Param("ranked", str, "pool", choices=("pool", "all"),
                    note="'pool': the contributing runs, as the paper; 'all': every run",
                    doc="runs ranked: pool (the contributing runs, as the paper) or all (every run)")
#: The runs whose depth-d pools Ravana & Moffat's Figure 1 reads E from.
POOLED_RUNS = Param("pooled", str, "contributors", choices=("contributors", "all"),
                    note="'contributors': the collection's own, as the paper; 'all': every run (irnb's what-if)",
                    doc="runs pooled to depth d for E: contributors (the paper's pool-contributing systems) or all "
                        "(irnb's what-if)")
#: The assessment measure paired with a performance measure; its choices are the assessment
#: families the measures declare (:meth:`Param.among`).
ASSESSMENT_FAMILY = Param("assessment", str, None, choices=(), label="assessment (an assessment measure family)",
                          note="or a full name such as 'Judged@100'",
                          doc="the assessment measure: a family (Judged, MAA, ...) or a full name (Judged@100)")
#: A budget study's run set; its choices are the study's (:meth:`Param.among`).
RUN_SET = Param("run_set", str, "non-contributing", choices=("contributing", "non-contributing"),
                doc="the runs compared: the contributing or the non-contributing runs")

# ------------------------------------------------------------------------------- flags
#: Every qrels topic counts, an unanswered one as 0 (trec_eval -c).
COMPLETE = Param("complete", bool, False,
                 doc="average over every qrels topic, a topic the run does not answer scoring 0 (trec_eval -c)")
#: Wilcoxon's continuity correction (scipy's ``correction``).
CONTINUITY_CORRECTION = Param("correction", bool, False, doc="continuity correction of the Wilcoxon test's "
                                                             "normal approximation (scipy's correction)")
#: A measure's direction in the decision matrix (an unjudged share is lower-is-better).
HIGHER_IS_BETTER = Param("higher_is_better", bool, True, doc="a higher score of the measure is better")
#: The assessment measure's direction in the decision matrix.
ASSESSMENT_HIGHER_IS_BETTER = HIGHER_IS_BETTER.renamed("assessment_higher_is_better",
                                                       doc="a higher score of the assessment measure is more assessed")
#: Leave-one-group-out: entries that no contributing run pooled stay judged.
KEEP_UNPOOLED = Param("keep_unpooled", bool, False,
                      doc="keep the qrels entries that no contributing run pooled judged in every reduced pool")
#: A text parsed by pyarrow's CSV reader on its own threads (a very large file read alone).
PARSE_THREADS = Param("threads", bool, False, doc="parse the text on pyarrow's threads, blocks of it at once")
#: Suggest only documents that are in the qrels (a simulation that can read their grades).
ONLY_QRELS = Param("only_qrels", bool, False, doc="suggest only documents in the qrels (whose grade is known)")
#: An assessor's judgment of a suggested document.
RELEVANT = Param("relevant", bool, None, doc="the assessor's judgment: True if the document is relevant")
#: Completed qrels carry the predicted probabilities, not only the 0/1 grades.
PROBABILITIES = Param("probabilities", bool, True, doc="keep each prediction's probability of relevance")
#: Predict the unjudged qrels entries only, not the runs' unjudged documents.
WITHIN_QRELS = Param("within_qrels", bool, False,
                     doc="predict the qrels entries left unjudged only, not every unjudged document the runs rank")
#: A sweep's progress bar: None shows it where someone watches (a terminal, a notebook).
PROGRESS = Param("progress", bool, None, sentinels=(None,), meanings=((None, "automatic"),),
                 doc="show a progress bar (None: only in a terminal or a notebook)")
#: A download's progress bar (irnb.datasets.trec_covid): shown only when asked for.
DOWNLOAD_PROGRESS = replace(PROGRESS, default=False, sentinels=(), meanings=(),
                            doc="show a progress bar while files download")
#: The TREC-COVID round irnb downloads (the later rounds' judgments are round 1's deep truth).
TREC_COVID_ROUND = Param("round", int, 1, low=1, high=1, note="the later rounds' judgments are round 1's deep truth",
                         doc="TREC-COVID round (round 1: 143 runs, 30 topics)")

#: Whether a claim of a paper's headline holds on the data (None: the data cannot test it).
HOLDS = Param("holds", bool, None, sentinels=(None,), label="Claim.holds",
              doc="the claim holds on the data (None: the data cannot test it)")

#: Score against the Experiment's complete judgments (its truth), not the official qrels.
TRUTH = Param("truth", bool, False, doc="score against the Experiment's complete judgments (truth=), not the qrels")
#: trec_eval -J: each ranking condensed to its judged documents.
JUDGED_ONLY = Param("judged_only", bool, False, doc="condense each ranking to its judged documents (trec_eval -J)")
#: A tidy table's per-topic rows (False: the means alone).
PER_TOPIC = Param("per_topic", bool, True, doc="one row per run and topic, besides the means")
#: A tidy table's topic "all" rows: each run's mean over the evaluated topics.
INCLUDE_ALL = Param("include_all", bool, True, doc="add the topic 'all' rows: each run's mean over its topics")
#: Keep each pair's per-topic differences (a Wilcoxon or sign test needs them).
KEEP_DIFF = Param("keep_diff", bool, True, doc="keep each pair of runs' per-topic differences")
#: A bootstrap interval of the geometric mean (values floored at 1e-5, as trec_eval's GMAP).
LOG_SCALE = Param("log_scale", bool, False, doc="the interval of the geometric mean (values floored at 1e-5)")
#: Count only pairs of runs from different groups.
ACROSS_GROUPS = Param("across_groups", bool, False, doc="count only pairs of runs from different groups")
#: Replace a collection's existing files instead of refusing to.
OVERWRITE = Param("overwrite", bool, False, doc="replace existing files instead of refusing to")
#: Attach TREC-COVID's deep judgments to round 1 as its truth.
WITH_TRUTH = Param("with_truth", bool, False, doc="attach the deep judgments as the Experiment's truth")
#: Open JupyterLab in a web browser.
OPEN_BROWSER = Param("open_browser", bool, True, doc="open JupyterLab in a web browser")

# ------------------------------------------------------------------------------- how something is shown
# A view's canvas, its control panel, a reproduction's figure: options of the display, not
# parameters of the analysis. Their defaults and choices are the display code's own; the rule
# of their kind (True or False; one word of a list) is this one, the caller naming the option
# (``label=``) and its choices (:meth:`Param.among`).
#: A display option that is on or off.
DISPLAY_FLAG = Param("flag", bool, False, doc="a display option: True or False")
#: A display option chosen from the caller's words.
DISPLAY_CHOICE = Param("choice", str, None, choices=(), doc="a display option: one of the caller's words")

#: Ravana & Moffat's three judgment budgets (shallow ≤ medium ≤ deep), each a judgment budget N.
BUDGET_LEVELS = ParamList("budgets", JUDGMENTS, names=("shallow", "medium", "deep"), noun="numbers of judgments",
                          doc="shallow, medium and deep judgment budgets (Ravana & Moffat 2010 Tables 1-3)")

#: An automatic judge's accuracy: the chance that it gives a relevant document its true grade (irnb.judges).
JUDGE_ACCURACY = Param("accuracy", float, 1.0, low=0.0, high=1.0, symbol="a",
                       doc="a: probability that the judge gives a relevant document its true grade (per grade)")
#: An automatic judge's leniency: its false-positive rate on non-relevant documents (irnb.judges).
LENIENCY = Param("leniency", float, 0.0, low=0.0, high=1.0, symbol="ℓ",
                 doc="ℓ: probability that the judge calls a non-relevant document relevant (false positive)")
#: An automatic judge's susceptibility to the topic's words (irnb.judges).
WORD_BIAS = Param("word_bias", float, 0.0, low=0.0, high=1.0, symbol="β",
                  doc="β: share of the remaining chance that the judge calls a non-relevant document containing "
                      "the topic's title words relevant (false-positive rate ℓ + β·(1 − ℓ))")
#: How many of a run's top documents a judge reranks (irnb.judges: the run's twin).
RERANK_DEPTH = MEASUREMENT_DEPTH.renamed("rerank_depth", default=20, symbol=None,
                                         doc="the run's top documents reordered by the judge's grades")
#: The best runs (by the reference) among which a rank correlation is read (Clarke & Dietz 2024).
TOP_TAU_RUNS = TOP_RUNS.renamed("top", default=10, label="top (the best runs by the reference)",
                                doc="the top runs by the reference scores among which τ is read")

#: Every declared parameter by name (the registry the docs and a test read).
PARAMS: Mapping[str, Param] = MappingProxyType({p.name: p for p in (
    MEASUREMENT_DEPTH, POOL_DEPTH, RUN_DEPTH, NUM_DOCS, RELEVANCE_LEVEL, ALPHA, CONFIDENCE, BACKGROUND_RATE, SMOOTHING,
    PERSISTENCE, JUDGMENTS, FRACTION, N_RESAMPLES, SAMPLES, PRIOR, SEED, REPEATS, DRAWS, CONTRIBUTING_RUNS, FACTOR,
    TOP_RUNS, TEST,
    CORRECTION, ESTIMATOR, STRATEGY, SUGGESTIONS, ROUND_SIZE, BUDGET, DEGREE, N_JOBS, COMPARISONS, MAX_GROUPS,
    JUDGE_ACCURACY, LENIENCY, WORD_BIAS,
    TREC_COVID_ROUND)})
#: Every declared flag by name (True or False, or a sentinel where declared).
FLAGS: Mapping[str, Param] = MappingProxyType({p.name: p for p in (
    COMPLETE, CONTINUITY_CORRECTION, HIGHER_IS_BETTER, ASSESSMENT_HIGHER_IS_BETTER, KEEP_UNPOOLED, ONLY_QRELS,
    RELEVANT, PROBABILITIES, WITHIN_QRELS, PROGRESS, HOLDS, TRUTH, JUDGED_ONLY, PER_TOPIC, INCLUDE_ALL, KEEP_DIFF,
    LOG_SCALE, ACROSS_GROUPS, OVERWRITE, WITH_TRUTH, OPEN_BROWSER)})
#: Parameters declared from another one (same bounds or choices, a narrower use).
DERIVED: Mapping[str, Param] = MappingProxyType({"paired_test": PAIRED_TEST, "report_format": REPORT_FORMAT,
                                                 "random_state": RANDOM_STATE, "download_progress": DOWNLOAD_PROGRESS,
                                                 "level": LEVEL})
#: Every declared choice beyond the registry's own (words from a fixed list), by what it chooses.
CHOICES: Mapping[str, Param] = MappingProxyType({
    "adjustment": ADJUSTMENT, "interval_adjustment": INTERVAL_ADJUSTMENT, "matrix_value": MATRIX_VALUE,
    "topic_rule": TOPIC_RULE,
    "wilcoxon_zero_method": WILCOXON_ZERO_METHOD, "wilcoxon_method": WILCOXON_METHOD, "bias_reference": BIAS_REFERENCE,
    "case_form": CASE_FORM, "on_duplicate": ON_DUPLICATE, "trec_version": TREC_VERSION, "binder_kind": BINDER_KIND,
    "ranked": RANKED_RUNS, "pooled": POOLED_RUNS, "run_set": RUN_SET,
    "estimator_name": ESTIMATOR_NAME})


# =============================================================================== builders
def add_option(parser, *flags: str, param: Param, default: Any = ..., help: str | None = None, **kwargs: Any):
    """Add the command-line option ``flags`` for ``param``: its type, its choices, and a help
    text from its description and default. Values are checked by the command (through
    ``param.validate`` with the flag as label) so that the error names the flag. A flag
    parameter (type ``bool``, default False) is an option without a value: True when given.

    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> _ = add_option(p, "--test", param=TEST)
    >>> p.parse_args(["--test", "tukey"]).test
    'tukey'
    """
    if param.type is bool:  # a flag: given or not (True when given), never "--flag False"
        if param.default is not False or default is not ...:
            raise ValueError(f"add_option: {param.name} is a flag that is off unless given; its default must be "
                             f"False, got {param.default if default is ... else default!r}")
        return parser.add_argument(*flags, dest=kwargs.pop("dest", param.name), action="store_true",
                                   help=help if help is not None else param.doc, **kwargs)
    default = param.default if default is ... else default
    text = help if help is not None else param.doc
    if default is not None and "(default" not in text:
        text = f"{text} (default {default})"
    if param.choices is not None:
        kwargs.setdefault("choices", param.choices)
    return parser.add_argument(*flags, dest=kwargs.pop("dest", param.name), type=kwargs.pop("type", param.type),
                               default=default, help=text, **kwargs)


def slider_range(param: Param, *, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``min`` and ``max`` of a slider for ``param`` (each when declared); a bound that
    names another parameter takes its value from ``given`` (the other control's value). The
    slider's step is the widget's own.

    >>> slider_range(SMOOTHING)
    {'min': 0.0, 'max': 1.0}
    >>> slider_range(POOL_DEPTH)
    {'min': 1}
    >>> slider_range(JUDGMENTS.within(high=500))
    {'min': 1, 'max': 500}
    """
    cast = int if param.type is int else float
    low, high = param._bound(param.low, given)[0], param._bound(param.high, given)[0]
    out: dict[str, Any] = {}
    if low is not None:
        out["min"] = cast(low)
    if high is not None:
        out["max"] = cast(high)
    return out
