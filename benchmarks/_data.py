"""A seeded generator of a synthetic TREC-style test collection for the benchmarks.

``generate(out_dir, ...)`` writes ``runs/run000.txt`` … (one file per run, lines
``qid Q0 docno rank score tag``), ``qrels.txt`` (``qid 0 docno grade``) and a
``manifest.json`` recording the parameters; ``ensure_generated`` reuses a folder whose
manifest matches, so the 10 M-line default set is written once per machine.

How the data looks (enough realism to exercise hashing, ties and partial judgments):

* docnos are 8-character lowercase base-36 strings (like TREC-COVID's ``zhxrlopp``), unique
  over a collection of ``collection_size`` documents;
* each topic has ``candidates_per_topic`` candidate documents with Zipf-like popularity
  w_j = 1 / (j + 10); a run ranks the topic's candidates by log w_j + σ·Gumbel noise
  (σ per run, between 0.3 and 1.5: good runs agree with popularity, poor ones are noisy) and
  keeps the top ``depth`` — so runs share most of their top documents, as pooled runs do;
* scores are the keys shifted to be positive and rounded to ``score_decimals`` decimals, which
  leaves some ties (the rank column follows the rounded score, ties in arbitrary order);
* the qrels judge ``judgments_per_topic`` documents per topic: most drawn from the
  candidates with probability ∝ popularity (as a pool would), a few never retrieved by any
  run; a judged document at popularity rank j is relevant with probability
  0.03 + 0.6·exp(−j / 300), and a relevant one has grade 2 with probability 0.3.

Sizes: ``n_runs × n_topics × depth`` run lines (default 200 × 50 × 1000 = 10 M lines,
about 0.4 GB on disk). All randomness comes from ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

__all__ = ["SyntheticSpec", "SyntheticSet", "generate", "ensure_generated", "default_dir", "ShapeSpec",
           "generate_shape", "ensure_shape"]

_ALPHABET = np.frombuffer(b"0123456789abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)
_DOCNO_LEN = 8


@dataclass(frozen=True)
class SyntheticSpec:
    """Parameters of a synthetic collection (all sizes must be ≥ 1)."""

    n_runs: int = 200
    n_topics: int = 50
    depth: int = 1000
    judgments_per_topic: int = 500
    candidates_per_topic: int = 3000
    collection_size: int = 1_000_000
    score_decimals: int = 4
    seed: int = 20240601

    def __post_init__(self) -> None:
        for name in ("n_runs", "n_topics", "depth", "judgments_per_topic", "candidates_per_topic",
                     "collection_size"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be an integer ≥ 1, got {value!r}")
        if self.candidates_per_topic < self.depth:
            raise ValueError(
                f"candidates_per_topic must be ≥ depth ({self.depth}), got {self.candidates_per_topic}"
            )
        if self.candidates_per_topic > self.collection_size:
            raise ValueError(
                f"collection_size must be ≥ candidates_per_topic ({self.candidates_per_topic}), "
                f"got {self.collection_size}"
            )
        if self.judgments_per_topic > self.collection_size:
            raise ValueError(
                f"judgments_per_topic must be ≤ collection_size ({self.collection_size}), "
                f"got {self.judgments_per_topic}"
            )

    @property
    def num_lines(self) -> int:
        return self.n_runs * self.n_topics * self.depth


@dataclass(frozen=True)
class SyntheticSet:
    """Where a generated collection lives."""

    root: Path
    run_dir: Path
    qrels_path: Path
    spec: SyntheticSpec

    @property
    def run_paths(self) -> list[Path]:
        return [self.run_dir / f"run{i:03d}.txt" for i in range(self.spec.n_runs)]

    @property
    def num_lines(self) -> int:
        return self.spec.num_lines


def _docnos(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` distinct random base-36 strings of 8 characters (numpy ``S8``)."""
    out = np.empty(0, dtype=f"S{_DOCNO_LEN}")
    while out.size < n:
        need = n - out.size
        codes = _ALPHABET[rng.integers(0, _ALPHABET.size, size=(need + need // 10 + 16, _DOCNO_LEN))]
        fresh = np.ascontiguousarray(codes).view(f"S{_DOCNO_LEN}").ravel()
        out = np.unique(np.concatenate([out, fresh]))
    return rng.permutation(out)[:n]


def _topic_ids(n_topics: int) -> list[str]:
    return [str(401 + t) for t in range(n_topics)]


def _write_lines(table: pa.Table, path: Path) -> None:
    pacsv.write_csv(table, str(path),
                    pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none"))


def generate(out_dir: str | os.PathLike, spec: SyntheticSpec | None = None) -> SyntheticSet:
    """Write the collection described by ``spec`` into ``out_dir`` (created if needed).

    Example (hand-checkable size): ``SyntheticSpec(n_runs=3, n_topics=2, depth=20)`` writes
    3 run files of 2 × 20 = 40 lines each, 3 × 40 = 120 run lines in all.
    """
    spec = spec or SyntheticSpec()
    root = Path(out_dir)
    run_dir = root / "runs"
    run_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(spec.seed)
    T, C, D = spec.n_topics, spec.candidates_per_topic, spec.depth
    topics = _topic_ids(T)

    vocab = _docnos(rng, spec.collection_size)
    # candidate documents of each topic, in popularity order (index j = popularity rank)
    candidates = np.stack([rng.choice(spec.collection_size, size=C, replace=False) for _ in range(T)])
    log_w = -np.log(np.arange(C, dtype=np.float64) + 10.0)  # log of 1 / (j + 10)

    topic_col = np.repeat(np.asarray(topics, dtype=object), D)
    rank_col = np.tile(np.arange(1, D + 1, dtype=np.int64), T)
    for i in range(spec.n_runs):
        sigma = rng.uniform(0.3, 1.5)
        keys = log_w[None, :] + sigma * rng.gumbel(size=(T, C))
        top = np.argpartition(-keys, D - 1, axis=1)[:, :D] if D < C else np.tile(np.arange(C), (T, 1))
        top_keys = np.take_along_axis(keys, top, axis=1)
        order = np.argsort(-top_keys, axis=1, kind="stable")
        top = np.take_along_axis(top, order, axis=1)
        top_keys = np.take_along_axis(top_keys, order, axis=1)
        scores = np.round(top_keys - top_keys.min() + 1.0, spec.score_decimals)
        docs = vocab[np.take_along_axis(candidates, top, axis=1)]
        name = f"run{i:03d}"
        table = pa.table({
            "qid": pa.array(topic_col, pa.string()),
            "q0": pa.array(np.full(T * D, "Q0", dtype=object), pa.string()),
            "docno": pa.array(docs.ravel().astype(str), pa.string()),
            "rank": pa.array(rank_col),
            "score": pa.array(scores.ravel()),
            "tag": pa.array(np.full(T * D, name, dtype=object), pa.string()),
        })
        _write_lines(table, run_dir / f"{name}.txt")

    # qrels: mostly pooled-like (popular candidates), a few documents no run retrieved
    J = spec.judgments_per_topic
    n_outside = min(J // 25, spec.collection_size - C)
    n_pool = min(J - n_outside, C)
    weights = np.exp(log_w)
    q_topic, q_doc, q_grade = [], [], []
    for t in range(T):
        picked = rng.choice(C, size=n_pool, replace=False, p=weights / weights.sum())
        p_rel = 0.03 + 0.6 * np.exp(-picked / 300.0)
        if spec.collection_size <= 10 * C:  # small collection: draw from the complement
            outside_pool = np.setdiff1d(np.arange(spec.collection_size), candidates[t])
            outside = rng.choice(outside_pool, size=min(n_outside, outside_pool.size), replace=False)
        else:  # large collection: a random draw rarely hits a candidate; drop those that do
            drawn = rng.choice(spec.collection_size, size=2 * n_outside + 8, replace=False)
            outside = drawn[~np.isin(drawn, candidates[t])][:n_outside]
        p_rel = np.concatenate([p_rel, np.full(outside.size, 0.03)])
        relevant = rng.random(p_rel.size) < p_rel
        grade = np.where(relevant, np.where(rng.random(p_rel.size) < 0.3, 2, 1), 0)
        docs = vocab[np.concatenate([candidates[t][picked], outside])]
        q_topic += [topics[t]] * docs.size
        q_doc += docs.astype(str).tolist()
        q_grade += grade.tolist()
    qrels_path = root / "qrels.txt"
    with open(qrels_path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(f"{t} 0 {d} {g}\n" for t, d, g in zip(q_topic, q_doc, q_grade, strict=True))

    (root / "manifest.json").write_text(json.dumps(asdict(spec), indent=1, sort_keys=True) + "\n")
    return SyntheticSet(root=root, run_dir=run_dir, qrels_path=qrels_path, spec=spec)


def default_dir(spec: SyntheticSpec) -> Path:
    """A per-parameter folder in the system temp dir: the same spec reuses the same files."""
    key = "-".join(f"{v}" for v in asdict(spec).values())
    return Path(tempfile.gettempdir()) / f"irnb-bench-synthetic-{key}"


def ensure_generated(spec: SyntheticSpec | None = None, out_dir: str | os.PathLike | None = None) -> SyntheticSet:
    """Generate the collection unless ``out_dir`` already holds it (same manifest, all files)."""
    spec = spec or SyntheticSpec()
    root = Path(out_dir) if out_dir is not None else default_dir(spec)
    manifest = root / "manifest.json"
    found = SyntheticSet(root=root, run_dir=root / "runs", qrels_path=root / "qrels.txt", spec=spec)
    if manifest.is_file() and json.loads(manifest.read_text()) == asdict(spec):
        if found.qrels_path.is_file() and all(p.is_file() for p in found.run_paths):
            return found
    return generate(root, spec)


# ----------------------------------------------------------------------------- shape families


@dataclass(frozen=True)
class ShapeSpec:
    """One input shape of benchmarks/bench_scale.py's families: ``n_runs`` runs of ``depth``
    documents for each of ``n_topics`` topics, ``judgments_per_topic`` judged documents per
    topic, binary grades (0/1) or graded (0-3), docnos shared by the topics (drawn from one
    collection of 2**18 documents) or distinct across topics (each topic its own candidates,
    as in MS MARCO's passage runs)."""

    n_runs: int = 5
    n_topics: int = 1_000
    depth: int = 200
    judgments_per_topic: int = 100
    graded: bool = True
    distinct_docnos: bool = True
    seed: int = 34

    @property
    def candidates_per_topic(self) -> int:
        """Documents a topic's runs and judgments are drawn from: twice the deeper of the two."""
        return max(2 * self.depth, 2 * self.judgments_per_topic, 60)

    @property
    def num_lines(self) -> int:
        return self.n_runs * self.n_topics * self.depth


_SHARED_COLLECTION = 1 << 18
_BASE36_SPAN = 36 ** _DOCNO_LEN


def _docno_strings(index: np.ndarray) -> np.ndarray:
    """Distinct 8-character base-36 docnos for distinct indices below 36**8: the index
    scrambled by a bijection of [0, 36**8) (times a multiplier prime to 36, plus a shift),
    written in base 36 — random-looking, distinct by construction, no uniqueness check."""
    value = (index.astype(np.uint64) * np.uint64(1_000_003_577) + np.uint64(987_654_321)) % np.uint64(_BASE36_SPAN)
    digits = np.empty((value.size, _DOCNO_LEN), dtype=np.uint8)
    for j in range(_DOCNO_LEN - 1, -1, -1):
        digits[:, j] = _ALPHABET[(value % np.uint64(36)).astype(np.intp)]
        value //= np.uint64(36)
    return digits.view(f"S{_DOCNO_LEN}").ravel()


def generate_shape(out_dir: str | os.PathLike, spec: ShapeSpec) -> SyntheticSet:
    """Write the runs and qrels of ``spec`` (vectorised over topics; popularity, noise and
    grades as :func:`generate` draws them)."""
    root = Path(out_dir)
    run_dir = root / "runs"
    run_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(spec.seed)
    T, C, D, J = spec.n_topics, spec.candidates_per_topic, spec.depth, spec.judgments_per_topic
    if spec.distinct_docnos:  # topic t's candidates: documents t*C ... t*C + C - 1
        candidates = np.arange(T * C, dtype=np.int64).reshape(T, C)
    else:  # C distinct documents of one collection: start + i * stride (odd) modulo 2**18
        start = rng.integers(0, _SHARED_COLLECTION, size=(T, 1))
        stride = 2 * rng.integers(0, _SHARED_COLLECTION // 2, size=(T, 1)) + 1
        candidates = (start + np.arange(C) * stride) % _SHARED_COLLECTION
    log_w = -np.log(np.arange(C, dtype=np.float64) + 10.0)
    topics = np.asarray(_topic_ids(T), dtype=object)
    topic_col = pa.array(np.repeat(topics, D), pa.string())
    rank_col = pa.array(np.tile(np.arange(1, D + 1, dtype=np.int64), T))
    for i in range(spec.n_runs):
        sigma = rng.uniform(0.3, 1.5)
        keys = log_w[None, :] + sigma * rng.gumbel(size=(T, C))
        top = np.argpartition(-keys, D - 1, axis=1)[:, :D]
        top_keys = np.take_along_axis(keys, top, axis=1)
        order = np.argsort(-top_keys, axis=1, kind="stable")
        top, top_keys = np.take_along_axis(top, order, axis=1), np.take_along_axis(top_keys, order, axis=1)
        scores = np.round(top_keys - top_keys.min() + 1.0, 4)  # rounded: some ties
        docs = _docno_strings(np.take_along_axis(candidates, top, axis=1).ravel())
        name = f"run{i:03d}"
        _write_lines(pa.table({"qid": topic_col, "q0": pa.array(np.full(T * D, "Q0", dtype=object), pa.string()),
                               "docno": pa.array(docs.astype(str), pa.string()), "rank": rank_col,
                               "score": pa.array(scores.ravel()),
                               "tag": pa.array(np.full(T * D, name, dtype=object), pa.string())}),
                     run_dir / f"{name}.txt")
    # judged: J candidates per topic without replacement, more likely the popular ones
    # (Gumbel top-J of the log popularities), relevant with probability 0.03 + 0.6 exp(-j / 300)
    keys = log_w[None, :] + rng.gumbel(size=(T, C))
    picked = np.argpartition(-keys, J - 1, axis=1)[:, :J] if J < C else np.tile(np.arange(C), (T, 1))
    relevant = rng.random(picked.shape) < 0.03 + 0.6 * np.exp(-picked / 300.0)
    grade = np.where(relevant, rng.integers(1, 4, size=picked.shape) if spec.graded else 1, 0)
    docs = _docno_strings(np.take_along_axis(candidates, picked, axis=1).ravel())
    qrels_path = root / "qrels.txt"
    _write_lines(pa.table({"qid": pa.array(np.repeat(topics, J), pa.string()),
                           "iteration": pa.array(np.zeros(T * J, dtype=np.int64)),
                           "docno": pa.array(docs.astype(str), pa.string()), "grade": pa.array(grade.ravel())}),
                 qrels_path)
    (root / "manifest.json").write_text(json.dumps(asdict(spec), indent=1, sort_keys=True) + "\n")
    spec_set = SyntheticSpec(n_runs=spec.n_runs, n_topics=T, depth=D, judgments_per_topic=J, candidates_per_topic=C,
                             collection_size=max(T * C, _SHARED_COLLECTION), seed=spec.seed)
    return SyntheticSet(root=root, run_dir=run_dir, qrels_path=qrels_path, spec=spec_set)


def ensure_shape(spec: ShapeSpec, out_dir: str | os.PathLike | None = None) -> SyntheticSet:
    """:func:`generate_shape` unless ``out_dir`` (default: a per-spec temp folder) holds it."""
    key = "-".join(f"{v}" for v in asdict(spec).values())
    root = Path(out_dir) if out_dir is not None else Path(tempfile.gettempdir()) / f"irnb-bench-shape-{key}"
    manifest = root / "manifest.json"
    if manifest.is_file() and json.loads(manifest.read_text()) == asdict(spec):
        paths = [root / "runs" / f"run{i:03d}.txt" for i in range(spec.n_runs)]
        if (root / "qrels.txt").is_file() and all(p.is_file() for p in paths):
            spec_set = SyntheticSpec(n_runs=spec.n_runs, n_topics=spec.n_topics, depth=spec.depth,
                                     judgments_per_topic=spec.judgments_per_topic,
                                     candidates_per_topic=spec.candidates_per_topic,
                                     collection_size=max(spec.n_topics * spec.candidates_per_topic,
                                                         _SHARED_COLLECTION), seed=spec.seed)
            return SyntheticSet(root=root, run_dir=root / "runs", qrels_path=root / "qrels.txt", spec=spec_set)
    return generate_shape(root, spec)
