"""Synthetic document text, generated lazily and deterministically.

Relevance is hard to tell from text in a real pool: the non-relevant documents that runs
retrieve high are about the query's subject too, and relevant documents differ (another
facet, short or long, some barely on the subject). The generative model reproduces that, so
that the relevance classifiers of :mod:`irnb.predict` (Büttcher et al. 2007) do about as
well as on TREC data: per-topic F1 about 0.2–0.6, the SVM ahead of KLD with enough training.

**Word lists of a topic** (``topic_words``; distinct content words, drawn per topic):

* ``topic`` — 37 subject words as a *relevant* treatment of the subject uses them;
* ``near`` — 30 words of the neighbouring, non-relevant treatment (8 shared with ``topic``);
* ``title`` — the 3 title (query) words;
* ``facet`` — 15 words of the facet that only the relevant-novel family is mainly about;
* ``aspect`` — ``NUM_ASPECTS`` × 10 words: sub-subjects shared by relevant and near-topic
  documents alike (a document is about one aspect; its aspect says nothing about relevance).

**Seven components** (``COMPONENTS``): ``background`` (a Zipf model over the whole
vocabulary, the same for every seed: ``vocabulary()``), ``topic``, ``title``, ``facet``,
``near``, ``aspect`` (the document's aspect list) and ``own``: ``NUM_OWN`` rare words
that the document picks by its hash among ``NUM_RARE`` (``rare_words()``: four-syllable
pseudo-words, never in ``vocabulary()``), as names and numbers are in real documents; a rare
word occurs in few documents. Within each list, words follow a Zipf-like law.

**A document's mixture.** Document i of topic t, of family f and grade g (grade ≥ 2 has its
own row), draws its latents from its hash: topicality τ (share of on-topic words), lean ρ
(share of the subject words taken from ``topic`` rather than ``near``), aspect a and
length. With the class row ``CLASSES[f, g]`` = (τ̄, ρ_lo, ρ_hi, title, facet, aspect,
length scale) and uniforms u₁, u₂, u₃ from the hash:

    τ = τ̄ · (TOPICALITY_LOW + (2 − 2·TOPICALITY_LOW) · u₁)          (mean τ̄: 0.2 τ̄ … 1.8 τ̄)
    ρ = ρ_lo + (ρ_hi − ρ_lo) · u₂
    P(own) = OWN_SHARE,   P(background) = 1 − OWN_SHARE − τ,
    P(title) = τ·title,   P(facet) = τ·facet,   P(aspect a) = τ·aspect,
    P(topic) = τ·rest·ρ,   P(near) = τ·rest·(1 − ρ),   rest = 1 − title − facet − aspect,
    length = ⌊scale · (MIN_LENGTH + LENGTH_RANGE · u₃²)⌋   (40 … 439 words for scale 1, mean 173).

The near-topic families (the non-relevant documents that runs pool) are on the subject too
(τ̄ = 0.20 against 0.30 for relevant documents, and τ varies ninefold within a family);
the lean ranges overlap (relevant grade 1: ρ ∈ [0.35, 0.85], near: [0.05, 0.55]), so even
a perfect classifier confuses some. Grade-2 documents are more topical and lean further.
Relevant documents are longer (scale 1.6, grade 2: 1.8), as in TREC collections where the
chance of relevance grows with length (Singhal, Buckley & Mitra, SIGIR 1996). The title
families use title words, relevant or not (a biased cue, as the keyword runs' scores); the
relevant-novel family uses facet words instead (near documents a few); ``simulate``'s
``novel_subject_share`` moves part of them to the subject words (:func:`novel_subject_rows`),
so that those documents read more like the topic's other relevant documents. Background
documents are nearly all background. The ``own`` words let a classifier memorise its
training documents, as real rare terms do: it fits them better than the documents it
predicts (the training scores, hence the threshold, are optimistic).

Hand-checkable example, a relevant-main grade-1 document with u₁ = u₂ = ½: τ = 0.30·(0.2 +
1.6·0.5) = 0.30, ρ = 0.35 + 0.50·0.5 = 0.60, rest = 1 − 0.04 − 0.04 − 0.30 = 0.62, so
P(topic) = 0.30·0.62·0.60 = 0.1116 and P(near) = 0.30·0.62·0.40 = 0.0744: in 200 words
about 22 topic and 15 near words; a near document with u₁ = u₂ = ½ (τ = 0.20, ρ = 0.30,
rest = 0.60) has P(topic) = 0.2·0.6·0.3 = 0.036 and P(near) = 0.084: about 7 and 17.

**Determinism and speed.** Every draw is a counter-based hash (SplitMix64) of
``(seed, topic, document, position)``: a document's text never depends on which other
documents are generated with it, on the order of the requests or on the machine. A word
takes one 64-bit hash: its top 32 bits pick the component against the document's integer
thresholds (the cumulative mixture × 2³², floored), its low 20 bits index the background
table, bits 20–31 the topic's table (or which of the document's own words; those come
from a hash of the document, modulo ``NUM_RARE``). The tables are built once (per
seed and topic for the topic's lists) with integer arithmetic only: a model with integer
weights w (sum W) becomes a table of M = 2^k slots, slot j holding the word whose
cumulative-weight interval contains ⌊j·W / M⌋, so each word gets about w·M/W slots;
Zipf-like weights are ⌊2⁴⁰ / (10·rank + shift)⌋. The mixture uses only IEEE +, −, × and
floor on the hash's uniforms. So the same seed gives the same text on every machine.

**Text for a person** (``Documents.readable``, ``Documents.topic_description``). The texts
above are for classifiers, and a person cannot judge them. An assessor reads another text
of the same document, built so that reading decides: a relevant document (true grade ≥ 1)
draws ``READABLE_SHARE`` of its words from its topic's subject words (the title and
``topic`` lists, title first, Zipf-like), a non-relevant one as much from the subject words
of another topic (picked by the document's hash), and the rest from the function-word-like
filler (vocabulary ranks below ``CONTENT_START``); ``READABLE_LENGTH`` words. The topic's
description names its title and its most frequent subject words, so a reader compares the
document's words with it. With a single topic there is no other topic: its non-relevant
documents are filler only. The draws are the same counter-based hashes, keyed apart from the
classifiers' text, which the readable text leaves unchanged.
"""

from __future__ import annotations

import re
from functools import lru_cache
from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .model import REL_MAIN, REL_NOVEL

__all__ = ["Documents", "ReadableDocuments", "vocabulary", "rare_words", "CLASSES", "COMPONENTS", "topic_words",
           "splitmix64", "mixtures", "novel_subject_rows"]

COMPONENTS = ("background", "topic", "title", "facet", "near", "aspect", "own")
VOCABULARY_SIZE = 6000
CONTENT_START = 300  # vocabulary ranks below this are function-word-like and never topical
NUM_TOPIC, NUM_TITLE, NUM_FACET, NUM_NEAR, NUM_NEAR_SHARED = 40, 3, 15, 30, 8
NUM_ASPECTS, NUM_ASPECT_WORDS = 5, 10
MIN_LENGTH, LENGTH_RANGE = 40, 400  # words per document: 40 + ⌊400·u²⌋ = 40 … 439
TOPICALITY_LOW = 0.2  # τ ranges over τ̄·[0.2, 1.8]
OWN_SHARE, NUM_OWN = 0.05, 4  # share of a document's words that are its own (names, numbers), and how many
NUM_RARE = 20_000  # the rare words that own words are drawn from (document frequency ≈ 4·documents / 20,000)
READABLE_SHARE = 0.4  # share of a readable text's words that are subject words (its topic's or another's)
READABLE_LENGTH = (60, 120)  # words of a readable text: 60 … 119, short enough to read in a class
DESCRIPTION_WORDS = 8  # subject words named by a topic's description, most frequent first

# per (family, grade ≥ 2): mean topicality τ̄, lean range [ρ_lo, ρ_hi], title, facet and aspect shares
#            τ̄     ρ_lo  ρ_hi  title facet aspect length
CLASSES = np.array([
    [[0.02, 0.00, 1.00, 0.00, 0.00, 0.30, 1.0]] * 2,                                           # background
    [[0.20, 0.05, 0.55, 0.02, 0.08, 0.30, 1.0]] * 2,                                           # near
    [[0.20, 0.05, 0.55, 0.14, 0.05, 0.30, 1.0]] * 2,                                           # near-title
    [[0.30, 0.35, 0.85, 0.04, 0.04, 0.30, 1.6], [0.36, 0.50, 0.95, 0.04, 0.04, 0.30, 1.8]],  # relevant-main
    [[0.30, 0.35, 0.85, 0.14, 0.03, 0.30, 1.6], [0.36, 0.50, 0.95, 0.16, 0.03, 0.30, 1.8]],  # relevant-title
    [[0.30, 0.35, 0.85, 0.00, 0.30, 0.30, 1.6], [0.36, 0.50, 0.95, 0.00, 0.35, 0.30, 1.8]],  # relevant-novel
])
_TAU, _RHO_LO, _RHO_HI, _TITLE, _FACET, _ASPECT, _LENGTH = range(7)

_TEXT = 6  # SeedSequence component key for the topics' word lists
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_LATENT_KEYS = (np.uint64(0xA0761D6478BD642F), np.uint64(0xE7037ED1A0B428DB), np.uint64(0x8EBC6AF09C88C6E3),
                np.uint64(0x589965CC75374CC3))  # length, topicality, lean, aspect
_OWN_KEY = np.uint64(0x1D8E4E27C47D124F)
_READABLE_KEY = np.uint64(0x6A09E667F3BCC909)  # keys the readable text's draws apart from the classifiers' text
_BACKGROUND_BITS, _TOPIC_BITS = 20, 12  # table sizes 2²⁰ and 2¹² slots
_SYLLABLES = pa.array([c + v for c in "bdfgklmnprstvz" for v in "aeiou"], pa.string())  # 70 syllables


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The SplitMix64 finaliser on a uint64 array (wrapping arithmetic): a bijection that
    scrambles every input bit into every output bit."""
    x = np.asarray(x, dtype=np.uint64) + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def _uniform(h: np.ndarray) -> np.ndarray:
    """Top 53 bits of a uint64 hash as a float64 in [0, 1)."""
    return (h >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


@lru_cache(maxsize=1)
def vocabulary() -> pa.Array:
    """The fixed pseudo-word vocabulary, most frequent first: 2-syllable words, then
    3-syllable words (consonant-vowel syllables, so distinct indices give distinct words)."""
    n = len(_SYLLABLES)
    idx = np.arange(VOCABULARY_SIZE, dtype=np.int64)
    short = idx < 2500
    out = pa.concat_arrays([
        _syllable_words((idx[short] * 2311 + 17) % (n * n), 2),  # 2311 is prime, coprime with 4900: a bijection
        _syllable_words((idx[~short] * 104729 + 31) % (n ** 3), 3),  # 104729 is prime, coprime with 343000
    ])
    if len(pc.unique(out)) != VOCABULARY_SIZE:  # pragma: no cover - construction guarantees it
        raise RuntimeError("vocabulary words are not unique")
    return out


def _zipf_weights(n: int, shift10: int) -> np.ndarray:
    """Integer Zipf-like weights ⌊2⁴⁰ / (10·rank + shift10)⌋, rank = 0 … n−1: exponent 1
    with rank shifted by shift10/10 (a larger shift is flatter). Integers only.

    >>> _zipf_weights(3, 10).tolist() == [2**40 // 10, 2**40 // 20, 2**40 // 30]
    True
    """
    return (np.int64(1) << np.int64(40)) // (10 * np.arange(n, dtype=np.int64) + shift10)


def _slot_table(weights: np.ndarray, bits: int) -> np.ndarray:
    """A sampling table of 2^bits slots: slot j holds the index whose cumulative-weight
    interval contains ⌊j·W / 2^bits⌋ (W = total weight); integers only.

    Weights 1, 3 over 4 slots: ⌊j·4/4⌋ = 0, 1, 2, 3 → index 0, 1, 1, 1.

    >>> _slot_table(np.array([1, 3]), 2).tolist()
    [0, 1, 1, 1]
    """
    cum = np.cumsum(weights.astype(np.int64))
    size = 1 << bits
    total = int(cum[-1])
    if total >= 1 << (62 - bits):  # pragma: no cover - the weights here are far smaller
        raise OverflowError("slot table: total weight too large for exact integer arithmetic")
    point = (np.arange(size, dtype=np.int64) * total) >> bits
    return np.searchsorted(cum, point, side="right").astype(np.int16 if weights.size <= 1 << 15 else np.int32)


# local slot tables (index into the component's word list), shared by every topic
_LOCAL_TABLES = {
    "topic": _slot_table(_zipf_weights(NUM_TOPIC - NUM_TITLE, 20), _TOPIC_BITS),
    "title": _slot_table(np.ones(NUM_TITLE, dtype=np.int64), _TOPIC_BITS),
    "facet": _slot_table(_zipf_weights(NUM_FACET, 30), _TOPIC_BITS),
    "near": _slot_table(_zipf_weights(NUM_NEAR, 20), _TOPIC_BITS),
    "aspect": _slot_table(_zipf_weights(NUM_ASPECT_WORDS, 30), _TOPIC_BITS),
}


# readable text: subject words (title first, then the topic list) and the filler below CONTENT_START
_SUBJECT_TABLE = _slot_table(_zipf_weights(NUM_TOPIC, 20), _TOPIC_BITS)
_FILLER_TABLE = _slot_table(_zipf_weights(CONTENT_START, 27), _TOPIC_BITS)


@lru_cache(maxsize=1)
def _background_table() -> np.ndarray:
    """The background model's table: 2²⁰ slots over the vocabulary, Zipf with shift 2.7."""
    return _slot_table(_zipf_weights(VOCABULARY_SIZE, 27), _BACKGROUND_BITS)


def topic_words(seed: int, topic_index: int) -> dict[str, np.ndarray]:
    """Vocabulary indices of one topic's word lists: ``title`` (3), ``topic`` (37, without the
    title words), ``facet`` (15), ``near`` (30; 8 shared with ``topic``) and ``aspect``
    (``NUM_ASPECTS`` × 10, one row per aspect). The arrays are read-only."""
    return dict(_topic_words(int(seed), int(topic_index)))


@lru_cache(maxsize=4096)
def _topic_words(seed: int, topic_index: int) -> dict[str, np.ndarray]:
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, _TEXT, topic_index])))
    fresh = NUM_TOPIC + NUM_FACET + NUM_NEAR - NUM_NEAR_SHARED
    picked = CONTENT_START + rng.choice(VOCABULARY_SIZE - CONTENT_START, size=fresh, replace=False)
    topic = picked[:NUM_TOPIC]
    facet = picked[NUM_TOPIC:NUM_TOPIC + NUM_FACET]
    near_own = picked[NUM_TOPIC + NUM_FACET:]
    shared = topic[NUM_TITLE:][rng.choice(NUM_TOPIC - NUM_TITLE, size=NUM_NEAR_SHARED, replace=False)]
    near = np.concatenate([shared, near_own])[rng.permutation(NUM_NEAR)]
    # aspect words: drawn after the others (so the lists above keep their streams), distinct from them
    taken = np.zeros(VOCABULARY_SIZE, dtype=bool)
    taken[picked] = True
    free = CONTENT_START + np.flatnonzero(~taken[CONTENT_START:])
    aspect = free[rng.choice(free.size, size=NUM_ASPECTS * NUM_ASPECT_WORDS, replace=False)]
    out = {"title": topic[:NUM_TITLE], "topic": topic[NUM_TITLE:], "facet": facet, "near": near,
           "aspect": aspect.reshape(NUM_ASPECTS, NUM_ASPECT_WORDS)}
    for arr in out.values():
        arr.flags.writeable = False
    return out


@lru_cache(maxsize=4096)
def _topic_table(seed: int, topic_index: int) -> np.ndarray:
    """(1 + NUM_ASPECTS + 4, 2¹²) vocabulary indices: row 0 unused (background), then topic,
    title, facet, near, and one row per aspect. Cached per (seed, topic)."""
    words = _topic_words(seed, topic_index)
    size = 1 << _TOPIC_BITS
    rows = [np.zeros(size, dtype=np.int16)]
    for name in ("topic", "title", "facet", "near"):
        rows.append(words[name][_LOCAL_TABLES[name]].astype(np.int16))
    for a in range(NUM_ASPECTS):
        rows.append(words["aspect"][a][_LOCAL_TABLES["aspect"]].astype(np.int16))
    table = np.stack(rows)
    table.flags.writeable = False
    return table


def _document_latents(base: np.ndarray) -> tuple[np.ndarray, ...]:
    """The uniforms u₃ (length), u₁ (topicality), u₂ (lean) and the aspect of each document,
    from its hash."""
    u_len, u_tau, u_rho, u_aspect = (_uniform(splitmix64(base ^ key)) for key in _LATENT_KEYS)
    aspect = np.floor(u_aspect * NUM_ASPECTS).astype(np.int64)
    return u_len, u_tau, u_rho, aspect


def _class_rows(family: np.ndarray, grade: np.ndarray, *, novel_subject_share: float = 0.0) -> np.ndarray:
    family = np.asarray(family, dtype=np.int64)
    grade2 = (np.asarray(grade) >= 2).astype(np.int64)
    rows = CLASSES[family, grade2]
    if novel_subject_share:
        rows = novel_subject_rows(rows, family == REL_NOVEL, grade2, share=novel_subject_share)
    return rows


def novel_subject_rows(rows: np.ndarray, novel: np.ndarray, grade2: np.ndarray, *, share: float) -> np.ndarray:
    """``rows`` (class rows, one per document) with the facet share of the ``novel`` ones
    moved, for ``share`` of it, to the relevant-main family's (``grade2``: 1 where the
    document has grade ≥ 2, whose row is its own): the words freed go to the subject words
    (``topic`` and ``near`` by the document's lean, as every relevant document's), so a
    relevant-novel document reads more like the other relevant documents of its topic. Its
    title share stays 0 (it is still not described with the title's words), and so do its
    topicality, lean and length; the model's features, hence the runs, are untouched.

    Why: in Büttcher et al.'s Table 6 an SVM trained on the automatic-only qrels — which hold
    few of the relevant documents only manual runs pool — finds those documents about as well
    as one trained on a random part of the qrels finds the rest (``tests/datasets/
    test_settings_buttcher.py`` computes the ratio of the recalls from the paper's table):
    the relevant documents that manual formulations add use their topic's vocabulary,
    whatever words the formulation reached them by. No real document text is in reach to
    measure this directly: the shared TREC-COVID and CLEF eHealth data hold runs, qrels and
    topics, not the documents.

    A grade-1 relevant-novel row (facet 0.30; relevant-main's 0.04) with share ½ has the
    facet share 0.30 − ½·(0.30 − 0.04) = 0.17:

    >>> row = CLASSES[REL_NOVEL, 0][None, :]
    >>> round(float(novel_subject_rows(row, np.array([True]), np.array([0]), share=0.5)[0, _FACET]), 4)
    0.17
    """
    out = np.array(rows, dtype=np.float64)
    target = CLASSES[REL_MAIN, np.asarray(grade2)[novel], _FACET]
    out[novel, _FACET] -= share * (out[novel, _FACET] - target)
    return out


def mixtures(family: np.ndarray, grade: np.ndarray, u_tau: np.ndarray, u_rho: np.ndarray, *,
             novel_subject_share: float = 0.0) -> np.ndarray:
    """Per-document component probabilities, shape (n, 7) in ``COMPONENTS`` order (the
    module docstring's formulas), from the family, grade and the uniforms u₁ and u₂;
    ``novel_subject_share`` > 0 moves the relevant-novel documents' facet words to the
    subject words (:func:`novel_subject_rows`).

    The module docstring's relevant-main grade-1 document (u₁ = u₂ = ½): background
    1 − 0.05 − 0.30 = 0.65, topic 0.1116, title and facet 0.30·0.04 = 0.012, near 0.0744,
    aspect 0.30·0.30 = 0.09, own 0.05 (sum 1).

    >>> p = mixtures(np.array([3]), np.array([1]), np.array([0.5]), np.array([0.5]))[0]
    >>> [round(float(x), 4) for x in p]
    [0.65, 0.1116, 0.012, 0.012, 0.0744, 0.09, 0.05]
    """
    row = _class_rows(family, grade, novel_subject_share=novel_subject_share)
    u_tau, u_rho = np.asarray(u_tau, dtype=np.float64), np.asarray(u_rho, dtype=np.float64)
    tau = row[:, _TAU] * (TOPICALITY_LOW + (2.0 - 2.0 * TOPICALITY_LOW) * u_tau)
    rho = row[:, _RHO_LO] + (row[:, _RHO_HI] - row[:, _RHO_LO]) * u_rho
    rest = 1.0 - row[:, _TITLE] - row[:, _FACET] - row[:, _ASPECT]
    return np.stack([1.0 - OWN_SHARE - tau, tau * rest * rho, tau * row[:, _TITLE], tau * row[:, _FACET],
                     tau * rest * (1.0 - rho), tau * row[:, _ASPECT], np.full(tau.size, OWN_SHARE)], axis=1)


def _syllable_words(codes: np.ndarray, syllables: int) -> pa.Array:
    """Pseudo-words of ``syllables`` consonant-vowel syllables, one per code (base 70 digits)."""
    digits = [(codes // 70 ** (syllables - 1 - k)) % 70 for k in range(syllables)]
    return pc.binary_join_element_wise(*(_SYLLABLES.take(pa.array(d)) for d in digits), "")


@lru_cache(maxsize=1)
def rare_words() -> pa.Array:
    """The ``NUM_RARE`` rare words (names, numbers) that documents' own words are drawn from:
    four syllables, so never a (two- or three-syllable) vocabulary word; rare word r has the
    syllables of (r·1000003 + 7) mod 70⁴ (1000003 is prime, coprime with 70⁴: distinct words)."""
    return _syllable_words((np.arange(NUM_RARE, dtype=np.int64) * 1000003 + 7) % 70 ** 4, 4)


@lru_cache(maxsize=1)
def _all_words() -> pa.Array:
    return pa.concat_arrays([vocabulary(), rare_words()])


class Documents(Mapping):
    """Read-only mapping docno → text over every document of a simulated collection.

    Texts are generated on access (nothing is stored); ``texts(docnos)`` generates many at
    once, vectorised. ``len()`` counts every document of every topic.

    >>> from irnb.datasets import simulate
    >>> docs = simulate(seed=1, num_topics=2, num_runs=4, num_groups=2, docs_per_topic=500,
    ...                 run_depth=100, pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1).documents
    >>> len(docs), docs.texts(["D101-00007"])[0] == docs["D101-00007"]
    (1000, True)
    """

    _DOCNO = re.compile(r"D(\d+)-(\d+)\Z")

    def __init__(self, *, seed: int, topics: Sequence[str], family: np.ndarray, grade: np.ndarray,
                 docno_width: int, novel_subject_share: float = 0.0):
        self._seed = int(seed)
        self._novel_subject_share = float(novel_subject_share)  # see novel_subject_rows
        self._topics = tuple(topics)
        self._topic_index = {t: i for i, t in enumerate(self._topics)}
        self._family = family
        self._grade = grade
        self._width = int(docno_width)
        self._tables: np.ndarray | None = None  # (T, rows, 2¹²), built on first generation

    # ------------------------------------------------------------------ Mapping
    def __len__(self) -> int:
        return int(self._family.size)

    def __iter__(self) -> Iterator[str]:
        N = self._family.shape[1]
        for topic in self._topics:
            for i in range(N):
                yield f"D{topic}-{i:0{self._width}d}"

    def __contains__(self, docno: object) -> bool:
        return isinstance(docno, str) and self._locate_one(docno) is not None

    def __getitem__(self, docno: str) -> str:
        return self.texts([docno])[0]

    def __repr__(self) -> str:
        T, N = self._family.shape
        return f"Documents({T} topics × {N} documents, generated on access)"

    # ------------------------------------------------------------------ lookup
    def _locate_one(self, docno: str) -> tuple[int, int] | None:
        match = self._DOCNO.match(docno)
        if match is None or len(match.group(2)) != self._width:
            return None
        t = self._topic_index.get(match.group(1))
        i = int(match.group(2))
        if t is None or i >= self._family.shape[1]:
            return None
        return t, i

    def locate(self, docnos: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
        """(topic index, document index) of each docno; a KeyError names the first unknown."""
        docnos = list(docnos)
        t_idx = np.empty(len(docnos), dtype=np.int64)
        d_idx = np.empty(len(docnos), dtype=np.int64)
        for k, docno in enumerate(docnos):
            where = self._locate_one(docno) if isinstance(docno, str) else None
            if where is None:
                example = f"D{self._topics[0]}-{0:0{self._width}d}"
                raise KeyError(f"unknown docno {docno!r}: expected 'D<topic>-<index>' such as {example!r} "
                               f"with a topic among {self._topics[:3]}… and index < {self._family.shape[1]}")
            t_idx[k], d_idx[k] = where
        return t_idx, d_idx

    def _topic_number(self, topic: str) -> int:
        if topic not in self._topic_index:
            raise KeyError(f"unknown topic {topic!r}; expected one of {self._topics[:5]}…")
        return self._topic_index[topic]

    def topic_title(self, topic: str) -> str:
        """The topic's title: its three title words."""
        title = _topic_words(self._seed, self._topic_number(topic))["title"]
        return " ".join(vocabulary().take(pa.array(title)).to_pylist())

    def subject_words(self, topic: str) -> list[str]:
        """The topic's subject words, most frequent first: its title words, then its ``topic``
        list (the words a relevant document's readable text is drawn from)."""
        words = _topic_words(self._seed, self._topic_number(topic))
        return vocabulary().take(pa.array(np.concatenate([words["title"], words["topic"]]))).to_pylist()

    def topic_description(self, topic: str) -> str:
        """What a relevant document of ``topic`` is about, for a person judging its readable
        text: the title and the ``DESCRIPTION_WORDS`` most frequent subject words after it."""
        words = self.subject_words(topic)
        more = words[NUM_TITLE:NUM_TITLE + DESCRIPTION_WORDS]
        return (f"A relevant document is about {' '.join(words[:NUM_TITLE])}: it uses the title's words and "
                f"words such as {', '.join(more)}. A document about another subject is not relevant.")

    @property
    def readable(self) -> ReadableDocuments:
        """Read-only mapping docno → text a person can judge (the module docstring's *text for a
        person*)."""
        return ReadableDocuments(self)

    # ------------------------------------------------------------------ generation
    def texts(self, docnos: Iterable[str]) -> list[str]:
        """The texts of many documents at once (vectorised over all their words)."""
        t, i = self.locate(docnos)
        return self._generate(t, i)

    def term_statistics(self) -> pd.DataFrame:
        """Term statistics of the whole collection (every document of every topic; ``len(self)``
        documents), for the relevance classifiers' background model, IDF and vocabulary as
        Büttcher et al. define them (:meth:`irnb.predict.CollectionStatistics.from_frame`): one
        row per term (index ``term``), its occurrences (``frequency``) and the documents that
        contain it (``documents``). One vectorised pass over the documents' word draws, one
        topic at a time (no text is built); its terms are the words the texts' tokens are.

        >>> from irnb.datasets import simulate
        >>> docs = simulate(seed=1, num_topics=2, num_runs=4, num_groups=2, docs_per_topic=500, run_depth=100,
        ...                 pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1).documents
        >>> stats = docs.term_statistics()
        >>> list(stats.columns), int(stats["frequency"].sum()) == sum(len(t.split()) for t in docs.texts(list(docs)))
        (['frequency', 'documents'], True)
        """
        words = _all_words()
        V = len(words)
        T, N = self._family.shape
        frequency = np.zeros(V, dtype=np.int64)
        containing = np.zeros(V, dtype=np.int64)
        key_type = np.int32 if N * V < 2 ** 31 else np.int64
        for t in range(T):  # a topic at a time bounds the memory; each topic is vectorised
            offsets, _, word = self._draw(np.full(N, t), np.arange(N))
            frequency += np.bincount(word, minlength=V)
            owner = np.repeat(np.arange(N, dtype=key_type), np.diff(offsets))
            key = np.sort(owner * key_type(V) + word.astype(key_type))  # (document, word) pairs, sorted
            first = np.ones(key.size, dtype=bool)
            first[1:] = key[1:] != key[:-1]
            containing += np.bincount(key[first] % V, minlength=V)
        return pd.DataFrame({"frequency": frequency, "documents": containing},
                            index=pd.Index(words.to_pylist(), name="term"))

    def _topic_tables(self) -> np.ndarray:
        if self._tables is None:
            self._tables = np.stack([_topic_table(self._seed, t) for t in range(len(self._topics))])
        return self._tables

    def _generate(self, t: np.ndarray, i: np.ndarray) -> list[str]:
        if t.size == 0:
            return []
        offsets, _, word = self._draw(t, i)
        words = _all_words().take(pa.array(word))
        lists = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), words)
        return pc.binary_join(lists, " ").to_pylist()

    def _draw(self, t: np.ndarray, i: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The arrays behind the texts of documents (t[k], i[k]): word offsets (n + 1),
        each word's component (index into ``COMPONENTS``) and word index (< VOCABULARY_SIZE:
        a vocabulary word; VOCABULARY_SIZE + r: rare word r, for own words)."""
        t, i = np.asarray(t, dtype=np.int64), np.asarray(i, dtype=np.int64)
        base = splitmix64(splitmix64(splitmix64(np.full(t.size, self._seed, dtype=np.uint64))
                                     ^ t.astype(np.uint64)) ^ i.astype(np.uint64))
        u_len, u_tau, u_rho, aspect = _document_latents(base)
        family, grade = self._family[t, i], self._grade[t, i]
        scale = _class_rows(family, grade)[:, _LENGTH]
        length = np.floor(scale * (MIN_LENGTH + LENGTH_RANGE * (u_len * u_len))).astype(np.int64)
        # component k takes the top-32-bit values in [cut[k-1], cut[k]): integer thresholds per document
        cum = np.cumsum(mixtures(family, grade, u_tau, u_rho, novel_subject_share=self._novel_subject_share)
                        [:, :-1], axis=1).T  # (6, n), ≤ 1 − OWN_SHARE
        cut = np.minimum(np.floor(cum * 4294967296.0), 4294967295.0).astype(np.uint32)
        offsets = np.zeros(t.size + 1, dtype=np.int64)
        np.cumsum(length, out=offsets[1:])
        owner = np.repeat(np.arange(t.size), length)
        position = (np.arange(offsets[-1], dtype=np.int64) - offsets[owner]).astype(np.uint64)
        h = splitmix64(base[owner] + (position + np.uint64(1)) * _M1)  # one hash per (document, position)
        top = (h >> np.uint64(32)).astype(np.uint32)
        component = np.zeros(h.size, dtype=np.int8)
        for threshold in cut:
            component += top >= threshold[owner]
        slot = ((h >> np.uint64(_BACKGROUND_BITS)) & np.uint64((1 << _TOPIC_BITS) - 1)).astype(np.int64)
        # topic-table row: components 1–4 → rows 1–4, aspect → row 5 + the document's aspect (own: any row)
        row = np.minimum(component, 5) + (component == 5) * aspect[owner]
        tables = self._topic_tables()
        word = tables.reshape(-1)[(t[owner] * tables.shape[1] + row) * tables.shape[2] + slot].astype(np.int32)
        background = component == 0
        word[background] = _background_table()[(h[background] & np.uint64((1 << _BACKGROUND_BITS) - 1))
                                               .astype(np.int64)]
        own = component == 6
        own_words = splitmix64((base[:, None] ^ _OWN_KEY) + np.arange(1, NUM_OWN + 1, dtype=np.uint64))
        own_words = (own_words % np.uint64(NUM_RARE)).astype(np.int32).ravel()  # (n·NUM_OWN,) rare-word indices
        word[own] = VOCABULARY_SIZE + own_words[owner[own] * NUM_OWN + slot[own] % NUM_OWN]
        return offsets, component, word

    def _readable(self, t: np.ndarray, i: np.ndarray) -> list[str]:
        """Readable texts of documents (t[k], i[k]) (the module docstring's *text for a person*)."""
        if t.size == 0:
            return []
        T = len(self._topics)
        base = splitmix64(splitmix64(splitmix64(np.full(t.size, self._seed, dtype=np.uint64))
                                     ^ t.astype(np.uint64)) ^ i.astype(np.uint64)) ^ _READABLE_KEY
        h_doc = splitmix64(base)
        low, high = READABLE_LENGTH
        length = low + (h_doc % np.uint64(high - low)).astype(np.int64)
        relevant = self._grade[t, i] >= 1
        # a non-relevant document's subject: another topic, t + 1 + (hash mod T − 1), cyclically
        other = (t + 1 + ((h_doc >> np.uint64(32)) % np.uint64(max(T - 1, 1))).astype(np.int64)) % T
        subject = np.where(relevant, t, other)
        has_subject = relevant | (T > 1)
        offsets = np.zeros(t.size + 1, dtype=np.int64)
        np.cumsum(length, out=offsets[1:])
        owner = np.repeat(np.arange(t.size), length)
        position = (np.arange(offsets[-1], dtype=np.int64) - offsets[owner]).astype(np.uint64)
        h = splitmix64(base[owner] + (position + np.uint64(1)) * _M1)
        cut = np.uint64(int(READABLE_SHARE * 4294967296.0))
        on_subject = ((h >> np.uint64(32)) < cut) & has_subject[owner]
        slot = ((h >> np.uint64(_BACKGROUND_BITS)) & np.uint64((1 << _TOPIC_BITS) - 1)).astype(np.int64)
        word = _FILLER_TABLE[slot].astype(np.int64)
        lists = {s: np.concatenate([_topic_words(self._seed, s)["title"], _topic_words(self._seed, s)["topic"]])
                 for s in np.unique(subject[has_subject]).tolist()}
        for s_topic, words in lists.items():
            here = on_subject & (subject[owner] == s_topic)
            word[here] = words[_SUBJECT_TABLE[slot[here]]]
        texts = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), vocabulary().take(pa.array(word)))
        return pc.binary_join(texts, " ").to_pylist()


class ReadableDocuments(Mapping):
    """Read-only mapping docno → readable text (``Documents.readable``): the same documents as
    the :class:`Documents` it comes from, in text a person can judge against
    :meth:`Documents.topic_description`.

    >>> from irnb.datasets import simulate
    >>> docs = simulate(seed=1, num_topics=2, num_runs=4, num_groups=2, docs_per_topic=500,
    ...                 run_depth=100, pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1).documents
    >>> text = docs.readable["D101-00007"]
    >>> text == docs.readable.texts(["D101-00007"])[0], 60 <= len(text.split()) < 120
    (True, True)
    """

    def __init__(self, documents: Documents):
        self.documents = documents

    def __len__(self) -> int:
        return len(self.documents)

    def __iter__(self) -> Iterator[str]:
        return iter(self.documents)

    def __contains__(self, docno: object) -> bool:
        return docno in self.documents

    def __getitem__(self, docno: str) -> str:
        return self.texts([docno])[0]

    def __repr__(self) -> str:
        return f"ReadableDocuments({self.documents!r})"

    def texts(self, docnos: Iterable[str]) -> list[str]:
        """The readable texts of many documents at once."""
        t, i = self.documents.locate(docnos)
        return self.documents._readable(t, i)

    def topic_title(self, topic: str) -> str:
        return self.documents.topic_title(topic)

    def topic_description(self, topic: str) -> str:
        return self.documents.topic_description(topic)
