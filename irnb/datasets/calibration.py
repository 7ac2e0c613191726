"""Statistics that describe how a test collection "looks", for calibrating the simulator
against real collections.

``collection_statistics(experiment)`` returns one number per statistic (a pandas Series),
computed the same way for a real Experiment and for a simulated one:

* ``judged@10 contributing`` … ``judged@100 non-contributing``: mean JudgedRet@k (the
  judged share of the top k of what the run retrieved: judged / min(k, retrieved)) over the
  runs that did / did not contribute to the pool (NaN when there are none). JudgedRet, not
  Judged@k (which divides by k), because the simulated runs are all 1000 deep: a real run
  that stops after 34 documents should not read as less judged for that reason;
* ``overlap@100``: mean over topics and over all pairs of runs of |top100(a) ∩ top100(b)| / 100;
  ``overlap@100 across groups`` the same over pairs of runs from different groups. With
  c_d = the number of runs that rank document d in their top k, the mean pairwise
  intersection is Σ_d C(c_d, 2) / C(S, 2): 3 runs, one document in all three tops and one in
  two → (3 + 1) / 3 = 1.33 shared documents per pair;
* ``relevant if in top-100 of 0%–10% of runs`` etc.: of the judged documents that a given share of
  the runs rank in their top 100, the fraction relevant (the quantity Ravana & Moffat read at
  "zero runs" to estimate the background rate E);
* ``MAP max−min``, ``MAP IQR``, ``MAP max``: the spread of AP (official qrels) over runs;
* ``AP SD across topics``: the mean over runs of the standard deviation (population form)
  of a run's AP across the topics it answered — how much topics differ in difficulty;
* ``AP pairs significant``: the share of run pairs whose per-topic AP differ significantly
  (two-sided paired t-test over the topics both answered, p < 0.05; see
  :func:`significant_pair_share`);
* ``R mean``, ``R CV``: relevant documents per topic (official qrels) and their coefficient
  of variation (standard deviation / mean, population form).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..experiment import Experiment
from ..metrics import evaluate
from ..params import ACROSS_GROUPS, MEASUREMENT_DEPTH
from ..params import ALPHA, POOL_DEPTH, SEED
from .real import clef_ehealth_2016_task2, trec_covid_round1

__all__ = ["collection_statistics", "pairwise_overlap", "significant_pair_share", "pooled_share_of_others",
           "matched_design_share", "POOL_SHARE_BINS",
           "calibration_table", "allowed_range", "TOLERANCE",
           "TREC_COVID_DESIGN", "POOL_DEPENDENT", "DESIGN_ROWS", "WIDE_TOLERANCE", "real_statistics", "seed_table"]

# Bins of "share of runs that rank a judged document in their top 100" (right-closed).
POOL_SHARE_BINS = ((0.0, 0.10), (0.10, 0.25), (0.25, 0.50), (0.50, 1.0))


def _top_k_codes(experiment: Experiment, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For every run's top k per topic: (run index, topic index, document code, rank from 0),
    one row per retrieved document; codes are unique per (topic, docno)."""
    topics = pa.array(list(experiment.topics), pa.string())
    run_idx, topic_idx, docnos, ranks = [], [], [], []
    for s, run in enumerate(experiment.runs.values()):
        table = run.table
        enc = pc.dictionary_encode(table["topic"]).combine_chunks()
        local = enc.indices.to_numpy().astype(np.int64)
        starts = np.flatnonzero(np.r_[True, local[1:] != local[:-1]])
        rank = np.arange(local.size) - np.repeat(starts, np.diff(np.r_[starts, local.size]))
        mapped = pc.index_in(enc.dictionary, value_set=topics).fill_null(-1).to_numpy().astype(np.int64)[local]
        keep = (rank < k) & (mapped >= 0)
        run_idx.append(np.full(int(keep.sum()), s, dtype=np.int64))
        topic_idx.append(mapped[keep])
        ranks.append(rank[keep])
        docnos.append(table["docno"].combine_chunks().filter(pa.array(keep)))
    all_docnos = pa.concat_arrays(docnos) if docnos else pa.array([], pa.string())
    doc_code = pc.dictionary_encode(all_docnos).indices.to_numpy().astype(np.int64)
    t = np.concatenate(topic_idx)
    width = int(doc_code.max(initial=0)) + 1
    return np.concatenate(run_idx), t, t * width + doc_code, np.concatenate(ranks)


def pairwise_overlap(experiment: Experiment, *, depth: int = POOL_DEPTH.default, across_groups: bool = False) -> float:
    """Mean over topics and run pairs of |top_depth(a) ∩ top_depth(b)| / depth.

    ``across_groups=True`` counts only pairs of runs from different groups.
    """
    across_groups = ACROSS_GROUPS.validate(across_groups, "pairwise_overlap")
    depth = MEASUREMENT_DEPTH.validate(depth, None, label="depth")
    S, T = len(experiment.run_names), len(experiment.topics)
    run, topic, code, _ = _top_k_codes(experiment, depth)
    _, doc = np.unique(code, return_inverse=True)
    doc_topic = np.zeros(int(doc.max(initial=-1)) + 1, dtype=np.int64)
    doc_topic[doc] = topic
    count = np.bincount(doc, minlength=doc_topic.size).astype(np.float64)  # c_d
    shared = np.bincount(doc_topic, weights=count * (count - 1) / 2, minlength=T)  # per topic
    pairs = S * (S - 1) / 2
    if across_groups:
        group_codes = np.unique(np.asarray(experiment.groups), return_inverse=True)[1]
        G = int(group_codes.max(initial=-1)) + 1
        per_group = np.bincount(doc * G + group_codes[run], minlength=doc_topic.size * G).astype(np.float64)
        within = (per_group * (per_group - 1) / 2).reshape(-1, G).sum(axis=1)
        shared = shared - np.bincount(doc_topic, weights=within, minlength=T)
        sizes = np.bincount(group_codes, minlength=G).astype(np.float64)
        pairs = pairs - float((sizes * (sizes - 1) / 2).sum())
    if pairs <= 0:
        return float("nan")
    return float(np.mean(shared / pairs / depth))


def pooled_share_of_others(experiment: Experiment, contributing, *, pool_depth: int = 100, k: int = 10,
                           groups=None) -> float:
    """Mean over the runs of ``groups`` (default: every group) that are not ``contributing``
    (boolean per run) of the share of their top ``k`` per topic that lies in the depth
    ``pool_depth`` pool of the ``contributing`` runs (judged / min(k, retrieved), as JudgedRet@k),
    averaged over topics then runs; NaN when no such run. Pool membership only: no judgment is
    read, so a design can be replayed on a collection whose qrels came from another design.

    Run a contributes (pool depth 2: x, y), b and c do not, one topic: none of b's top 2 (w, v)
    is pooled, one of c's (x, z): (0 + 0.5) / 2 = 0.25.

    >>> runs = pd.DataFrame({"run": list("aabbcc"), "qid": "1", "docno": list("xywvxz"),
    ...                      "score": [2.0, 1.0] * 3})
    >>> from ..io import read_qrels, read_runs
    >>> exp = Experiment(read_runs(runs), read_qrels(pd.DataFrame({"qid": ["1"], "docno": ["x"], "rel": [1]})))
    >>> pooled_share_of_others(exp, [True, False, False], pool_depth=2, k=2)
    0.25
    """
    contributing = np.asarray(contributing, dtype=bool)
    if contributing.shape != (len(experiment.run_names),):
        raise ValueError(f"pooled_share_of_others: contributing must hold one flag per run "
                         f"({len(experiment.run_names)}), got shape {contributing.shape}")
    names = np.asarray(experiment.groups)
    chosen = np.ones(len(names), dtype=bool) if groups is None else np.isin(names, list(groups))
    top = _top_k_codes(experiment, max(pool_depth, k))
    return _pooled_share(top, contributing, chosen, pool_depth=pool_depth, k=k, num_topics=len(experiment.topics))


def _pooled_share(top, contributing: np.ndarray, chosen: np.ndarray, *, pool_depth: int, k: int,
                  num_topics: int) -> float:
    """:func:`pooled_share_of_others` over the runs' top documents ``top`` (:func:`_top_k_codes`
    to depth ≥ max(pool_depth, k)), read once for every pool design replayed on them."""
    run, topic, code, rank = top
    others = np.flatnonzero(~contributing & chosen)
    if others.size == 0:
        return float("nan")
    member = np.isin(code, np.unique(code[contributing[run] & (rank < pool_depth)]))
    top_k = rank < k
    cells = run[top_k] * num_topics + topic[top_k]
    size = contributing.size * num_topics
    hits = np.bincount(cells, weights=member[top_k], minlength=size).reshape(-1, num_topics)
    counts = np.bincount(cells, minlength=size).reshape(-1, num_topics)
    hits, counts = hits[others], counts[others]
    answered = counts > 0
    share = np.divide(hits, counts, out=np.zeros_like(hits), where=answered)  # per run and topic
    n = answered.sum(axis=1)
    per_run = share[n > 0].sum(axis=1) / n[n > 0]  # a run's mean over the topics it answered
    return float(per_run.mean()) if per_run.size else float("nan")


def matched_design_share(experiment: Experiment, *, contributing_groups: int, pool_depth: int = 100, k: int = 10,
                         draws: int = 200, seed: int = SEED.default) -> tuple[float, float, float]:
    """The statistic ``judged@k non-contributing`` of a pool designed as the simulator's:
    ``contributing_groups`` groups drawn at random (``draws`` times) from those of ``experiment``,
    one run per drawn group pooled to ``pool_depth`` (the group's contributing run where the
    experiment names one, else one of its runs at random), the drawn groups' other runs the
    non-contributors: :func:`pooled_share_of_others`. Returns (mean, 10th, 90th percentile) over
    the draws. Reads the runs only."""
    rng = np.random.default_rng(seed)
    names = np.asarray(experiment.groups)
    marked = np.asarray(experiment.contributors, dtype=bool)
    if marked.all():
        marked = np.zeros_like(marked)  # no contributor list (every run counts): choose at random
    group_ids = np.unique(names)
    if not 1 <= contributing_groups <= group_ids.size:
        raise ValueError(f"matched_design_share: contributing_groups must lie in [1, {group_ids.size}], "
                         f"got {contributing_groups}")
    top = _top_k_codes(experiment, max(pool_depth, k))  # the runs' top documents: the same for every draw
    values = []
    for _ in range(draws):
        drawn = rng.choice(group_ids, size=contributing_groups, replace=False)
        contributing = np.zeros(names.size, dtype=bool)
        for g in drawn:
            members = np.flatnonzero(names == g)
            own = members[marked[members]]
            contributing[own[0] if own.size else rng.choice(members)] = True
        values.append(_pooled_share(top, contributing, np.isin(names, drawn), pool_depth=pool_depth, k=k,
                                    num_topics=len(experiment.topics)))
    values = np.asarray(values)
    values = values[np.isfinite(values)]
    return float(values.mean()), float(np.quantile(values, 0.1)), float(np.quantile(values, 0.9))


def significant_pair_share(values: np.ndarray, evaluated: np.ndarray | None = None, *,
                           alpha: float = ALPHA.default) -> float:
    """Share of the pairs of rows (runs) of ``values`` (S, T) whose per-topic differences are
    significant in a two-sided paired t-test at level ``alpha``, over the topics both rows
    have (``evaluated``; all topics when None). Pairs with fewer than two such topics, or
    with all differences equal, count as not significant.

    Two runs over 3 topics with differences 0.1, 0.2, 0.3: mean 0.2, sample SD 0.1,
    t = 0.2 / (0.1/√3) = 3.46 on 2 degrees of freedom, p = 0.074 > 0.05 — not significant;
    with differences 0.19, 0.2, 0.21: t = 34.6, p < 0.001 — significant:

    >>> significant_pair_share(np.array([[0.1, 0.2, 0.3], [0.0, 0.0, 0.0]]))
    0.0
    >>> significant_pair_share(np.array([[0.19, 0.2, 0.21], [0.0, 0.0, 0.0]]))
    1.0
    """
    from scipy.stats import t as student_t

    x = np.asarray(values, dtype=np.float64)
    ok = np.ones(x.shape, dtype=bool) if evaluated is None else np.asarray(evaluated, dtype=bool)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    S = x.shape[0]
    if S < 2:
        return float("nan")
    a, b = np.triu_indices(S, k=1)
    both = ok[a] & ok[b]  # (pairs, T)
    d = np.where(both, x[a] - x[b], 0.0)
    n = both.sum(axis=1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = d.sum(axis=1) / n
        var = (np.where(both, d - mean[:, None], 0.0) ** 2).sum(axis=1) / (n - 1)
        t_stat = mean / np.sqrt(var / n)
        p = 2.0 * student_t.sf(np.abs(t_stat), n - 1)
    significant = (n >= 2) & (var > 1e-24) & (p < alpha)
    return float(significant.mean())


def collection_statistics(experiment: Experiment, *, pool_share_depth: int = 100) -> pd.Series:
    """The calibration statistics of one collection (see the module docstring)."""
    ev = evaluate(experiment, ["JudgedRet@10", "JudgedRet@100", "AP"])
    means = ev.means()
    contrib = np.asarray(experiment.contributors, dtype=bool)
    out: dict[str, float] = {}
    for k in (10, 100):
        col = means[f"JudgedRet@{k}"].to_numpy()
        out[f"judged@{k} contributing"] = float(col[contrib].mean()) if contrib.any() else float("nan")
        out[f"judged@{k} non-contributing"] = float(col[~contrib].mean()) if (~contrib).any() else float("nan")
    out["overlap@100"] = pairwise_overlap(experiment, depth=100)
    out["overlap@100 across groups"] = pairwise_overlap(experiment, depth=100, across_groups=True)

    judgments = experiment.judgments
    judged = judgments.qrel_grade >= 0
    retrieved = (judgments.retrieved_rank <= pool_share_depth).sum(axis=0)
    share = retrieved / len(experiment.run_names)
    relevant = judgments.qrel_grade >= 1
    for low, high in POOL_SHARE_BINS:
        in_bin = judged & (share > low) & (share <= high)
        label = f"relevant if in top-{pool_share_depth} of {low:.0%}–{high:.0%} of runs"
        out[label] = float(relevant[in_bin].mean()) if in_bin.any() else float("nan")

    ap = means["AP"].to_numpy()
    out["MAP max"] = float(ap.max())
    out["MAP max−min"] = float(ap.max() - ap.min())
    q25, q75 = np.quantile(ap, [0.25, 0.75])
    out["MAP IQR"] = float(q75 - q25)
    per_topic = ev["AP"]
    answered = ev.evaluated
    sd = [float(np.std(per_topic[s][answered[s]])) for s in range(per_topic.shape[0]) if answered[s].any()]
    out["AP SD across topics"] = float(np.mean(sd)) if sd else float("nan")
    out["AP pairs significant"] = significant_pair_share(per_topic, answered)

    R = np.bincount(judgments.qrel_topic[relevant & judged], minlength=len(experiment.topics)).astype(np.float64)
    out["R mean"] = float(R.mean())
    out["R CV"] = float(R.std() / R.mean()) if R.mean() > 0 else float("nan")
    return pd.Series(out, name="statistic")


# --------------------------------------------------------------------------- the calibration table
TOLERANCE = 0.05  # a range [lo, hi] of real values is widened by 5% of its midpoint on each side
# The TREC-COVID-design rows are compared with one real value (the "range" is a point), and
# other seeds than the default with the range of both collections; both use this tolerance.
WIDE_TOLERANCE = 0.30
TREC_COVID_DESIGN = {"num_topics": 30, "num_runs": 143, "num_groups": 56, "pool_depth": 7,
                     "pooled_runs_per_group": 1, "novel_runs": 14, "keyword_runs": 29}
# Statistics that depend on how the pool was built (depth, number of pooled runs): the default
# (depth-100 pool) is not comparable with TREC-COVID's depth-7 pool; they are compared on a
# collection simulated with TREC-COVID's design instead.
POOL_DEPENDENT = ("judged@10 contributing", "judged@100 contributing", "judged@100 non-contributing", "R mean")
# Statistics compared between the TREC-COVID-design simulation and TREC-COVID.
DESIGN_ROWS = ("judged@10 contributing", "judged@10 non-contributing", "judged@100 contributing",
               "judged@100 non-contributing", "R mean") + tuple(
    f"relevant if in top-100 of {lo:.0%}–{hi:.0%} of runs" for lo, hi in POOL_SHARE_BINS)


def allowed_range(values, *, tolerance: float = TOLERANCE) -> tuple[float, float]:
    """[min − tol·mid, max + tol·mid] over the finite ``values`` (mid = (min + max) / 2).

    >>> allowed_range([0.12, 0.188], tolerance=0.25)    # mid 0.154, widened by 0.0385 on each side
    (0.0815, 0.2265)
    >>> allowed_range([0.12, 0.188])                    # 5%: widened by 0.0077
    (0.1123, 0.1957)
    """
    finite = [float(v) for v in values if np.isfinite(v)]
    if not finite:
        return float("nan"), float("nan")
    lo, hi = min(finite), max(finite)
    pad = tolerance * abs(lo + hi) / 2
    return round(lo - pad, 10), round(hi + pad, 10)


def real_statistics(data_dir) -> pd.DataFrame:
    """:func:`collection_statistics` of the two real collections, columns ``TREC-COVID`` and
    ``CLEF 2016``; ``data_dir`` holds ``trec-covid-round1/`` and ``clef-ehealth-2016-irtask2/``
    (the project's ``../shared/data``)."""
    from pathlib import Path

    data_dir = Path(data_dir)
    return pd.DataFrame({
        "TREC-COVID": collection_statistics(trec_covid_round1(data_dir / "trec-covid-round1")),
        "CLEF 2016": collection_statistics(clef_ehealth_2016_task2(data_dir / "clef-ehealth-2016-irtask2")),
    })


def calibration_table(data_dir, *, seed: int = SEED.default, tolerance: float = TOLERANCE,
                      real: pd.DataFrame | None = None) -> pd.DataFrame:
    """Simulated versus real statistics, one row per statistic.

    Columns: ``simulated`` (``simulate(seed)``), ``simulated (TREC-COVID design)``
    (``simulate(seed, **TREC_COVID_DESIGN)``), ``TREC-COVID``, ``CLEF 2016``
    (:func:`real_statistics` of ``data_dir``, or ``real`` when given); ``strict``: the
    default lies in [min, max] of the two real values; ``low``/``high``/``ok``: that range
    widened by ``tolerance`` (all three None for POOL_DEPENDENT rows, which the default's
    depth-100 pool makes incomparable); ``design low``/``design high``/``design ok``: the
    TREC-COVID-design simulation against TREC-COVID alone widened by WIDE_TOLERANCE
    (DESIGN_ROWS only).
    """
    from .collection import simulate

    real = real_statistics(data_dir) if real is None else real
    covid, clef = real["TREC-COVID"], real["CLEF 2016"]
    sim = collection_statistics(simulate(seed).experiment)
    design = collection_statistics(simulate(seed, **TREC_COVID_DESIGN).experiment)
    rows = []
    for name in sim.index:
        row = {"statistic": name, "simulated": sim[name], "simulated (TREC-COVID design)": design[name],
               "TREC-COVID": covid[name], "CLEF 2016": clef[name]}
        lo = hi = ok = strict = None
        if name not in POOL_DEPENDENT:
            lo, hi = allowed_range([covid[name], clef[name]], tolerance=tolerance)
            ok = bool(lo <= sim[name] <= hi)
            strict = bool(min(covid[name], clef[name]) <= sim[name] <= max(covid[name], clef[name]))
        dlo = dhi = dok = None
        if name in DESIGN_ROWS:
            dlo, dhi = allowed_range([covid[name]], tolerance=WIDE_TOLERANCE)
            dok = bool(dlo <= design[name] <= dhi)
        row.update({"strict": strict, "low": lo, "high": hi, "ok": ok,
                    "design low": dlo, "design high": dhi, "design ok": dok})
        rows.append(row)
    return pd.DataFrame(rows).set_index("statistic")


def seed_table(real: pd.DataFrame, seeds) -> pd.DataFrame:
    """How the comparable statistics vary with the seed: one row per statistic (POOL_DEPENDENT
    rows left out) with ``min``, ``mean`` and ``max`` over ``simulate(seed)`` for ``seeds``,
    ``inside`` (how many seeds lie in [min, max] of the real values of ``real``, a
    :func:`real_statistics` table) and ``wide`` (how many lie in that range widened by
    WIDE_TOLERANCE)."""
    from .collection import simulate

    seeds = list(seeds)
    if not seeds:
        raise ValueError("seed_table: seeds is empty; give at least one seed")
    names = [n for n in real.index if n not in POOL_DEPENDENT]
    values = pd.DataFrame({s: collection_statistics(simulate(s).experiment)[names] for s in seeds})
    out = pd.DataFrame({"min": values.min(axis=1), "mean": values.mean(axis=1), "max": values.max(axis=1)})
    lo = real.loc[names].min(axis=1)
    hi = real.loc[names].max(axis=1)
    wide = [allowed_range(real.loc[n], tolerance=WIDE_TOLERANCE) for n in names]
    out["inside"] = values.apply(lambda col: (col >= lo) & (col <= hi)).sum(axis=1)
    out["wide"] = [int(((values.loc[n] >= w[0]) & (values.loc[n] <= w[1])).sum())
                   for n, w in zip(names, wide, strict=True)]
    out.index.name = "statistic"
    return out
