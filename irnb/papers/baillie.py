"""Reproductions of Baillie, Azzopardi & Ruthven (ECIR 2007) and their IP&M 2008 journal
version: the System Evaluation Decision Matrix across measurement depths.

=====================  =========================================================================
id                     what it shows
=====================  =========================================================================
baillie2007-table1     share of run pairs in cases 1–4 for P@10 … P@1000 (A_p@d) and MAP (MAA)
baillie2007-fig2       two pairs across depths: P@d and A_p@d with intervals and the pair's case
baillie2008-table3     share of pairs in cases 1–4 for P@d with A_p@d
baillie2008-table4     share of pairs in cases 1–4 for MAP@d with A_p@d
baillie2008-fig4       one pair per case across depths (MAP@d and A_p@d)
baillie2008-fig11      two pairs that swap from a strong to a weak comparison as d grows
baillie2008-fig12      runs ranked by MAP with their A_p@1000 (irnb adds the Recall of Assessment); Kendall's τ
=====================  =========================================================================

The papers' procedure is the default everywhere: "the ANOVA test" over all runs, then
"Bonferroni multiple comparisons". The papers name neither α nor the ANOVA's design: a
one-way ANOVA (runs as the only factor) at α = 0.05 is irnb's reading, and the notes say so
(``test=`` and ``alpha=`` change it). The pair figures draw 95 % intervals Bonferroni-adjusted
over every pair of runs, as the 2008 paper adjusts its error bars for the multiple comparisons.

Verdicts: each reproduction's :class:`~irnb.papers.Headline` tests every claim of the paper's
headline by a rule below (:func:`_falls`, :func:`_rises`, :func:`_constant`, …), with the
same margins on every data set (``_SHARE_MARGIN`` …). A claim that rests on A_p@k is judged
under its three readings (``Judged`` = A_p@k ÷ k, ``JudgedRet`` = |X ∩ A| / |X|, ``NotUnj`` =
trec_eval's 1 − unj@k); where they disagree the verdict says "depends on the reading".
Pairs in the figures are chosen by a stated rule that follows the papers' description of their
pairs (the papers hand-picked Robust 2003/2005 runs; where the text is lost or silent the rule is
irnb's reading, and the notes say so), ties broken by a fixed order, never by the verdict; a pair
counts as showing an effect at depth d only when both runs retrieve at least d documents on
every topic both answer (an effect of a run cut short is not the papers' effect). The notes
give the rules and the chosen runs, and ``pairs=`` picks others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from ..decision import (ASSESSMENT_FAMILIES, CASES, DEPTHS, STRENGTH, case_counts, compare_table, depth_curves,
                        procedure_label)
from ..measures import parse_measure
from ..metrics import evaluate
from ..params import ALPHA, MEASUREMENT_DEPTH, TEST
from . import figures
from .registry import Claim, Headline, Reproduction, Source, register

__all__: list[str] = []

PAPER_2007 = "Baillie, Azzopardi & Ruthven, ECIR 2007"
PAPER_2008 = "Baillie, Azzopardi & Ruthven, IP&M 2008"

# Table 1 of the 2007 paper as printed (seed 000): collection, pairs, then per column the
# proportions of cases 1–4. Typos kept as printed (TREC 6 @100 "0.033", TREC 8 "8000" pairs).
_TABLE1_TEXT = """\
TREC 3\t780\t0.69 0.07 0.17 0.07\t0.67 0.14 0.11 0.09\t0.58 0.32 0.05 0.05\t0.44 0.49 0.00 0.06\t0.41 0.57 0.00 0.02\t0.64 0.13 0.04 0.19
TREC 4\t528\t0.72 0.12 0.16 0.00\t0.65 0.16 0.19 0.00\t0.43 0.39 0.05 0.13\t0.35 0.48 0.02 0.15\t0.33 0.5 0.01 0.16\t0.5 0.25 0.02 0.24
TREC 6\t3081\t0.60 0.16 0.13 0.11\t0.55 0.26 0.10 0.10\t0.45 0.42 0.033 0.10\t0.45 0.44 0.01 0.10\t0.44 0.45 0.00 0.10\t0.6 0.2 0.02 0.18
TREC 8\t8000\t0.70 0.04 0.19 0.06\t0.69 0.07 0.17 0.07\t0.52 0.31 0.01 0.16\t0.51 0.36 0.00 0.13\t0.57 0.33 0.00 0.10\t0.57 0.22 0.04 0.18
WEB 04\t561\t0.35 0.00 0.65 0.00\t0.03 0.25 0.42 0.30\t0.02 0.19 0.51 0.28\t0.01 0.19 0.53 0.26\t0.01 0.19 0.53 0.27\t0.02 0.37 0.40 0.20
ROBUST 03\t2145\t0.83 0.01 0.03 0.13\t0.74 0.09 0.01 0.16\t0.55 0.2 0.00 0.25\t0.52 0.22 0.00 0.26\t0.57 0.17 0.00 0.27\t0.65 0.14 0.00 0.21
ROBUST 05\t1485\t0.77 0.12 0.07 0.03\t0.66 0.23 0.07 0.04\t0.53 0.38 0.00 0.10\t0.57 0.35 0.00 0.08\t0.60 0.31 0.00 0.08\t0.68 0.19 0.00 0.13
HARD 05\t2775\t0.71 0.20 0.05 0.05\t0.66 0.25 0.05 0.04\t0.57 0.39 0.00 0.04\t0.57 0.42 0.00 0.02\t0.57 0.42 0.00 0.01\t0.72 0.18 0.00 0.10
"""
_TABLE1_COLUMNS = ("@10", "@30", "@100", "@500", "@1000", "MAP/AA")
_CASES = (1, 2, 3, 4)
_WEAK = (2, 4)

#: The papers' assessment measure A_p@d, the share of a run's top d that is judged: irnb's
#: ``Judged`` family, every reproduction's default ``assessment``.
PAPERS_ASSESSMENT = "Judged"
#: The 2008 paper's Fig. 12 depth: runs ranked by MAP beside their A_p@1000.
FIG12_DEPTH = 1000

# The 2008 paper's Kendall's τ between the MAP and A_p@1000 rankings of all runs (Section 4.2.4).
_FIG12_TAU = {"TREC 3": 0.394, "TREC 6": 0.402, "TREC 7": 0.402, "TREC 8": 0.462}

# =============================================================================== verdict rules
# Margins of the rules that judge each claim: the same on every data set.
_SHARE_MARGIN = 0.05  # a share of the pairs "rises" / "falls": by at least 5 points of the pairs
_MIN_PAIRS = 20  # with fewer pairs one pair moves a share by more than the margin: no share claim is tested
_CONSTANT_RATIO = 0.5  # "approximately constant": the smallest share at least half the largest
_MIN_SHARE = 0.02  # a share below this at every depth is too small to tell constant from falling
_TAU_BAND = 0.15  # τ "as the papers'": within this distance of their range
_EXTREME_RATIO = 0.9  # "less of their lists judged": a mean A_p at most this fraction of the middle runs'
_EVEN_UP_TO = 500  # 2007 Fig. 2 (top): "significantly higher precision … up until P@500"
#: A_p@k's three readings (irnb.measures): ÷ k; ÷ min(k, |X|); trec_eval's 1 − unj@k.
_READINGS = (PAPERS_ASSESSMENT, "JudgedRet", "NotUnj")


def _falls(first: float, last: float) -> bool:
    """A share falls: by at least ``_SHARE_MARGIN`` (rounded to 12 decimals, so that
    .07 → .02 falls by exactly .05)."""
    return bool(round(float(first) - float(last), 12) >= _SHARE_MARGIN)


def _rises(first: float, last: float) -> bool:
    """A share rises: by at least ``_SHARE_MARGIN``."""
    return bool(round(float(last) - float(first), 12) >= _SHARE_MARGIN)


def _constant(shares: Sequence[float]) -> bool | None:
    """A share stays approximately constant across depths: the smallest is at least
    ``_CONSTANT_RATIO`` of the largest (the 2008 paper's Table 4, .04–.07, holds; its
    Table 3, .17 → .05, does not). None when the share is below ``_MIN_SHARE`` at every
    depth: too few pairs to tell constant from falling."""
    shares = [float(x) for x in shares]
    if max(shares) < _MIN_SHARE:
        return None
    return bool(min(shares) >= _CONSTANT_RATIO * max(shares))


def _falls_or_constant(shares: Sequence[float]) -> bool | None:
    """The 2008 paper's "either decreased or remained approximately constant": falls from the
    first depth to the last (:func:`_falls`), or :func:`_constant`."""
    return True if _falls(shares[0], shares[-1]) else _constant(shares)


def _outnumbers(share: float, other: float) -> bool:
    """One share exceeds another by at least ``_SHARE_MARGIN`` (e.g. strong → weak changes
    against weak → strong ones)."""
    return bool(round(float(share) - float(other), 12) >= _SHARE_MARGIN)


def _near_range(value: float, low: float, high: float) -> bool:
    """A value (Kendall's τ) within ``_TAU_BAND`` of the papers' range [low, high]."""
    value = float(value)
    return bool(round(value - (low - _TAU_BAND), 12) >= 0 and round(high + _TAU_BAND - value, 12) >= 0)


def _extremes_below(top: float, middle: float, bottom: float) -> bool | None:
    """Runs at both extremes have less of their lists judged than the middle runs: each
    extreme's mean at most ``_EXTREME_RATIO`` of the middle's. None without a middle."""
    if any(x != x for x in (top, middle, bottom)):
        return None
    return bool(top <= _EXTREME_RATIO * middle and bottom <= _EXTREME_RATIO * middle)


def _full_length(min_length, depth: int):
    """A pair may show an effect at ``depth`` only when both runs retrieve at least ``depth``
    documents on every topic both answer (``min_length``: the shorter run's fewest)."""
    return np.asarray(min_length) >= depth


def _even_pattern(p_significant, a_significant, cases, beyond):
    """2007 Fig. 2 (top), per pair (rows: pairs, columns: the depths through ``_EVEN_UP_TO``):
    the same run significantly better in P at every depth (``p_significant``), A_p significantly
    different at exactly one depth (``a_significant``), that depth beyond the pool depth
    (``beyond``, per depth) and the pair in case 4 there (``cases``): the paper's "not
    significantly so with the exception of A@100", where "a measurement depth larger than the
    pooling depth can cause uncertainty"."""
    p, a = np.atleast_2d(p_significant).astype(bool), np.atleast_2d(a_significant).astype(bool)
    weak_beyond = a & (np.atleast_2d(cases) == 4) & np.atleast_2d(beyond).astype(bool)
    return p.all(axis=1) & (a.sum(axis=1) == 1) & weak_beyond.any(axis=1)


def _converge_pattern(case_first, x_better_first, case_last, y_lead_last):
    """2007 Fig. 2 (bottom), per pair: X significantly better at the first depth on evenly
    judged lists (case 3), no significant difference at the deepest depth (case 1 or 2), and
    there Y (the other run) with the higher A_p (``y_lead_last`` > 0)."""
    return ((np.asarray(case_first) == 3) & np.asarray(x_better_first, dtype=bool)
            & np.isin(case_last, (1, 2)) & (np.asarray(y_lead_last, dtype=float) > 0))


# The 2008 paper's case at the first depths of Fig. 11 (top) was lost in the seed text ("… comparison at
# depths 10 and 30, that then moves towards a Case 2 comparison"); the paper calls the pattern "a swap from
# 'strong' to 'weak'" and says of the bottom pair only that UIC0501 "was on average higher … until a depth of
# 100". The assessment is comparable there, so the lost case is 1 or 3: two honest readings, both tested.
#: reading → the cases allowed at the first depth (X significantly better, or X ahead by mean).
_SWAP_READINGS = {"case 3": (3,), "case 1 or 3": (1, 3)}


def _swap_pattern(case_first, x_ahead_first, y_ahead_last, y_more_judged_last, *, strong=(3,)):
    """2008 Fig. 11, per pair: a strong comparison at the first depth (a case in ``strong``:
    case 3 alone, irnb's stricter reading of the lost text, or case 1 or 3) with X ahead
    (``x_ahead_first``: significantly better in case 3, ahead by mean in case 1), Y ahead
    (higher mean) at the deepest depth, and there Y significantly more judged."""
    return (np.isin(case_first, strong) & np.asarray(x_ahead_first, dtype=bool)
            & np.asarray(y_ahead_last, dtype=bool) & np.asarray(y_more_judged_last, dtype=bool))


def _reading_claim(paper: str, rule: str, values: Mapping[str, object], chosen: str,
                   judge: Callable[[object], bool | None], show: Callable[[object], str], untested: str) -> Claim:
    """A claim judged by ``judge`` on the value under each A_p reading (``values``: family →
    value, holding ``chosen``, the reading the reproduction was asked for, and the three of
    ``_READINGS``). ``holds`` is the chosen reading's; ``irnb`` shows it, and the other
    readings' where they show otherwise; ``untested`` is the reason when ``judge`` says None."""
    holds = judge(values[chosen])
    readings = {f"{fam}@k": judge(values[fam]) for fam in _READINGS if fam in values}
    mine = show(values[chosen])
    others = [f"{fam}@k: {show(values[fam])}" for fam in _READINGS if fam != chosen and fam in values
              and show(values[fam]) != mine]
    irnb = mine + (f" ({'; '.join(others)})" if others else "")
    return Claim(paper, irnb, rule, holds, reason=untested if holds is None else "", readings=readings)



# =============================================================================== shared pieces
def _columns(labels: Sequence[str]) -> pd.MultiIndex:
    tuples = [("pairs", "")] + [(label, case) for label in labels for case in _CASES]
    return pd.MultiIndex.from_tuples(tuples, names=["depth", "case"])


def _paper_table1() -> pd.DataFrame:
    rows, index = [], []
    for line in _TABLE1_TEXT.splitlines():
        name, pairs, *cells = line.split("\t")
        index.append(name)
        rows.append([int(pairs)] + [float(x) for cell in cells for x in cell.split()])
    return pd.DataFrame(rows, index=pd.Index(index, name="collection"), columns=_columns(_TABLE1_COLUMNS))


def _test_words(test: str, alpha: float) -> str:
    words = procedure_label(test, alpha=alpha)
    if test == "anova":
        return (f"{words} (irnb's reading of the papers' 'ANOVA test' then 'Bonferroni multiple comparisons': "
                f"they name neither α nor the ANOVA's design)")
    return f"{words} (the papers: an ANOVA, then Bonferroni multiple comparisons)"


def _judged_words(k: int = 10, assessment: str = PAPERS_ASSESSMENT) -> str:
    """What the assessment measure is (for A_p@k: how it treats a run shorter than k), from
    the measure's own declaration."""
    return parse_measure(f"{assessment}@{k}").spec.description


def _assessment(assessment, owner: str) -> str:
    """The assessment family A@d is taken from (``Judged`` = A_p@d, the papers')."""
    if not isinstance(assessment, str):
        raise TypeError(f"{owner}: assessment must be a measure family such as 'Judged', 'JudgedRet' or 'Unj', "
                        f"got {assessment!r}")
    family = parse_measure(f"{assessment}@10").family  # unknown names get parse_measure's did-you-mean
    if family not in ASSESSMENT_FAMILIES:
        raise ValueError(f"{owner}: assessment must measure how much of a ranking is judged, one of "
                         f"{', '.join(ASSESSMENT_FAMILIES)}; got {assessment!r}")
    return family


def _a_name(assessment: str) -> str:
    return "A_p@d" if assessment == PAPERS_ASSESSMENT else f"{assessment}@d"


def _settings(source: Source, pool_depths: Sequence[int]):
    """(row name, judged mask or None) for the data's qrels and each requested pool depth."""
    from ..pooling import depth_pool

    out = [(source.label, None)]
    for d in pool_depths:
        pool = depth_pool(source.experiment, depth=int(d))
        out.append((f"{source.label}: {pool.description}", pool.judged))
    return out


def _proportion_table(source: Source, columns, *, form, assessment, depths, test, alpha, pool_depths) -> pd.DataFrame:
    """The case shares of ``columns`` (label, measure) by :func:`irnb.decision.case_counts`
    in the paper's layout: one row per setting, ``pairs`` then (label, case 1–4)."""
    settings = {name: (source.experiment, judged) for name, judged in _settings(source, pool_depths)}
    tidy = case_counts(settings, form=form, measures=[m for _, m in columns], assessment=assessment, depths=depths,
                       test=test, alpha=alpha)
    label = {m: lab for lab, m in columns}
    tidy = tidy.assign(label=tidy["measure"].map(label))
    wide = tidy.pivot(index="setting", columns=["label", "case"], values="proportion")
    pairs = tidy.groupby("setting", sort=False)["pairs"].first()
    out = pd.DataFrame({("pairs", ""): pairs}).join(wide)
    out = out.loc[list(settings)].reindex(columns=_columns([lab for lab, _ in columns]))
    out.index.name = "collection"
    out.attrs = {"pairing": tidy.attrs.get("pairing", {}), "procedure": tidy.attrs.get("procedure")}
    return out


def _fmt(x: float) -> str:
    """A share as the papers print it: two decimals, no leading zero (.17)."""
    if x != x:
        return "–"
    text = f"{x:.2f}"
    return text[1:] if text.startswith("0.") else ("-" + text[2:] if text.startswith("-0.") else text)


def _case(row: pd.Series, label: str, case: int) -> float:
    return float(row[(label, case)])


def _trend_sentence(row: pd.Series, first: str, last: str, what: str) -> str:
    return (f"{what}: case 3 (strong, different) {_fmt(row[(first, 3)])} → {_fmt(row[(last, 3)])}, "
            f"case 4 (weak, different) {_fmt(row[(first, 4)])} → {_fmt(row[(last, 4)])}, "
            f"case 2 (weak, not different) {_fmt(row[(first, 2)])} → {_fmt(row[(last, 2)])} (from {first} to {last})")


_NO_SIGNIFICANCE = ("No pair differs significantly at any depth (cases 3 and 4 are empty): the data cannot show "
                    "the trend.")


def _beyond(source: Source, depths: Sequence[int]) -> str:
    d = source.pool_depth
    if d is None:
        return "the pool depth is unknown"
    deeper = [x for x in depths if x > d]
    return (f"pool depth {d}: " + (f"{', '.join(f'@{x}' for x in deeper)} measure beyond it" if deeper
                                   else "no depth measures beyond it"))


# =============================================================================== 2007 Table 1
def _any_significant(row: pd.Series) -> bool:
    """Some pair differs significantly at some depth (cases 3 or 4 non-empty)."""
    labels = [label for label in row.index.get_level_values(0).unique() if label != "pairs"]
    return sum(float(row[(label, case)]) for label in labels for case in (3, 4)) > 0


def _share_judge(rule: Callable[[pd.Series], bool | None], *, significance: bool) -> Callable[[pd.Series], bool | None]:
    """``rule`` on a table row, or None when the row has too few pairs for a share claim, or
    (``significance``) no pair differs significantly at any depth."""
    def judge(row: pd.Series) -> bool | None:
        if int(row[("pairs", "")]) < _MIN_PAIRS or (significance and not _any_significant(row)):
            return None
        return rule(row)
    return judge


def _untested(row: pd.Series, *, significance: bool) -> str:
    pairs = int(row[("pairs", "")])
    if pairs < _MIN_PAIRS:
        return (f"{pairs} pair(s): one pair moves a share by more than {_SHARE_MARGIN:g} "
                f"(share claims need at least {_MIN_PAIRS} pairs)")
    if significance and not _any_significant(row):
        return "no pair differs significantly at any depth (cases 3 and 4 are empty)"
    return f"the case-3 share is below {_MIN_SHARE:g} at every depth: too small to call constant or not"


def _reading_rows(source: Source, columns, *, form: str, chosen: str, row: pd.Series, depths, test, alpha) -> dict:
    """The first row of the case-share table under each A_p reading (``row``: the one
    already computed for ``chosen``)."""
    rows = {chosen: row}
    for fam in _READINGS:
        if fam not in rows:
            rows[fam] = _proportion_table(source, columns, form=form, assessment=fam, depths=depths, test=test,
                                          alpha=alpha, pool_depths=()).iloc[0]
    return rows


def _sensitivity(rows: Mapping[str, pd.Series], first: str, last: str) -> str:
    """The notes' sensitivity line: the trend under each reading of A_p."""
    parts = [f"{fam}@d: {_trend_sentence(rows[fam], first, last, 'as d grows')}" for fam in _READINGS]
    return ("Sensitivity to the A_p reading (Judged@d = A_p@d ÷ d, JudgedRet@d ÷ min(d, |X|), NotUnj@d = trec_eval's "
            "1 − unj@d; they differ only for runs shorter than d): " + "; ".join(parts) + ".")


def _significant(row: pd.Series, label: str) -> float:
    return float(row[(label, 3)] + row[(label, 4)])


def _share_rule_words(what: str, direction: str, first: str, last: str, significance: bool) -> str:
    return (f"the share of pairs {what} {direction} from {first} to {last} by at least {_SHARE_MARGIN:g} of the "
            f"pairs (untested with fewer than {_MIN_PAIRS} pairs"
            + (" or no significant difference at any depth)" if significance else ")"))


# 2007 §3 on Table 1, claim by claim: (words, the paper's quote or None, what the rule counts, direction,
# the share, the rule, whether the share needs a significant pair). Case 4 and case 2 are two claims: the
# paper's "weak" cases rising among the significant differences ("from 7% to 8.7%", TREC-3 case 4 at
# P@10 → P@30) is one paragraph, the same trend among the comparisons not significantly different (case 2)
# the next.
_TABLE1_SPEC = (
    ("significant differences (cases 3 + 4) fall", None, "significantly different (cases 3 + 4)", "falls",
     lambda r, x: _significant(r, x), _falls, True),
    ("case 3 (strong, significant) falls", "'17% to 11%' (TREC-3, P@10 → P@30)", "in case 3", "falls",
     lambda r, x: _case(r, x, 3), _falls, True),
    ("case 4 (weak, significant) rises", "'an increase in “weak” cases from 7% to 8.7%' (TREC-3, P@10 → P@30)",
     "in case 4", "rises", lambda r, x: _case(r, x, 4), _rises, True),
    ("case 2 (weak, not significant) rises", "'A similar trend … for system comparisons where the null hypothesis "
     "that both systems have equal performance cannot be rejected'", "in case 2", "rises",
     lambda r, x: _case(r, x, 2), _rises, False),
)


def _table1_claims(paper: pd.DataFrame, rows: Mapping[str, pd.Series], chosen: str) -> list[Claim]:
    """Baillie et al. 2007 §3 on Table 1 (:data:`_TABLE1_SPEC`): significant differences
    (cases 3 + 4) fall, the strong significant ones (case 3) fall, the weak significant ones
    (case 4) rise, and the weak comparisons without a significant difference (case 2) rise as
    d grows."""
    theirs = paper.mean(axis=0)
    first, last = "@10", "@1000"
    claims = []
    for words, quote, what, direction, value, rule, significance in _TABLE1_SPEC:
        counted = sum(rule(value(paper.loc[c], first), value(paper.loc[c], last)) for c in paper.index)
        said = (f"{words}: {_fmt(value(theirs, first))} → {_fmt(value(theirs, last))}, {first} → {last} "
                f"(mean of {len(paper)} collections; the rule holds in {counted} of {len(paper)})"
                + (f"; {quote}" if quote else ""))
        claims.append(_reading_claim(
            said, _share_rule_words(what, direction, first, last, significance), rows, chosen,
            _share_judge(lambda r, value=value, rule=rule: rule(value(r, first), value(r, last)),
                         significance=significance),
            lambda r, value=value: f"{_fmt(value(r, first))} → {_fmt(value(r, last))}",
            _untested(rows[chosen], significance=significance)))
    return claims


def _paper_mean_words(paper: pd.DataFrame, first: str = "@10", last: str = "@1000") -> str:
    """The notes' sentence on the rules applied to the mean of the paper's own collections:
    which claim's rule the paper's mean does not meet, and by how much it moves."""
    theirs = paper.mean(axis=0)
    short = []
    for words, _quote, _what, direction, value, rule, _significance in _TABLE1_SPEC:
        a, b = value(theirs, first), value(theirs, last)
        if not rule(a, b):
            moved = a - b if direction == "falls" else b - a
            short.append(f"'{words}' moves by {moved:.3f} ({a:.3f} → {b:.3f})")
    if not short:
        return f"On the mean of the paper's {len(paper)} collections every rule holds."
    return (f"On the mean of the paper's {len(paper)} collections (before rounding), "
            + "; ".join(short) + f": less than the {_SHARE_MARGIN:g} margin, so the paper's own mean does not "
            "meet that rule.")


def _table1_notes(source: Source, *, test: str, alpha: float, fam: str, given: bool, paper: pd.DataFrame,
                  mine: pd.Series, headline: Headline, rows) -> str:
    """2007 Table 1's notes; ``given``: the caller chose the assessment family (else MAP pairs with MAA)."""
    theirs = paper.mean(axis=0)
    notes = [
        f"Setting: every pair of the {source.describe()}; {_test_words(test, alpha)}. Columns: P@d tested with "
        f"{_a_name(fam)} ({_judged_words(assessment=fam)}), and MAP with "
        + ("MAA (the 2007 paper's pairing)" if not given else
           f"{fam}@{DEPTHS[-1]} (the paper: MAA; A_p@d replaced by {fam}@d)")
        + "; each cell is the share of pairs in case 1, 2, 3, 4.",
        f"Differs from the paper: {len(paper)} TREC collections (1990s ad hoc, Web 04, Robust, HARD; runs "
        f"pooled to depth 100 or less and measured to 1000) against {source.label}; {_beyond(source, DEPTHS)}.",
        f"Paper (mean of its {len(paper)} collections): {_trend_sentence(theirs, '@10', '@1000', 'as d grows')}.",
        f"irnb ({source.label}): {_trend_sentence(mine, '@10', '@1000', 'as d grows')}; "
        f"MAP/MAA: case 3 (strong) {_fmt(mine[('MAP/AA', 3)])}, case 4 (weak) {_fmt(mine[('MAP/AA', 4)])} "
        f"(paper mean {_fmt(theirs[('MAP/AA', 3)])}, {_fmt(theirs[('MAP/AA', 4)])}; TREC-3: '3.7 % significant "
        "differences are “strong” compared to 19% “weak” cases').",
        f"Rules (the same on every data set): a share rises or falls when it moves by at least {_SHARE_MARGIN:g} of "
        f"the pairs from @10 to @1000; share claims need at least {_MIN_PAIRS} pairs. Applied to each of the "
        f"paper's own {len(paper)} collections, each rule holds in the count its claim gives. "
        + _paper_mean_words(paper),
        f"Verdict: {headline.summary()}.",
        _sensitivity(rows, "@10", "@1000"),
    ]
    return "\n".join(notes)


@register("baillie2007-table1", "Share of run pairs in decision-matrix cases 1–4 by measurement depth "
          "(P@d with A_p@d, MAP with MAA)", f"{PAPER_2007}, Table 1", needs=("pairs",))
def _table1(source: Source, *, test: str = TEST.default, alpha: float = ALPHA.default, pool_depths: Sequence[int] = (),
            assessment: str | None = None):
    """``pool_depths`` adds one row per depth-d pool of the contributing runs (the papers'
    collections differ in pool depth); ``assessment`` replaces A for every column by that
    family at the column's depth (MAP: at 1000), e.g. ``"JudgedRet"``."""
    fam = PAPERS_ASSESSMENT if assessment is None else _assessment(assessment, "baillie2007-table1")
    columns = [(f"@{d}", f"P@{d}") for d in DEPTHS] + [("MAP/AA", "AP")]
    table = _proportion_table(source, columns, form="2007", assessment=None if assessment is None else fam,
                              depths=DEPTHS, test=test, alpha=alpha, pool_depths=pool_depths)
    paper = _paper_table1()
    mine, theirs = table.iloc[0], paper.mean(axis=0)
    # the claims read the P@d columns only: the readings need no MAP column
    rows = _reading_rows(source, columns[:-1], form="2007", chosen=fam, row=mine.drop(index="MAP/AA", level=0),
                         depths=DEPTHS, test=test, alpha=alpha)
    claims = _table1_claims(paper, rows, fam)
    headline = Headline(f"as d grows from @10 to @1000 (mean of {len(paper)} collections): significant differences "
                        f"{_fmt(_significant(theirs, '@10'))} → {_fmt(_significant(theirs, '@1000'))}, case 3 "
                        f"{_fmt(theirs[('@10', 3)])} → {_fmt(theirs[('@1000', 3)])}, case 4 (weak, significant) "
                        f"{_fmt(theirs[('@10', 4)])} → {_fmt(theirs[('@1000', 4)])}, case 2 (weak, not significant) "
                        f"{_fmt(theirs[('@10', 2)])} → {_fmt(theirs[('@1000', 2)])}", claims)
    notes = _table1_notes(source, test=test, alpha=alpha, fam=fam, given=assessment is not None, paper=paper,
                          mine=mine, headline=headline, rows=rows)
    return Reproduction("baillie2007-table1", "", f"{PAPER_2007}, Table 1", table, paper,
                        notes, source.label, headline=headline)


# =============================================================================== pairs across depths
class _Grid:
    """Every pair's decision at every depth: measure ``family@d`` with ``assessment@d``
    (A_p@d = ``Judged@d`` by default), and with each of A_p's three readings
    (``by_reading``); ``min_length``: per pair, the fewest documents either run retrieves on
    a topic both answer (:func:`_full_length`)."""

    def __init__(self, source: Source, family: str, depths: Sequence[int], test: str, alpha: float,
                 assessment: str = PAPERS_ASSESSMENT):
        self.family, self.depths, self.test, self.alpha = family, tuple(depths), test, alpha
        self.assessment = assessment
        self.readings = tuple(dict.fromkeys((assessment, *_READINGS)))
        self.measures = {d: (f"{family}@{d}", f"{assessment}@{d}") for d in self.depths}
        names = [f"{family}@{d}" for d in self.depths] + [f"{r}@{d}" for r in self.readings for d in self.depths]
        self.ev = evaluate(source.experiment, names)
        self.by_reading = {
            r: {d: compare_table(self.ev, f"{family}@{d}", assessment=f"{r}@{d}", test=test,
                                 alpha=alpha).set_index(["run_a", "run_b"]) for d in self.depths}
            for r in self.readings}
        self.tables = self.by_reading[assessment]
        self.cases = _case_grid(self.tables)
        self.names = list(self.ev.run_names)
        exp = source.experiment
        length = exp.length[exp.run_index(self.names)]
        index = self.cases.index
        pos = {n: i for i, n in enumerate(self.names)}
        la = length[[pos[a] for a in index.get_level_values(0)]]
        lb = length[[pos[b] for b in index.get_level_values(1)]]
        shared = (la > 0) & (lb > 0)
        fewest = np.where(shared, np.minimum(la, lb), np.iinfo(np.int32).max).min(axis=1, initial=np.iinfo(np.int32).max)
        self.min_length = pd.Series(fewest, index=index)

    def key(self, a: str, b: str) -> tuple[str, str]:
        for r in (a, b):
            if r not in self.names:
                import difflib

                close = difflib.get_close_matches(str(r), self.names, n=3)
                raise ValueError(f"pairs: unknown run {r!r}" + (f"; did you mean {', '.join(map(repr, close))}?"
                                                                 if close else ""))
        if a == b:
            raise ValueError(f"pairs: a pair needs two different runs, got {a!r} twice")
        return (a, b) if self.names.index(a) < self.names.index(b) else (b, a)

    def column(self, d: int, name: str) -> pd.Series:
        return self.tables[d][name]

    def full(self, depth: int) -> np.ndarray:
        """Per pair: both runs retrieve at least ``depth`` documents on every shared topic."""
        return _full_length(self.min_length.to_numpy(), depth)

    def curves(self, pairs: Sequence[tuple[str, str]], labels: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(wide table per pair and depth, tidy :func:`irnb.decision.depth_curves` of every
        pair with a ``pair`` column, for drawing)."""
        parts = [depth_curves(self.ev, a, b, family=self.family, depths=self.depths, assessment=self.assessment,
                              test=self.test, alpha=self.alpha).assign(pair=label)
                 for label, (a, b) in zip(labels, pairs, strict=True)]
        tidy = pd.concat(parts, ignore_index=True)
        tidy.attrs = dict(parts[0].attrs)  # what produced the cases and the bars
        wide = []
        for label, (a, b) in zip(labels, pairs, strict=True):
            part = tidy[tidy["pair"] == label]
            for d in self.depths:
                at = part[part["depth"] == d].set_index(["kind", "run"])
                wide.append({"pair": label, "depth": d, "run_a": a, "run_b": b,
                             "measure": at.loc[("measure", a), "measure"], "a": at.loc[("measure", a), "mean"],
                             "b": at.loc[("measure", b), "mean"], "p": at.loc[("measure", a), "p_value"],
                             "assessment": at.loc[("assessment", a), "measure"],
                             "A_a": at.loc[("assessment", a), "mean"], "A_b": at.loc[("assessment", b), "mean"],
                             "p_A": at.loc[("assessment", a), "p_value"], "case": int(at["case"].iloc[0])})
        return pd.DataFrame(wide).set_index(["pair", "depth"]), tidy

    def sequence(self, a: str, b: str) -> str:
        return " ".join(str(int(c)) for c in self.cases.loc[self.key(a, b)])


def _case_grid(tables: Mapping[int, pd.DataFrame]) -> pd.DataFrame:
    return pd.DataFrame({d: t["case"] for d, t in tables.items()})


def _kinds(source: Source, runs: Sequence[str]) -> str:
    """``run (kind, contributing)`` for the embedded default, ``run (contributing)`` otherwise."""
    exp = source.experiment
    info = None if source.collection is None else source.collection.run_info.set_index("run")
    out = []
    for r in runs:
        bits = []
        if info is not None:
            bits.append(str(info.loc[r, "kind"]))
        bits.append("contributing" if exp.contributors[exp.run_index(r)[0]] else "not contributing")
        out.append(f"{r} ({', '.join(bits)})")
    return ", ".join(out)


def _xy(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pair of a compare table (index run_a, run_b): X = the run ahead by mean, Y = the
    other, and whether X is run_a."""
    a = table.index.get_level_values(0).to_numpy(dtype=object)
    b = table.index.get_level_values(1).to_numpy(dtype=object)
    x_is_a = table["mean_diff"].to_numpy() > 0
    return np.where(x_is_a, a, b), np.where(x_is_a, b, a), x_is_a


def _swap_scores(tables: Mapping[int, pd.DataFrame], depths: Sequence[int], *, swap: bool,
                 strong: Sequence[int] = (3,)) -> pd.DataFrame:
    """How each pair shows the papers' strong-to-weak pattern from the first depth to the
    deepest: ``swap`` (2008 Fig. 11, :func:`_swap_pattern`, strong at the first depth = a case
    in ``strong``) or not (2007 Fig. 2 bottom, :func:`_converge_pattern`). One row per pair
    (the tables' index): ``full`` (the pattern holds), ``held`` (how many of its three parts
    hold: strong at first with X ahead; Y more judged at the deepest, significantly for
    ``swap``; X's lead gone), ``lead`` (Y's A_p lead at the deepest depth), ``x``, ``y``."""
    t0, t1 = tables[depths[0]], tables[depths[-1]]
    x, y, x_is_a = _xy(t0)
    lead = t1["assessment_diff"].to_numpy() * np.where(x_is_a, -1.0, 1.0)
    case0, case1 = t0["case"].to_numpy(), t1["case"].to_numpy()
    # X ahead at the first depth: the significantly better run in case 3, ahead by mean otherwise
    x_ahead = np.where(case0 == 3, t0["better"].to_numpy(dtype=object) == x, t0["mean_diff"].to_numpy() != 0)
    diff1 = t1["mean_diff"].to_numpy()
    if swap:
        y_more = t1["more_assessed"].to_numpy(dtype=object) == y
        gone = ((diff1 < 0) == x_is_a) & (diff1 != 0)  # Y's mean ahead at the deepest depth
        full = _swap_pattern(case0, x_ahead, gone, y_more, strong=strong)
        first = np.isin(case0, strong) & x_ahead
    else:
        y_more = lead > 0
        gone = np.isin(case1, (1, 2))
        full = _converge_pattern(case0, x_ahead, case1, lead)
        first = (case0 == 3) & x_ahead
    held = first.astype(int) + y_more.astype(int) + gone.astype(int)
    return pd.DataFrame({"full": full, "held": held, "lead": lead, "x": x, "y": y}, index=t0.index)


def _first_gap(tables: Mapping[int, pd.DataFrame], depths: Sequence[int]) -> np.ndarray:
    """|measure difference| at the first depth: the fixed tie-break among pairs."""
    return np.abs(tables[depths[0]]["mean_diff"].to_numpy())


def _pick(scores: pd.DataFrame, eligible: np.ndarray, n: int, gap: np.ndarray, *, exclude=(), then=None) -> list:
    """The ``n`` pairs to show: eligible pairs with the full pattern first, then those with
    ``then`` (per pair: the pattern under a second reading), then the most parts held, then
    the largest first-depth difference (ties: run order); better-at-first run first; with
    whether each shows the full pattern."""
    free = ~scores.index.isin(list(exclude))
    free = free if free.any() else np.ones(len(scores), dtype=bool)  # two runs: one pair serves every panel
    keep = eligible & free if (eligible & free).any() else free  # no eligible pair: the closest of all
    idx = np.flatnonzero(keep)
    sub = scores.iloc[idx]
    full = (sub["full"].to_numpy(dtype=bool) & eligible[idx]).astype(int)
    also = np.zeros(len(idx), dtype=int) if then is None else (np.asarray(then, dtype=bool)[idx] & eligible[idx])
    order = np.lexsort((-gap[idx], -sub["held"].to_numpy(), -np.asarray(also, dtype=int), -full))
    top = sub.iloc[order[:n]]
    shows = full[order[:n]]
    picked = [((x, y), bool(f)) for x, y, f in zip(top["x"], top["y"], shows, strict=True)]
    return (picked * n)[:n]  # fewer pairs than panels (two runs): repeat


def _check_pairs(grid: _Grid, pairs, n: int, owner: str) -> list[tuple[str, str]]:
    pairs = [tuple(p) for p in pairs]
    if len(pairs) != n or any(len(p) != 2 for p in pairs):
        raise ValueError(f"{owner}: pairs must be {n} (run, run) pairs, got {pairs!r}")
    for a, b in pairs:
        grid.key(a, b)
    return pairs


def _pairs_setting(source: Source, grid: _Grid, measure: str, what: str, curves: pd.DataFrame) -> str:
    return (f"Setting: {source.describe()}; {measure} and {_a_name(grid.assessment)} "
            f"({_judged_words(assessment=grid.assessment)}) of {what}, means over the topics both runs answered "
            f"with {curves.attrs['intervals']} (disjoint bars mark a significant difference, as the 2008 paper "
            f"draws them); cases from {_test_words(grid.test, grid.alpha)}.")


def _pair_notes(grid: _Grid, source: Source, pairs, labels) -> list[str]:
    out = []
    for label, (a, b) in zip(labels, pairs, strict=True):
        out.append(f"{label}: {_kinds(source, (a, b))}; cases at "
                   f"{', '.join(f'@{d}' for d in grid.depths)}: {grid.sequence(a, b)}.")
    return out


def _eligibility_words(grid: _Grid, depth: int) -> str:
    n = int(grid.full(depth).sum())
    return (f"{n} of {len(grid.cases)} pairs have both runs retrieving at least {depth} documents on every topic both "
            f"answer")


def _count_claim(paper: str, rule: str, counts: Mapping[str, int], chosen: str, total: int,
                 untested: str | None) -> Claim:
    """An existence claim: holds when at least one eligible pair shows the pattern, under
    each reading (``counts``: family → pairs showing it); None with ``untested``."""
    if untested:
        return Claim(paper, "untested", rule, None, reason=untested)
    return _reading_claim(paper, rule, counts, chosen, lambda n: n >= 1,
                          lambda n: f"{n} of {total} eligible pairs", "")


def _swap_claim(paper: str, rule: str, counts: Mapping[tuple[str, str], int], chosen: str, first: int, total: int,
                untested: str | None) -> Claim:
    """2008 Fig. 11's existence claim under each reading of the lost case (``_SWAP_READINGS``)
    and each A_p reading (``counts``: (case reading, family) → pairs showing the pattern).
    ``holds`` is the stricter case reading's under ``chosen``; ``irnb`` shows it, and the
    other readings' where they show otherwise."""
    if untested:
        return Claim(paper, "untested", rule, None, reason=untested)
    strict = next(iter(_SWAP_READINGS))
    fams = [f for f in _READINGS if any(k[1] == f for k in counts)]
    label = {(text, fam): f"{fam}@k, {text} at @{first}" for text in _SWAP_READINGS for fam in fams}
    readings = {label[key]: counts[key] >= 1 for key in label if key in counts}
    parts = []
    for text in _SWAP_READINGS:
        here = {fam: counts[text, fam] for fam in dict.fromkeys((chosen, *fams)) if (text, fam) in counts}
        if len(set(here.values())) == 1:  # the A_p readings agree: one count
            parts.append(f"{text} at @{first}: {here[chosen]} of {total} eligible pairs")
        else:
            parts.append(f"{text} at @{first}: " + ", ".join(f"{fam}@k {n}" for fam, n in here.items())
                         + f" of {total} eligible pairs")
    irnb = "; ".join(parts)
    return Claim(paper, irnb, rule, counts[strict, chosen] >= 1, readings=readings)


def _no_depth_beyond(source: Source, depth: int) -> str | None:
    """Why an effect beyond the pool depth cannot be tested at ``depth`` (None: it can)."""
    d = source.pool_depth
    if d is None:
        return "the pool depth is unknown, so depths beyond it are unknown"
    if depth <= d:
        return f"the deepest depth @{depth} does not measure beyond the pool depth {d}"
    return None


def _count_sensitivity(named: Mapping[str, Mapping[str, int]]) -> str:
    """The notes' sensitivity line for pair counts: each pattern's count under each A_p reading."""
    parts = [f"{name}: " + ", ".join(f"{fam}@d {counts[fam]}" for fam in _READINGS) for name, counts in named.items()]
    return ("Sensitivity to the A_p reading (eligible pairs showing each pattern under Judged@d = A_p@d ÷ d, "
            "JudgedRet@d ÷ min(d, |X|), NotUnj@d = 1 − unj@d): " + "; ".join(parts) + ".")


# =============================================================================== 2007 Fig. 2
def _even_upto(depths: Sequence[int]) -> list[int]:
    """The depths 2007 Fig. 2 (top) reads: those through ``_EVEN_UP_TO`` (at least the first)."""
    return [d for d in depths if d <= _EVEN_UP_TO] or [depths[0]]


def _even_scores(grid: _Grid, reading: str, pool_depth: int | None) -> pd.DataFrame:
    """Per pair, 2007 Fig. 2 (top) at the depths through ``_EVEN_UP_TO``: ``full``
    (:func:`_even_pattern`), ``held`` (depths with X significantly better in P, plus one when
    A_p differs at exactly one depth, beyond the pool depth, in case 4), ``x``, ``y``. No
    depth counts as beyond an unknown pool depth."""
    tables = grid.by_reading[reading]
    upto = _even_upto(grid.depths)
    x, y, _ = _xy(tables[grid.depths[0]])
    p_sig = np.stack([(tables[d]["p_measure"].to_numpy() < grid.alpha)
                      & (tables[d]["better"].to_numpy(dtype=object) == x) for d in upto], axis=1)
    a_sig = np.stack([tables[d]["p_assessment"].to_numpy() < grid.alpha for d in upto], axis=1)
    cases = np.stack([tables[d]["case"].to_numpy() for d in upto], axis=1)
    beyond = np.array([pool_depth is not None and d > pool_depth for d in upto])
    one_weak = (a_sig.sum(axis=1) == 1) & (a_sig & (cases == 4) & beyond).any(axis=1)
    return pd.DataFrame({"full": _even_pattern(p_sig, a_sig, cases, beyond),
                         "held": p_sig.sum(axis=1) + one_weak.astype(int), "x": x, "y": y},
                        index=tables[grid.depths[0]].index)


@register("baillie2007-fig2", "Two pairs across measurement depths: P@d and A_p@d with intervals and cases",
          f"{PAPER_2007}, Fig. 2", needs=("pairs",))
def _fig2(source: Source, *, test: str = TEST.default, alpha: float = ALPHA.default, depths: Sequence[int] = DEPTHS,
          assessment: str = PAPERS_ASSESSMENT, pairs: Sequence[tuple[str, str]] | None = None):
    """``pairs``: two (run, run) pairs to show instead of the chosen ones."""
    depths = MEASUREMENT_DEPTH.increasing(depths, "baillie2007-fig2", name="depths", noun="measurement depths")
    grid = _Grid(source, "P", depths, test, alpha, _assessment(assessment, "baillie2007-fig2"))
    upto = _even_upto(depths)
    gap = _first_gap(grid.tables, depths)
    even = {r: _even_scores(grid, r, source.pool_depth) for r in grid.readings}
    converge = {r: _swap_scores(grid.by_reading[r], depths, swap=False) for r in grid.readings}
    even_ok, converge_ok = grid.full(upto[-1]), grid.full(depths[-1])
    if pairs is None:
        (top, _), = _pick(even[grid.assessment], even_ok, 1, gap)
        (bottom, _), = _pick(converge[grid.assessment], converge_ok, 1, gap, exclude={grid.key(*top)})
        pairs = [top, bottom]
    else:
        pairs = _check_pairs(grid, pairs, 2, "baillie2007-fig2")
    labels = ["top (even judging)", "bottom (judging diverges)"]
    table, curves = grid.curves(pairs, labels)
    through = ", ".join(f"@{d}" for d in upto)
    even_counts = {r: int((even[r]["full"].to_numpy() & even_ok).sum()) for r in grid.readings}
    converge_counts = {r: int((converge[r]["full"].to_numpy() & converge_ok).sum()) for r in grid.readings}
    claims = [
        _count_claim(
            "a pair stays significantly different to P@500 on comparably judged lists, except one depth beyond the "
            "pool depth where the better run is significantly more judged ('not significantly so with the exception "
            "of A@100'; Robust 2003 s1 vs s2)",
            f"at least one pair with the same run significantly better in P at every depth through @{upto[-1]} "
            f"({through}) and A_p significantly different at exactly one of them, a depth beyond the pool depth, "
            f"where the pair is in case 4 (weak); both runs retrieving at least {upto[-1]} documents on every topic "
            f"both answer",
            even_counts, grid.assessment, int(even_ok.sum()),
            _no_depth_beyond(source, upto[-1])
            or (None if even_ok.any() else f"no pair has both runs {upto[-1]} documents deep")),
        _count_claim(
            "a pair significant at shallow depths converges while the better run falls behind in A_p beyond the "
            "pool depth (Robust 2005 s4 vs s3)",
            f"at least one pair: case 3 at @{depths[0]} with X ahead, no significant P difference at "
            f"@{depths[-1]} (case 1 or 2), and there Y with the higher mean A_p; @{depths[-1]} beyond the pool "
            f"depth; both runs retrieving at least {depths[-1]} documents on every topic both answer",
            converge_counts, grid.assessment,
            int(converge_ok.sum()),
            _no_depth_beyond(source, depths[-1]) or (None if converge_ok.any() else
                                                     f"no pair has both runs {depths[-1]} documents deep")),
    ]
    headline = Headline("two Robust pairs: one stays significantly different to P@500 on comparably judged lists, "
                        "weak (case 4) at the one depth beyond the pool depth where its A_p differs; one converges "
                        "as d grows while the better run falls behind in A_p", claims)
    notes = [
        _pairs_setting(source, grid, "P@d", "two pairs", curves),
        "Paper: Robust 2003 (top): s1 is significantly better than s2 up to P@500 while their A_p stays "
        "comparable ('s_1 also has higher assessment but not significantly so with the exception of A@100', a depth "
        "beyond the pool depth: there the pair is weak, case 4). Robust 2005 (bottom, pool depth 47): s4 "
        "(query expansion from an external collection) beats s3 (title keywords) at shallow depths, the two "
        "converge as d grows, and from A@100 on s4 has less of its list judged than s3 — s4 is underestimated.",
        f"Chosen here, by a stated rule following the paper's description, among the eligible pairs (both runs retrieving at least the "
        f"depth's documents on every topic both answer; {_eligibility_words(grid, depths[-1])}): top = a pair "
        f"with the same run significantly better in P at every depth through @{upto[-1]} and A_p significantly "
        f"different at exactly one, beyond the pool depth, in case 4 there; bottom = a pair in case 3 at "
        f"@{depths[0]} that converges (case 1 or 2) at @{depths[-1]} with the other run more judged there. Among several, the largest P difference at "
        f"@{depths[0]}; where none shows it, the closest (most parts of the pattern). The choice never decides "
        f"the verdict: each claim counts every eligible pair.",
        *_pair_notes(grid, source, pairs, labels),
        f"Verdict: {headline.summary()}.",
        _count_sensitivity({"top pattern": even_counts, "bottom pattern": converge_counts}),
    ]
    return Reproduction("baillie2007-fig2", "", f"{PAPER_2007}, Fig. 2", table, None, "\n".join(notes),
                        source.label, draw=figures.depth_pairs, headline=headline, details={"curves": curves})


# =============================================================================== 2008 Tables 3 and 4
def _paper_table3() -> pd.DataFrame:
    """What the seed text keeps of the 2008 paper's Table 3: its grid was lost in extraction;
    the prose quotes TREC-3 at P@10 (all four cases) and case 3 at P@30 and P@100."""
    frame = pd.DataFrame(np.nan, index=pd.Index(["TREC 3"], name="collection"),
                         columns=_columns([f"@{d}" for d in DEPTHS]))
    frame[("pairs", "")] = 780  # "40 runs included as part of the pair-wise comparisons"
    for case, value in zip(_CASES, (0.69, 0.07, 0.17, 0.07), strict=True):
        frame[("@10", case)] = value
    frame[("@30", 3)] = 0.11
    frame[("@100", 3)] = 0.05
    return frame


# the 2008 paper's prose numbers (TREC-3): Table 3's case 3 for P@10, P@30, P@100; Table 4's range for MAP@d
_TABLE3_CASE3 = (0.17, 0.11, 0.05)
_TABLE4_CASE3 = (0.04, 0.07)


def _table34(source: Source, family: str, *, test, alpha, depths, pool_depths, assessment):
    owner = f"baillie2008-table{3 if family == 'P' else 4}"
    depths = MEASUREMENT_DEPTH.increasing(depths, owner, name="depths", noun="measurement depths")
    fam = _assessment(assessment, owner)
    columns = [(f"@{d}", f"{family}@{d}") for d in depths]
    table = _proportion_table(source, columns, form="2008", assessment=fam, depths=depths, test=test, alpha=alpha,
                              pool_depths=pool_depths)
    rows = _reading_rows(source, columns, form="2008", chosen=fam, row=table.iloc[0], depths=depths, test=test,
                         alpha=alpha)
    return depths, fam, table, rows


def _case3_by_depth(row: pd.Series, depths: Sequence[int]) -> list[float]:
    return [float(row[(f"@{d}", 3)]) for d in depths]


# The 2008 paper §4.2.1 (quotes for both tables): "weak" cases rising among the significant
# differences is case 4 (TREC-3 Table 3: "from 0.07 to 0.087"); the same trend among comparisons not
# significantly different ("A similar trend …") is case 2 rising.
_CASE2_QUOTE = ("('A similar trend … for system comparisons where the null hypothesis that both systems have equal "
                "performance cannot be rejected')")


def _rise_claim(rows, fam: str, depths: Sequence[int], case: int, paper: str) -> Claim:
    """Case ``case``'s share rises from the first depth to the last (case 4 needs a significant
    pair somewhere, as case 3's claims do; case 2 does not)."""
    first, last = f"@{depths[0]}", f"@{depths[-1]}"
    significance = case == 4
    return _reading_claim(
        paper, _share_rule_words(f"in case {case}", "rises", first, last, significance), rows, fam,
        _share_judge(lambda r: _rises(_case(r, first, case), _case(r, last, case)), significance=significance),
        lambda r: f"case {case} {_fmt(_case(r, first, case))} → {_fmt(_case(r, last, case))}",
        _untested(rows[fam], significance=significance))


def _rise_claims(rows, fam: str, depths: Sequence[int], case4_example: str) -> list[Claim]:
    """The 2008 paper's two rising shares: case 4 (weak among the significant differences) and
    case 2 (weak among the rest)."""
    return [_rise_claim(rows, fam, depths, 4, f"case 4 (weak, significant) rises{case4_example}"),
            _rise_claim(rows, fam, depths, 2, f"case 2 (weak, not significant) rises {_CASE2_QUOTE}")]


def _case3_untested(row: pd.Series, depths: Sequence[int]) -> str:
    if int(row[("pairs", "")]) < _MIN_PAIRS or not _any_significant(row):
        return _untested(row, significance=True)
    return (f"the case-3 share is below {_MIN_SHARE:g} at every depth: too small to tell constant from falling")


def _table3_claims(rows, fam: str, mine: pd.Series, depths: Sequence[int]) -> list[Claim]:
    """2008 Table 3's claims from the shares by reading (``rows``) and the chosen row ``mine``."""
    first, last = f"@{depths[0]}", f"@{depths[-1]}"
    paper3 = " → ".join(_fmt(x) for x in _TABLE3_CASE3)
    return [
        _reading_claim(
            f"case 3 'either decreased or remained approximately constant': {paper3} (TREC-3, P@10/30/100)",
            f"case 3 falls from {first} to {last} by at least {_SHARE_MARGIN:g} of the pairs, or stays approximately "
            f"constant (its smallest share at least {_CONSTANT_RATIO:g} of its largest; untested below "
            f"{_MIN_SHARE:g} at every depth, with fewer than {_MIN_PAIRS} pairs, or with no significant difference)",
            rows, fam,
            lambda r: (None if int(r[("pairs", "")]) < _MIN_PAIRS or not _any_significant(r)
                       else _falls_or_constant(_case3_by_depth(r, depths))),
            lambda r: "case 3 " + " → ".join(_fmt(x) for x in _case3_by_depth(r, depths)),
            _case3_untested(mine, depths)),
        *_rise_claims(rows, fam, depths, ": “weak” cases 'from 0.07 to 0.087' (TREC-3, P@10 → P@30), 'this trend "
                                         "remains … towards P@1000'"),
    ]


def _table3_notes(source: Source, *, test: str, alpha: float, fam: str, depths: Sequence[int], mine: pd.Series,
                  headline: Headline, rows) -> str:
    first, last = f"@{depths[0]}", f"@{depths[-1]}"
    case3 = _case3_by_depth(mine, depths)
    paper3 = " → ".join(_fmt(x) for x in _TABLE3_CASE3)
    notes = [
        f"Setting: every pair of the {source.describe()}; {_test_words(test, alpha)}; P@d tested with "
        f"{_a_name(fam)} ({_judged_words(assessment=fam)}), d = {', '.join(map(str, depths))}.",
        "The seed text lost the grid of Table 3; `paper` holds the numbers its prose quotes (TREC-3, 40 runs: "
        "P@10 .69 .07 .17 .07; case 3 .11 at P@30 and .05 at P@100) and NaN elsewhere.",
        f"Differs from the paper: TREC-3 … Terabyte 04 official runs against {source.label}; "
        f"{_beyond(source, depths)}.",
        f"irnb: case 3 by depth {' → '.join(_fmt(x) for x in case3)} (paper, TREC-3: {paper3} for "
        f"@10, @30, @100); {_trend_sentence(mine, first, last, 'overall')}.",
        *([_NO_SIGNIFICANCE] if not _any_significant(mine) else []),
        f"Verdict: {headline.summary()}.",
        _sensitivity(rows, first, last),
    ]
    return "\n".join(notes)


@register("baillie2008-table3", "Share of run pairs in cases 1–4 for P@d tested with A_p@d",
          f"{PAPER_2008}, Table 3", needs=("pairs",))
def _table3(source: Source, *, test: str = TEST.default, alpha: float = ALPHA.default, depths: Sequence[int] = DEPTHS,
            pool_depths: Sequence[int] = (), assessment: str = PAPERS_ASSESSMENT):
    """``assessment``: the family A@d is taken from (``Judged`` = A_p@d, the paper's)."""
    depths, fam, table, rows = _table34(source, "P", test=test, alpha=alpha, depths=depths, pool_depths=pool_depths,
                                        assessment=assessment)
    mine = table.iloc[0]
    paper3 = " → ".join(_fmt(x) for x in _TABLE3_CASE3)
    claims = _table3_claims(rows, fam, mine, depths)
    headline = Headline(f"P@d: case 3 falls or stays about constant ({paper3}, TREC-3); weak cases rise: case 4 "
                        "(significant) and case 2 (not significant)", claims)
    notes = _table3_notes(source, test=test, alpha=alpha, fam=fam, depths=depths, mine=mine, headline=headline,
                          rows=rows)
    return Reproduction("baillie2008-table3", "", f"{PAPER_2008}, Table 3", table, _paper_table3(),
                        notes, source.label, headline=headline)


def _table4_claims(rows, fam: str, mine: pd.Series, depths: Sequence[int]) -> list[Claim]:
    """2008 Table 4's claims from the shares by reading (``rows``) and the chosen row ``mine``."""
    low, high = _TABLE4_CASE3
    return [
        _reading_claim(
            f"case 3 'remained approximately constant, between {low:g} and {high:g}' (TREC-3; likewise 4 more "
            f"collections)",
            f"case 3's smallest share across depths at least {_CONSTANT_RATIO:g} of its largest (the paper's "
            f"{_fmt(low)}–{_fmt(high)} holds, its Table 3 {' → '.join(_fmt(x) for x in _TABLE3_CASE3)} does not); "
            f"untested below {_MIN_SHARE:g} at every depth, with fewer than {_MIN_PAIRS} pairs, or with no "
            f"significant difference",
            rows, fam,
            lambda r: (None if int(r[("pairs", "")]) < _MIN_PAIRS or not _any_significant(r)
                       else _constant(_case3_by_depth(r, depths))),
            lambda r: "case 3 " + " → ".join(_fmt(x) for x in _case3_by_depth(r, depths)),
            _case3_untested(mine, depths)),
        *_rise_claims(rows, fam, depths, " ('overall, a common trend across collections')"),
    ]


def _table4_notes(source: Source, *, test: str, alpha: float, fam: str, depths: Sequence[int], mine: pd.Series,
                  headline: Headline, rows) -> str:
    first, last = f"@{depths[0]}", f"@{depths[-1]}"
    case3 = _case3_by_depth(mine, depths)
    low, high = _TABLE4_CASE3
    notes = [
        f"Setting: every pair of the {source.describe()}; {_test_words(test, alpha)}; MAP@d (trec_eval's "
        f"map_cut, AP over the top d divided by R) tested with {_a_name(fam)} "
        f"({_judged_words(assessment=fam)}) — the 2008 pairing (the 2007 paper paired MAP with MAA).",
        "The seed text lost the grid of Table 4 (`paper` is None); its prose says that for MAP the case-3 share "
        f"'remained approximately constant, between {low:g} and {high:g}' on TREC-3, and likewise on TREC-8, "
        "Robust 03, Robust 05 and HARD 05, while for Terabyte 04 it rose towards the pool depth and fell beyond it.",
        f"Differs from the paper: TREC collections against {source.label}; {_beyond(source, depths)}.",
        f"irnb: case 3 by depth {' → '.join(_fmt(x) for x in case3)}; case 4 "
        f"{' → '.join(_fmt(_case(mine, f'@{d}', 4)) for d in depths)}; case 2 "
        f"{' → '.join(_fmt(_case(mine, f'@{d}', 2)) for d in depths)}.",
        *([_NO_SIGNIFICANCE] if not _any_significant(mine) else []),
        f"Verdict: {headline.summary()}.",
        _sensitivity(rows, first, last),
    ]
    return "\n".join(notes)


@register("baillie2008-table4", "Share of run pairs in cases 1–4 for MAP@d tested with A_p@d",
          f"{PAPER_2008}, Table 4", needs=("pairs",))
def _table4(source: Source, *, test: str = TEST.default, alpha: float = ALPHA.default, depths: Sequence[int] = DEPTHS,
            pool_depths: Sequence[int] = (), assessment: str = PAPERS_ASSESSMENT):
    """``assessment``: the family A@d is taken from (``Judged`` = A_p@d, the paper's)."""
    depths, fam, table, rows = _table34(source, "AP", test=test, alpha=alpha, depths=depths, pool_depths=pool_depths,
                                        assessment=assessment)
    mine = table.iloc[0]
    low, high = _TABLE4_CASE3
    claims = _table4_claims(rows, fam, mine, depths)
    headline = Headline(f"MAP@d: case 3 about constant, {_fmt(low)}–{_fmt(high)} (TREC-3); weak cases rise: case 4 "
                        "(significant) and case 2 (not significant)", claims)
    notes = _table4_notes(source, test=test, alpha=alpha, fam=fam, depths=depths, mine=mine, headline=headline,
                          rows=rows)
    return Reproduction("baillie2008-table4", "", f"{PAPER_2008}, Table 4", table, None,
                        notes, source.label, headline=headline)


# =============================================================================== 2008 Fig. 4
def _case_counts_full(grid: _Grid, reading: str, case: int) -> int:
    """Pairs in ``case`` at some depth d at which both runs retrieve at least d documents."""
    cases = _case_grid(grid.by_reading[reading])
    hit = np.zeros(len(cases), dtype=bool)
    for d in grid.depths:
        hit |= (cases[d].to_numpy() == case) & grid.full(d)
    return int(hit.sum())


@register("baillie2008-fig4", "One pair per decision-matrix case across depths (MAP@d and A_p@d)",
          f"{PAPER_2008}, Fig. 4", needs=("pairs",))
def _fig4(source: Source, *, test: str = TEST.default, alpha: float = ALPHA.default, depths: Sequence[int] = DEPTHS,
          assessment: str = PAPERS_ASSESSMENT, pairs: Sequence[tuple[str, str]] | None = None):
    """``pairs``: four (run, run) pairs (for cases 1, 2, 3, 4) instead of the chosen ones."""
    depths = MEASUREMENT_DEPTH.increasing(depths, "baillie2008-fig4", name="depths", noun="measurement depths")
    grid = _Grid(source, "AP", depths, test, alpha, _assessment(assessment, "baillie2008-fig4"))
    last = depths[-1]
    full = np.stack([grid.full(d) for d in depths], axis=1)
    if pairs is None:
        pairs, used = [], np.zeros(len(grid.cases), dtype=bool)
        for case in _CASES:
            count = ((grid.cases.to_numpy() == case) & full).sum(axis=1)
            key = grid.column(last, "assessment_diff" if case in (1, 2) else "mean_diff").abs().to_numpy()
            key = -key if case == 1 else key  # case 1: the most evenly judged; others: the clearest
            free = ~used if not used.all() else np.ones_like(used)  # few runs: a pair may serve twice
            order = np.lexsort((-key, -count))  # most (eligible) depths in the case, then the key; ties: run order
            best = next(i for i in order if free[i])
            used[best] = True
            pairs.append(grid.cases.index[best])
    else:
        pairs = _check_pairs(grid, pairs, 4, "baillie2008-fig4")
    labels = [f"case {c}" for c in _CASES]
    table, curves = grid.curves(pairs, labels)
    present = {c: int((grid.cases[last] == c).sum()) for c in _CASES}
    counts = {c: {r: _case_counts_full(grid, r, c) for r in grid.readings} for c in _CASES}
    rule = ("at least one pair in the case at some depth d at which both runs retrieve at least d documents on "
            "every topic both answer")
    claims = [_reading_claim(f"case {c} ({STRENGTH[c]}: {CASES[c]}) occurs among official runs (a Robust 2005 pair)",
                             rule, counts[c], grid.assessment, lambda n: n >= 1,
                             lambda n: f"{n} of {len(grid.cases)} pairs", "")
              for c in _CASES]
    headline = Headline("all four cases occur among official runs (one Robust 2005 pair each)", claims)
    notes = [
        _pairs_setting(source, grid, "MAP@d", "one pair per case", curves),
        "Paper: one Robust 2005 pair per case (MAP left, A_p right), to show that all four outcomes occur in "
        "official runs.",
        "Chosen here, by the paper's criterion (a pair in that case): for each case, the pair in it at the most "
        f"depths at which both runs retrieve the depth's documents (ties: case 1 the most evenly judged at @{last}, "
        "case 2 the most unevenly judged, cases 3 and 4 the largest MAP difference).",
        *_pair_notes(grid, source, pairs, labels),
        f"Pairs in each case at @{last}: " + ", ".join(f"case {c}: {n}" for c, n in present.items()) + ".",
        f"Verdict: {headline.summary()}.",
        _count_sensitivity({f"case {c}": counts[c] for c in _CASES}),
    ]
    return Reproduction("baillie2008-fig4", "", f"{PAPER_2008}, Fig. 4", table, None, "\n".join(notes),
                        source.label, draw=figures.depth_pairs, headline=headline, details={"curves": curves})


# =============================================================================== 2008 Fig. 11
_STRONG, _WEAK_CASES = (1, 3), (2, 4)


def _direction_shares(cases: pd.DataFrame, first: int, last: int) -> tuple[float, float]:
    """(share of pairs strong at ``first`` and weak at ``last``, share weak then strong)."""
    a, b = cases[first].to_numpy(), cases[last].to_numpy()
    n = max(1, len(cases))
    return (float((np.isin(a, _STRONG) & np.isin(b, _WEAK_CASES)).sum() / n),
            float((np.isin(a, _WEAK_CASES) & np.isin(b, _STRONG)).sum() / n))


@register("baillie2008-fig11", "Two pairs that swap from a strong to a weak comparison beyond the pool depth "
          "(MAP@d and A_p@d)", f"{PAPER_2008}, Fig. 11", needs=("pairs",))
def _fig11(source: Source, *, test: str = TEST.default, alpha: float = ALPHA.default, depths: Sequence[int] = DEPTHS,
           assessment: str = PAPERS_ASSESSMENT, pairs: Sequence[tuple[str, str]] | None = None):
    """``pairs``: two (run, run) pairs instead of the chosen ones."""
    depths = MEASUREMENT_DEPTH.increasing(depths, "baillie2008-fig11", name="depths", noun="measurement depths")
    grid = _Grid(source, "AP", depths, test, alpha, _assessment(assessment, "baillie2008-fig11"))
    first, last = depths[0], depths[-1]
    eligible = grid.full(last)
    swaps = {(text, r): _swap_scores(grid.by_reading[r], depths, swap=True, strong=cases)
             for text, cases in _SWAP_READINGS.items() for r in grid.readings}
    strict, broad = _SWAP_READINGS
    if pairs is None:
        picked = _pick(swaps[strict, grid.assessment], eligible, 2, _first_gap(grid.tables, depths),
                       then=swaps[broad, grid.assessment]["full"].to_numpy())
        pairs = [p for p, _ in picked]
    else:
        pairs = _check_pairs(grid, pairs, 2, "baillie2008-fig11")
    labels = ["top", "bottom"]
    table, curves = grid.curves(pairs, labels)
    counts = {key: int((score["full"].to_numpy() & eligible).sum()) for key, score in swaps.items()}
    shares = {r: _direction_shares(_case_grid(grid.by_reading[r]), first, last) for r in grid.readings}
    n_pairs = len(grid.cases)
    claims = [
        _swap_claim(
            "a pair swaps order beyond the pool depth as the leader's A_p falls (Robust 2005: SAB05ROR1 vs "
            "PIRCRB05TD3, UIC0501 vs INDRI05DMMT)",
            f"at least one pair strong at @{first} with X ahead (the case the seed text lost: read as case 3, X "
            f"significantly better — irnb's reading, the significance is not in the surviving text — and as case 1 "
            f"or 3, X ahead by mean), Y ahead in MAP at @{last} and significantly more judged there; @{last} beyond "
            f"the pool depth; both runs retrieving at least {last} documents on every topic both answer",
            counts, grid.assessment, first, int(eligible.sum()),
            _no_depth_beyond(source, last) or (None if eligible.any() else
                                               f"no pair has both runs {last} documents deep")),
        _reading_claim(
            "comparisons change from strong to weak as d grows beyond the pool depth ('a common pattern')",
            f"the share of pairs strong (case 1 or 3) at @{first} and weak (case 2 or 4) at @{last} exceeds the "
            f"share going from weak to strong by at least {_SHARE_MARGIN:g} of the pairs (untested with fewer than "
            f"{_MIN_PAIRS} pairs)",
            shares, grid.assessment,
            lambda s: None if n_pairs < _MIN_PAIRS else _outnumbers(*s),
            lambda s: f"strong → weak {_fmt(s[0])}, weak → strong {_fmt(s[1])}",
            f"{n_pairs} pair(s): one pair moves a share by more than {_SHARE_MARGIN:g}"),
    ]
    headline = Headline("comparisons turn from strong to weak beyond the pool depth; two Robust 2005 pairs swap "
                        "order as the leader's A_p falls", claims)
    notes = [
        _pairs_setting(source, grid, "MAP@d", "two pairs", curves),
        "Paper (Robust 2005, pool depth 55): 'a swap from “strong” to “weak”'; SAB05ROR1 has the higher MAP than "
        "PIRCRB05TD3 up to d = 100, then the order swaps while PIRCRB05TD3 has significantly more of its list "
        "judged ('… comparison at depths 10 and 30, that then moves towards a Case 2 comparison': the seed text "
        "lost the case at 10 and 30, where the assessment is comparable, so case 1 or 3); UIC0501 'was on average "
        "higher than INDRI05DMMT until a depth of 100', the swap coinciding with a significant drop in UIC0501's "
        "A_p.",
        f"Reading of the lost case: requiring a significant MAP difference at @{first} (case 3) is irnb's reading, "
        f"not the paper's text; the claim is tested under it and under case 1 or 3 (X ahead by mean), and says "
        f"'depends on the reading' where they disagree.",
        f"Chosen here, by a stated rule among the eligible pairs ({_eligibility_words(grid, last)}): pairs in case "
        f"3 at @{first} whose other run is ahead in MAP and significantly more judged at @{last}; then pairs "
        f"showing that under case 1 or 3 at @{first}; then the most parts of the pattern; among several, the "
        f"largest MAP difference at @{first}. The choice never decides the verdict: the claim counts every "
        "eligible pair.",
        *_pair_notes(grid, source, pairs, labels),
        f"Verdict: {headline.summary()}.",
        _count_sensitivity({f"swapping pairs ({text} at @{first})": {r: counts[text, r] for r in grid.readings}
                            for text in _SWAP_READINGS}),
    ]
    return Reproduction("baillie2008-fig11", "", f"{PAPER_2008}, Fig. 11", table, None, "\n".join(notes),
                        source.label, draw=figures.depth_pairs, headline=headline, details={"curves": curves})


# =============================================================================== 2008 Fig. 12
def _fifths(values: np.ndarray) -> tuple[float, float, float]:
    """Mean of the top fifth, the middle and the bottom fifth of runs already ranked (irnb's
    reading of the paper's 'extremes'); the middle is NaN when there is none."""
    n = len(values)
    q = max(1, n // 5)
    middle = float(values[q:n - q].mean()) if n > 2 * q else float("nan")
    return float(values[:q].mean()), middle, float(values[n - q:].mean())


@register("baillie2008-fig12", "Runs ranked by MAP with their A_p@1000 (irnb adds the Recall of Assessment); Kendall's τ",
          f"{PAPER_2008}, Fig. 12", needs=("pairs",))
def _fig12(source: Source, *, depth: int = FIG12_DEPTH):
    """``depth``: the assessment depth (A_p@depth; the paper's 1000). The figure plots
    A_p@depth = ``Judged@depth``; the claims are judged under A_p's three readings."""
    from ..bias import kendall_tau

    depth = MEASUREMENT_DEPTH.validate(depth, "baillie2008-fig12", label="depth")
    fam = PAPERS_ASSESSMENT
    exp = source.experiment
    names = {r: f"{r}@{depth}" for r in _READINGS}
    recall = "RecallAssessment"
    means = evaluate(exp, ["AP", *names.values(), recall]).means()
    means["contributor"] = np.asarray(exp.contributors)
    runs = means.sort_values("AP", ascending=False, kind="stable")
    taus = {r: float(kendall_tau(means["AP"], means[m])) for r, m in names.items()}
    fifths = {r: _fifths(runs[m].to_numpy()) for r, m in names.items()}
    tau, tau_recall = taus[fam], float(kendall_tau(means["AP"], means[recall]))
    label_a = f"tau(MAP, A_p@{depth})"
    runs.attrs["assessment"] = names[fam]  # the column the figure plots
    table = pd.DataFrame({label_a: [tau], "tau(MAP, RecallAssessment)": [tau_recall], "runs": [len(means)]},
                         index=pd.Index([source.label], name="collection"))
    paper = pd.DataFrame({"tau(MAP, A_p@1000)": list(_FIG12_TAU.values())},
                         index=pd.Index(list(_FIG12_TAU), name="collection"))
    low, high = min(_FIG12_TAU.values()), max(_FIG12_TAU.values())
    n = len(runs)
    q = max(1, n // 5)
    contributing = runs["contributor"].to_numpy()
    claims = [
        _reading_claim(f"τ(MAP, A_p@1000) within {_TAU_BAND:g} of the paper's {low:.3f}–{high:.3f} (TREC-3, 6, 7, 8)",
                       f"τ(MAP, A_p@{depth}) within {_TAU_BAND:g} of the paper's range", taus, fam,
                       lambda t: _near_range(t, low, high), lambda t: f"τ = {t:.3f}", ""),
        _reading_claim("runs at both extremes (by MAP) have less of their lists judged than the middle runs",
                       f"mean A_p@{depth} of the top fifth and of the bottom fifth of runs by MAP each at most "
                       f"{_EXTREME_RATIO:g} × the middle runs' (fifths: irnb's reading of 'extremes')",
                       fifths, fam, lambda f: _extremes_below(*f),
                       lambda f: f"top {f[0]:.3f}, middle {f[1]:.3f}, bottom {f[2]:.3f}",
                       "fewer than three runs: no middle to compare with"),
    ]
    headline = Headline(f"τ(MAP, A_p@1000) = {low:.3f}–{high:.3f} (TREC-3/6/7/8); the extremes are less judged "
                        "than the middle", claims)
    notes = [
        f"Setting: {source.describe()}; every run's MAP, A_p@{depth} ({_judged_words(depth, fam)}) and Recall of "
        f"Assessment (judged documents retrieved / judged documents in the qrels); Kendall's τ between the "
        f"MAP ranking and each assessment ranking (ties concordant).",
        "Paper: TREC-3, 6, 7 and 8, all official runs ranked by MAP: τ(MAP, A_p@1000) = .394, .402, .402, .462; "
        "runs at both extremes have less of their lists judged than the middle ('popular') runs.",
        f"irnb: τ(MAP, {names[fam]}) = {tau:.3f}, τ(MAP, Recall of Assessment) = {tau_recall:.3f}; mean "
        f"{names[fam]} of the top fifth {fifths[fam][0]:.3f}, the middle {fifths[fam][1]:.3f}, the bottom fifth "
        f"{fifths[fam][2]:.3f}; {int(contributing[:q].sum())} of the top {q} and "
        f"{int(contributing[n - q:].sum())} of the bottom {q} runs contributed to the pool.",
        f"Verdict: {headline.summary()}.",
        "Sensitivity to the A_p reading (Judged@k ÷ k, JudgedRet@k ÷ min(k, |X|), NotUnj@k = 1 − unj@k): "
        + "; ".join(f"{r}@{depth}: τ = {taus[r]:.3f}, fifths {fifths[r][0]:.3f} / {fifths[r][1]:.3f} / "
                    f"{fifths[r][2]:.3f}" for r in _READINGS) + ".",
    ]
    return Reproduction("baillie2008-fig12", "", f"{PAPER_2008}, Fig. 12", table, paper, "\n".join(notes),
                        source.label, draw=figures.ranked_runs, headline=headline,
                        details={"runs": runs})
