"""Synthetic document text, generated lazily and deterministically.

Every document's words are a mixture of five small language models:

* ``background`` — a Zipf distribution over a fixed vocabulary of pseudo-words (the same for
  every seed: ``vocabulary()``);
* ``topic`` — the topic's subject words except its title words (Zipf over 37 words);
* ``title`` — the topic's three title words (uniform);
* ``facet`` — 15 words for an aspect of the topic that the title does not name;
* ``near`` — 30 words of a neighbouring subject (8 of them shared with the topic).

A document's mixture weights depend on its family and grade (``MIXTURES``): relevant
documents draw many topic words, the title family many title words, the novel family facet
words instead of title words, near-topic documents near words, background documents almost
only background words. So a KLD or SVM relevance classifier trained on judged documents has
real signal, and title words are a (biased) cue, as in a real collection.

Determinism: word j of document i of topic t comes from a counter-based hash
(SplitMix64) of ``(seed, t, i, j)``: the text of one document never depends on which other
documents are generated with it, on the order of the requests, or on the machine (only
uint64 and float64 arithmetic).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Iterator, Mapping, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["Documents", "vocabulary", "MIXTURES", "COMPONENTS", "topic_words", "splitmix64"]

COMPONENTS = ("background", "topic", "title", "facet", "near")
VOCABULARY_SIZE = 6000
CONTENT_START = 300  # vocabulary ranks below this are function-word-like and never topical
NUM_TOPIC, NUM_TITLE, NUM_FACET, NUM_NEAR, NUM_NEAR_SHARED = 40, 3, 15, 30, 8

# mixture weights (background, topic, title, facet, near) by family, for grade ≤ 1 and grade 2
MIXTURES = np.array([
    [[0.985, 0.005, 0.000, 0.000, 0.010]] * 2,                          # background
    [[0.750, 0.040, 0.000, 0.000, 0.210]] * 2,                          # near
    [[0.720, 0.030, 0.070, 0.000, 0.180]] * 2,                          # near-title
    [[0.720, 0.200, 0.030, 0.020, 0.030], [0.620, 0.280, 0.040, 0.030, 0.030]],  # relevant-main
    [[0.700, 0.160, 0.100, 0.010, 0.030], [0.620, 0.220, 0.120, 0.010, 0.030]],  # relevant-title
    [[0.720, 0.100, 0.000, 0.150, 0.030], [0.650, 0.130, 0.000, 0.190, 0.030]],  # relevant-novel
])
MIN_LENGTH, LENGTH_RANGE = 60, 240  # words per document: 60 … 299

_TEXT = 6  # SeedSequence component key for the topics' word lists
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


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
    syllables = np.array([c + v for c in "bdfgklmnprstvz" for v in "aeiou"])  # 70
    n = syllables.size
    two = n * n
    idx = np.arange(VOCABULARY_SIZE, dtype=np.int64)
    words = np.empty(VOCABULARY_SIZE, dtype=object)
    short = idx < 2500
    a = (idx[short] * 2311 + 17) % two  # 2311 is prime, coprime with 4900: a bijection
    words[short] = np.char.add(syllables[a // n], syllables[a % n])
    b = (idx[~short] * 104729 + 31) % (n ** 3)  # 104729 is prime, coprime with 343000
    words[~short] = np.char.add(np.char.add(syllables[b // two], syllables[(b // n) % n]), syllables[b % n])
    out = pa.array(words.tolist(), pa.string())
    if len(pc.unique(out)) != VOCABULARY_SIZE:  # pragma: no cover - construction guarantees it
        raise RuntimeError("vocabulary words are not unique")
    return out


def _zipf_cdf(n: int, exponent: float = 1.0, shift: float = 1.0) -> np.ndarray:
    weights = 1.0 / (np.arange(n) + shift) ** exponent
    cdf = np.cumsum(weights / weights.sum())
    cdf[-1] = 1.0
    return cdf


_BACKGROUND_CDF = _zipf_cdf(VOCABULARY_SIZE, 1.0, 2.7)
_CDFS = {
    "topic": _zipf_cdf(NUM_TOPIC - NUM_TITLE, 0.8),
    "title": _zipf_cdf(NUM_TITLE, 0.0),
    "facet": _zipf_cdf(NUM_FACET, 0.6),
    "near": _zipf_cdf(NUM_NEAR, 0.8),
}


def topic_words(seed: int, topic_index: int) -> dict[str, np.ndarray]:
    """Vocabulary indices of one topic's word lists: ``title`` (3), ``topic`` (37, without the
    title words), ``facet`` (15), ``near`` (30; 8 shared with ``topic``)."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, _TEXT, topic_index])))
    fresh = NUM_TOPIC + NUM_FACET + NUM_NEAR - NUM_NEAR_SHARED
    picked = CONTENT_START + rng.choice(VOCABULARY_SIZE - CONTENT_START, size=fresh, replace=False)
    topic = picked[:NUM_TOPIC]
    facet = picked[NUM_TOPIC:NUM_TOPIC + NUM_FACET]
    near_own = picked[NUM_TOPIC + NUM_FACET:]
    shared = topic[NUM_TITLE:][rng.choice(NUM_TOPIC - NUM_TITLE, size=NUM_NEAR_SHARED, replace=False)]
    near = np.concatenate([shared, near_own])[rng.permutation(NUM_NEAR)]
    return {"title": topic[:NUM_TITLE], "topic": topic[NUM_TITLE:], "facet": facet, "near": near}


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
                 docno_width: int):
        self._seed = int(seed)
        self._topics = tuple(topics)
        self._topic_index = {t: i for i, t in enumerate(self._topics)}
        self._family = family
        self._grade = grade
        self._width = int(docno_width)
        T = len(self._topics)
        lists = [topic_words(self._seed, t) for t in range(T)]
        self._words = {name: np.stack([w[name] for w in lists]) for name in _CDFS}

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

    def topic_title(self, topic: str) -> str:
        """The topic's title: its three title words."""
        if topic not in self._topic_index:
            raise KeyError(f"unknown topic {topic!r}; expected one of {self._topics[:5]}…")
        words = vocabulary().take(pa.array(self._words["title"][self._topic_index[topic]]))
        return " ".join(words.to_pylist())

    # ------------------------------------------------------------------ generation
    def texts(self, docnos: Iterable[str]) -> list[str]:
        """The texts of many documents at once (vectorised over all their words)."""
        t, i = self.locate(docnos)
        return self._generate(t, i)

    def _generate(self, t: np.ndarray, i: np.ndarray) -> list[str]:
        if t.size == 0:
            return []
        base = splitmix64(splitmix64(splitmix64(np.full(t.size, self._seed, dtype=np.uint64))
                                     ^ t.astype(np.uint64)) ^ i.astype(np.uint64))
        length = MIN_LENGTH + (_uniform(splitmix64(base)) * LENGTH_RANGE).astype(np.int64)
        offsets = np.concatenate([[0], np.cumsum(length)])
        owner = np.repeat(np.arange(t.size), length)
        position = (np.arange(offsets[-1]) - offsets[owner]).astype(np.uint64)
        key = base[owner] + (position + np.uint64(1)) * _M1  # distinct per (document, position)
        u_component = _uniform(splitmix64(key))
        u_word = _uniform(splitmix64(key ^ _M2))
        fam = self._family[t, i][owner].astype(np.int64)
        grade2 = (self._grade[t, i][owner] == 2).astype(np.int64)
        cdf = np.cumsum(MIXTURES[fam, grade2], axis=1)
        component = (u_component[:, None] >= cdf[:, :-1]).sum(axis=1)
        word = np.searchsorted(_BACKGROUND_CDF, u_word, side="right")
        topic_of_word = t[owner]
        for k, name in enumerate(COMPONENTS[1:], start=1):
            sel = component == k
            if sel.any():
                local = np.searchsorted(_CDFS[name], u_word[sel], side="right")
                word[sel] = self._words[name][topic_of_word[sel], local]
        words = vocabulary().take(pa.array(np.minimum(word, VOCABULARY_SIZE - 1)))
        lists = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), words)
        return pc.binary_join(lists, " ").to_pylist()
