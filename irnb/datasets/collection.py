"""``simulate()``: a seeded TREC-like test collection with complete ground truth.

The generative model lives in :mod:`irnb.datasets.model`; this module turns its arrays into
irnb objects (Runs, Qrels, an Experiment) and tables (``run_info``, ``topics``).

Official qrels: the union of the top ``pool_depth`` documents of every contributing run,
judged with the true grades (as TREC pools are judged). Truth: every document of every
topic, with its grade (0, 1 or 2).

Scores are printed with six decimals; the in-memory runs hold exactly the printed values
(``micro-units / 10⁶``), ranked as trec_eval ranks them (scores compared as float32, ties by
docno descending), so a collection written with :func:`~irnb.datasets.write_collection`
reads back into the same rankings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..params import SEED
from ..experiment import Experiment
from ..trecdata import Qrels, Run
from . import model
from .fast_experiment import experiment_from_ranking
from .params import SIMULATION_PARAMS, validate_params
from .text import Documents

__all__ = ["Collection", "simulate", "default", "GROUP_NAMES", "FIRST_TOPIC"]

GROUP_NAMES = ("acorn", "birch", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
               "kestrel", "lumen", "maple", "nimbus", "onyx", "pier", "quartz", "raven", "sable", "tundra",
               "umber", "vale", "willow", "yarrow")
FIRST_TOPIC = 101  # topic ids 101, 102, … (three digits up to 500 topics: string order = numeric order)


@dataclass(frozen=True, eq=False)
class Collection:
    """A simulated test collection.

    Attributes
    ----------
    runs : read-only mapping run name → :class:`~irnb.Run` (``run_depth`` documents per topic)
    qrels : the official (pooled) qrels
    truth : the complete qrels: every document of every topic with its true grade
    run_info : one row per run: ``run, group, manual, contributor, kind`` (popular, keyword,
        novel), ``quality`` (signal-to-noise of its scoring function)
    topics : one row per topic: ``topic, title, relevant`` (true R), ``relevant_judged``
        (R in the official qrels), ``judged`` (official qrels size), ``documents``
    documents : :class:`~irnb.datasets.text.Documents`, docno → synthetic text (lazy)
    params : the parameters it was generated with (``seed`` included)
    experiment : the :class:`~irnb.Experiment` (groups, contributors and ``truth`` set),
        built on first access from the arrays below (no docno lookups)
    family, ranking, scores, pooled : the latent arrays, for teaching and tests:
        ``family[t, i]`` of document i of topic t (``model.FAMILY_NAMES``), ``ranking[s, t, r]``
        the document at rank r + 1, ``scores[s, t, r]`` its printed score × 10⁶ (int64),
        ``pooled[t, i]`` whether it is in the official qrels. Docno of document i of topic t:
        ``D<topic>-<i>`` (zero-padded to five digits).
    """

    runs: Mapping[str, Run] = field(repr=False)
    qrels: Qrels = field(repr=False)
    truth: Qrels = field(repr=False)
    run_info: pd.DataFrame = field(repr=False)
    topics: pd.DataFrame = field(repr=False)
    documents: Documents = field(repr=False)
    params: Mapping[str, Any] = field(repr=False)
    family: np.ndarray = field(repr=False)  # (T, N) latent document family, see model.FAMILY_NAMES
    ranking: np.ndarray = field(repr=False)  # (S, T, D) document index per run, topic, rank
    scores: np.ndarray = field(repr=False)  # (S, T, D) int64 printed score × 10⁶
    pooled: np.ndarray = field(repr=False)  # (T, N) document is in the official qrels

    @cached_property
    def experiment(self) -> Experiment:
        return self._experiment(self.qrels, self.pooled)

    @cached_property
    def complete_experiment(self) -> Experiment:
        """The same runs as :attr:`experiment` with the complete truth as their qrels (and
        truth), so every document is judged and a pool over the truth is a mask: the setting
        of :func:`irnb.judging.simulate_judging` and of a pool of every run (E, Ravana &
        Moffat's Figure 1). Built once per collection."""
        return self._experiment(self.truth, np.ones_like(self.pooled))

    def _experiment(self, qrels: Qrels, pooled: np.ndarray) -> Experiment:
        """The collection's runs against ``qrels`` (``pooled[t, i]``: document i of topic t is in them)."""
        info = self.run_info
        return experiment_from_ranking(
            dict(self.runs), qrels, self.truth, ranking=self.ranking, pooled=pooled,
            topics=self.topics["topic"].tolist(), groups=info["group"].tolist(),
            contributors=info["contributor"].to_numpy(dtype=bool))

    @property
    def seed(self) -> int:
        return int(self.params["seed"])

    def __repr__(self) -> str:
        info = self.run_info
        return (f"Collection(seed={self.seed}: {len(self.topics)} topics, {len(info)} runs in "
                f"{info['group'].nunique()} groups ({int(info['manual'].sum())} manual, "
                f"{int(info['contributor'].sum())} pooled at depth {self.params['pool_depth']}), "
                f"{self.qrels.num_judgments} official judgments, {self.truth.num_judgments} true)")


def _check_seed(seed: Any) -> int:
    return SEED.validate(seed, "simulate")


def _group_names(G: int) -> list[str]:
    if G <= len(GROUP_NAMES):
        return list(GROUP_NAMES[:G])
    return [f"team{g + 1:03d}" for g in range(G)]


def simulate(
    seed: int = SEED.default,
    *,
    num_topics: int = SIMULATION_PARAMS["num_topics"].default,
    num_runs: int = SIMULATION_PARAMS["num_runs"].default,
    num_groups: int = SIMULATION_PARAMS["num_groups"].default,
    run_depth: int = SIMULATION_PARAMS["run_depth"].default,
    docs_per_topic: int = SIMULATION_PARAMS["docs_per_topic"].default,
    pool_depth: int = SIMULATION_PARAMS["pool_depth"].default,
    pooled_runs_per_group: int = SIMULATION_PARAMS["pooled_runs_per_group"].default,
    median_relevant: float = SIMULATION_PARAMS["median_relevant"].default,
    relevant_spread: float = SIMULATION_PARAMS["relevant_spread"].default,
    difficulty_spread: float = SIMULATION_PARAMS["difficulty_spread"].default,
    novel_runs: int = SIMULATION_PARAMS["novel_runs"].default,
    keyword_runs: int = SIMULATION_PARAMS["keyword_runs"].default,
    title_share: float = SIMULATION_PARAMS["title_share"].default,
    novel_share: float = SIMULATION_PARAMS["novel_share"].default,
    pooled_manual_runs: int = SIMULATION_PARAMS["pooled_manual_runs"].default,
    pooled_automatic_runs: int = SIMULATION_PARAMS["pooled_automatic_runs"].default,
    facet_decoys: float = SIMULATION_PARAMS["facet_decoys"].default,
    max_runs_per_group: int = SIMULATION_PARAMS["max_runs_per_group"].default,
    novel_subject_share: float = SIMULATION_PARAMS["novel_subject_share"].default,
) -> Collection:
    """Simulate a TREC-like ad-hoc test collection whose complete truth is known.

    Every keyword is validated against its declared bounds (``SIMULATION_PARAMS``); the
    same seed and parameters give the same collection on any machine. See
    :mod:`irnb.datasets.model` for the generative model.

    With the defaults: 50 topics, 40 runs from 12 groups, 1000 documents per run and topic,
    one pooled run per group (manual runs first), pool depth 100, so the official qrels
    judge each pooled run's top 100 and nothing else.

    >>> c = simulate(seed=3, num_topics=2, num_runs=5, num_groups=2, docs_per_topic=400,
    ...              run_depth=50, pool_depth=5, median_relevant=10, novel_runs=1, keyword_runs=1)
    >>> len(c.runs), int(c.run_info["contributor"].sum())   # one pooled run per group
    (5, 2)
    >>> c.truth.num_judgments                           # 2 topics × 400 documents
    800
    """
    given = {k: v for k, v in locals().items() if k in SIMULATION_PARAMS}
    seed = _check_seed(seed)
    p = validate_params(given)
    latents = model.draw_latents(
        seed, num_topics=p["num_topics"], docs_per_topic=p["docs_per_topic"], median_relevant=p["median_relevant"],
        relevant_spread=p["relevant_spread"], title_share=p["title_share"], novel_share=p["novel_share"],
        difficulty_spread=p["difficulty_spread"], facet_decoys=p["facet_decoys"])
    design = model.draw_design(
        seed, num_runs=p["num_runs"], num_groups=p["num_groups"], novel_runs=p["novel_runs"],
        keyword_runs=p["keyword_runs"], pooled_runs_per_group=p["pooled_runs_per_group"],
        pooled_manual_runs=p["pooled_manual_runs"], pooled_automatic_runs=p["pooled_automatic_runs"],
        max_runs_per_group=p["max_runs_per_group"])
    ranking, score = model.rank_documents(seed, latents, design, run_depth=p["run_depth"])
    return _assemble(seed, p, latents, design, ranking, score)


def _docnos(topic_ids: list[str], N: int, width: int) -> pa.Array:
    """``D<topic>-<index>`` for every document, in (topic, index) order (= string order)."""
    index = pc.utf8_lpad(pc.cast(pa.array(np.tile(np.arange(N), len(topic_ids))), pa.string()), width, "0")
    topic_of_row = pa.array(np.repeat(np.arange(len(topic_ids)), N))
    prefix = pa.array([f"D{t}-" for t in topic_ids], pa.string()).take(topic_of_row)
    return pc.binary_join_element_wise(prefix, index, "")


def _assemble(seed: int, p: dict, latents: model.Latents, design: model.Design,
              ranking: np.ndarray, score: np.ndarray) -> Collection:
    S, T, D = ranking.shape
    N = latents.family.shape[1]
    topic_ids = [str(FIRST_TOPIC + t) for t in range(T)]
    width = max(5, len(str(N - 1)))
    # every docno once, in (topic, index) order = string order (fixed width)
    docnos = _docnos(topic_ids, N, width)

    # runs
    groups = _group_names(int(design.group.max()) + 1)
    names = [f"{groups[g]}-{'m' if m else 'a'}{k}"
             for g, m, k in zip(design.group, design.manual, design.index_in_group, strict=True)]
    topic_column = pa.array(topic_ids, pa.string()).take(pa.array(np.repeat(np.arange(T), D)))
    offsets = (np.arange(T, dtype=np.int64) * N)[:, None]
    runs: dict[str, Run] = {}
    for s, name in enumerate(names):
        table = pa.table({
            "topic": topic_column,
            "docno": docnos.take(pa.array((offsets + ranking[s]).ravel())),
            "score": pa.array(score[s].ravel() / 1e6, pa.float64()),
        })
        runs[name] = Run(name=name, table=table, tag=name, source=f"irnb.datasets.simulate(seed={seed})")

    # qrels: truth = every document; official = the pool of the contributing runs
    grade = latents.grade
    pooled = np.zeros((T, N), dtype=bool)
    contrib = np.flatnonzero(design.contributor)
    depth = p["pool_depth"]
    t_idx = np.broadcast_to(np.arange(T)[None, :, None], (contrib.size, T, depth))
    pooled[t_idx, ranking[contrib, :, :depth]] = True
    pooled.flags.writeable = False
    truth = Qrels(table=pa.table({
        "topic": pa.array(topic_ids, pa.string()).take(pa.array(np.repeat(np.arange(T), N))),
        "docno": docnos,
        "grade": pa.array(grade.ravel().astype(np.int64)),
    }), source=f"irnb.datasets.simulate(seed={seed}) truth")
    keep = pa.array(pooled.ravel())
    qrels = Qrels(table=truth.table.filter(keep), source=f"irnb.datasets.simulate(seed={seed}) pool")

    run_info = pd.DataFrame({
        "run": names,
        "group": [groups[g] for g in design.group],
        "manual": design.manual.copy(),
        "contributor": design.contributor.copy(),
        "kind": np.asarray(model.KINDS, dtype=object)[design.kind],
        "quality": design.quality.copy(),
    })
    documents = Documents(seed=seed, topics=topic_ids, family=latents.family, grade=latents.grade,
                          docno_width=width, novel_subject_share=p["novel_subject_share"])
    relevant = (grade > 0).sum(axis=1)
    topics = pd.DataFrame({
        "topic": topic_ids,
        "title": [documents.topic_title(t) for t in topic_ids],
        "relevant": relevant,
        "relevant_judged": ((grade > 0) & pooled).sum(axis=1),
        "judged": pooled.sum(axis=1),
        "documents": np.full(T, N),
    })
    params = MappingProxyType({"seed": seed, **p})
    return Collection(runs=MappingProxyType(runs), qrels=qrels, truth=truth, run_info=run_info, topics=topics,
                      documents=documents, params=params, family=latents.family, ranking=ranking,
                      scores=score, pooled=pooled)


@lru_cache(maxsize=1)
def default() -> Collection:
    """The embedded default collection, ``simulate(seed=0)``, generated once per process.

    The same object is returned on every call: treat its tables as read-only.
    """
    return simulate(seed=0)
