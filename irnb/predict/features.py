"""Documents as term counts for the classifiers: texts from a mapping, a DataFrame or a
callable, tokenised into lowercased runs of letters and digits (:func:`term_counts`), with the
whole collection's term statistics where they are known (:class:`CollectionStatistics`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from scipy import sparse

from ..experiment import few_names

_TOKEN_SEPARATOR = r"[^\p{L}\p{N}]+"
_NOT_PLAIN = r"[^a-z0-9 \t\n\r]"

# =============================================================================== texts → term counts
@dataclass(frozen=True, eq=False)
class CollectionStatistics:
    """Term statistics of a whole collection, for the classifiers' background model, IDF and
    vocabulary as Büttcher et al. define them: M_C the "concatenation of all documents" (§3.1),
    𝒟 "the set of all documents in the collection" and the vocabulary the most frequent terms
    "in the entire text collection" (§3.2). ``frequency[x]`` counts the occurrences of
    ``vocabulary[x]`` in the collection, ``document_frequency[x]`` the documents containing it.
    A simulated collection gives them with :meth:`from_frame` of
    ``Collection.documents.term_statistics()``.
    """

    vocabulary: pa.Array = field(repr=False)
    frequency: np.ndarray = field(repr=False)
    document_frequency: np.ndarray = field(repr=False)
    num_documents: int

    def __post_init__(self):
        V = len(self.vocabulary)
        if self.frequency.shape != (V,) or self.document_frequency.shape != (V,):
            raise ValueError(f"CollectionStatistics: frequency and document_frequency must have one value per "
                             f"vocabulary term ({V}), got {self.frequency.shape} and {self.document_frequency.shape}")

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, num_documents: int) -> CollectionStatistics:
        """From a frame with one row per term (the index), its ``frequency`` and the number of
        ``documents`` that contain it, over a collection of ``num_documents`` documents.

        >>> stats = CollectionStatistics.from_frame(pd.DataFrame({"frequency": [3, 1], "documents": [2, 1]},
        ...                                                      index=["rain", "sun"]), num_documents=2)
        >>> stats
        CollectionStatistics(2 documents, 2 terms, 4 tokens)
        """
        missing = [c for c in ("frequency", "documents") if c not in frame.columns]
        if missing:
            raise ValueError(f"CollectionStatistics.from_frame: expected columns 'frequency' and 'documents', "
                             f"got {list(frame.columns)}")
        return cls(pa.array([str(t) for t in frame.index], pa.string()), frame["frequency"].to_numpy(np.int64),
                   frame["documents"].to_numpy(np.int64), int(num_documents))

    def __repr__(self) -> str:
        return (f"CollectionStatistics({self.num_documents} documents, {len(self.vocabulary)} terms, "
                f"{int(self.frequency.sum())} tokens)")


@dataclass(frozen=True, eq=False)
class TermCounts:
    """Tokenised documents: ``counts[i, x]`` is how often term ``vocabulary[x]`` occurs in
    document ``docnos[i]`` (a scipy CSR matrix). The background model, the document
    frequencies and the TF-IDF vocabulary are the whole collection's when ``collection``
    gives its statistics (Büttcher et al.'s), otherwise those of the documents read. Build it
    with :func:`term_counts`.

    >>> tc = term_counts({"a": "Rain, rain!", "b": "sun and rain"}, ["a", "b"])
    >>> tc.vocabulary.to_pylist(), tc.counts.toarray().tolist()
    (['rain', 'sun', 'and'], [[2.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    >>> tc.background.round(3).tolist()            # 3/5, 1/5, 1/5
    [0.6, 0.2, 0.2]

    The same two documents in a collection of four whose 10 tokens hold "rain" 4 times,
    "sun" twice and "and" once: the background is the collection's, 4/10, 2/10, 1/10 (the 3
    other tokens are terms the documents read do not use).

    >>> import pyarrow as pa
    >>> stats = CollectionStatistics(pa.array(["and", "fog", "rain", "sun"]), np.array([1, 3, 4, 2]),
    ...                              np.array([1, 2, 3, 2]), num_documents=4)
    >>> tc = term_counts({"a": "Rain, rain!", "b": "sun and rain"}, ["a", "b"], collection=stats)
    >>> tc.background.round(3).tolist(), tc.document_frequency.tolist()
    ([0.4, 0.2, 0.1], [3, 2, 1])
    """

    docnos: pa.Array = field(repr=False)
    counts: sparse.csr_matrix = field(repr=False)
    vocabulary: pa.Array = field(repr=False)
    collection: CollectionStatistics | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"TermCounts({self.counts.shape[0]} documents, {self.counts.shape[1]} terms, {self.counts.nnz} postings)"

    @property
    def num_documents(self) -> int:
        return int(self.counts.shape[0])

    def index(self, docnos) -> np.ndarray:
        """Row of every docno; a ValueError names the missing ones (first few and count)."""
        array = docnos if isinstance(docnos, (pa.Array, pa.ChunkedArray)) else pa.array(list(docnos), pa.string())
        found = pc.index_in(array, value_set=self.docnos)
        if isinstance(found, pa.ChunkedArray):
            found = found.combine_chunks()
        if found.null_count:
            missing = pc.unique(pc.filter(array, pc.is_null(found))).to_pylist()
            raise ValueError(f"documents: no text for {len(missing)} docnos: {few_names(missing)} (the TermCounts "
                             f"was built from {self.num_documents} other documents)")
        return found.to_numpy(zero_copy_only=False).astype(np.int64)

    @cached_property
    def lengths(self) -> np.ndarray:
        """(n,) tokens per document."""
        return np.asarray(self.counts.sum(axis=1)).ravel()

    @cached_property
    def _in_collection(self) -> np.ndarray:
        """(V,) each term's index in ``collection.vocabulary``; a ValueError names the terms the
        collection lacks."""
        found = pc.index_in(self.vocabulary, value_set=self.collection.vocabulary)
        if found.null_count:
            missing = pc.filter(self.vocabulary, pc.is_null(found)).to_pylist()
            raise ValueError(f"collection: its statistics lack {len(missing)} terms of the documents read: "
                             f"{few_names(missing)}")
        return found.to_numpy(zero_copy_only=False).astype(np.int64)

    @cached_property
    def background(self) -> np.ndarray:
        """(V,) the background model M_C: the term frequencies of all documents concatenated —
        of the whole collection when its statistics are known (then the terms that no document
        read uses hold the rest of the probability), else of the documents read."""
        if self.collection is not None:
            frequency = np.asarray(self.collection.frequency, dtype=np.float64)
            return frequency[self._in_collection] / max(frequency.sum(), 1.0)
        totals = np.asarray(self.counts.sum(axis=0)).ravel()
        return totals / max(totals.sum(), 1.0)

    @cached_property
    def document_frequency(self) -> np.ndarray:
        """(V,) documents containing each term: in the whole collection when its statistics are
        known, else among the documents read."""
        if self.collection is not None:
            return np.asarray(self.collection.document_frequency)[self._in_collection]
        return np.bincount(self.counts.indices, minlength=self.counts.shape[1])

    def _frequency_rank(self) -> np.ndarray:
        """(V,) each term's rank by frequency (0 = the most frequent; ties: first seen first),
        in the whole collection when its statistics are known."""
        known = self.collection is not None
        frequency = np.asarray(self.collection.frequency) if known else np.asarray(self.counts.sum(axis=0)).ravel()
        rank = np.empty(frequency.size, dtype=np.int64)
        rank[np.argsort(-frequency, kind="stable")] = np.arange(frequency.size)
        return rank[self._in_collection] if known else rank

    def tfidf(self, max_features: int = 1_000_000) -> sparse.csr_matrix:
        """L1-normalised TF-IDF vectors tf·log(n / df) over the ``max_features`` most frequent
        terms (ties: first seen first); a document with no weight keeps a zero row. n, df and
        the most frequent terms are the whole collection's when its statistics are known.

        >>> tc = term_counts({"a": "x x y", "b": "x z"}, ["a", "b"])
        >>> tc.tfidf().toarray().round(4).tolist()    # idf: x 0, y and z log 2; a = (0, 2·0, log 2)/log 2
        [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        """
        return self._tfidf(int(max_features))

    def _tfidf(self, max_features: int) -> sparse.csr_matrix:
        cache = self.__dict__.setdefault("_tfidf_cache", {})
        if max_features not in cache:
            counts = self.counts
            n = self.num_documents if self.collection is None else self.collection.num_documents
            idf = np.log(n / np.maximum(self.document_frequency, 1))
            idf = np.where(self._frequency_rank() < max_features, idf, 0.0)
            weighted = counts @ sparse.diags(idf)
            weighted = sparse.csr_matrix(weighted)
            weighted.eliminate_zeros()
            norms = np.asarray(abs(weighted).sum(axis=1)).ravel()
            scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
            cache[max_features] = sparse.csr_matrix(sparse.diags(scale) @ weighted)
        return cache[max_features]


def _frame_texts(frame: pd.DataFrame, docnos: list[str]) -> list:
    columns = {c.lower(): c for c in frame.columns}
    docno_col = next((columns[c] for c in ("docno", "doc_id", "docid") if c in columns), None)
    text_col = next((columns[c] for c in ("text", "body", "contents") if c in columns), None)
    if docno_col is None or text_col is None:
        raise ValueError(f"documents DataFrame: expected columns 'docno' and 'text', got {list(frame.columns)}")
    keys = frame[docno_col].astype(str)
    duplicated = keys[keys.duplicated()].unique().tolist()
    if duplicated:
        raise ValueError(f"documents DataFrame: {len(duplicated)} docnos appear twice: {few_names(duplicated)}")
    where = pd.Index(keys).get_indexer(docnos)
    values = frame[text_col].to_numpy(dtype=object)
    return [values[i] if i >= 0 else None for i in where]


def _texts(documents, docnos: list[str]) -> list[str]:
    """Texts of ``docnos`` from a mapping, a DataFrame or a callable (see the module
    docstring); any missing one is an error naming the docnos."""
    if isinstance(documents, pd.DataFrame):
        texts = _frame_texts(documents, docnos)
    elif isinstance(documents, Mapping):
        missing = [d for d in docnos if d not in documents]  # before reading anything
        if missing:
            raise ValueError(f"documents: no text for {len(missing)} docnos: {few_names(missing)}")
        batch = getattr(documents, "texts", None)  # e.g. the simulator's vectorised generator
        texts = list(batch(docnos)) if callable(batch) else [documents[d] for d in docnos]
    elif callable(documents):
        texts = documents(list(docnos))
        if isinstance(texts, (str, bytes)) or not hasattr(texts, "__len__"):
            raise TypeError(f"documents: a callable must take a list of docnos and return a list of texts, got "
                            f"{type(texts).__name__}")
        texts = list(texts)
        if len(texts) != len(docnos):
            raise ValueError(f"documents: the callable returned {len(texts)} texts for {len(docnos)} docnos")
    else:
        raise TypeError(f"documents must be a mapping docno → text, a DataFrame (docno, text), a callable or a "
                        f"TermCounts, got {type(documents).__name__}")
    missing = [d for d, t in zip(docnos, texts, strict=True) if not isinstance(t, str)]
    if missing:
        raise ValueError(f"documents: no text for {len(missing)} docnos: {few_names(missing)}")
    return texts


def term_counts(documents, docnos: Iterable[str], *, collection: CollectionStatistics | None = None) -> TermCounts:
    """Read and tokenise the texts of ``docnos`` (each once) into a :class:`TermCounts`.

    ``documents``: a mapping docno → text, a DataFrame (``docno``, ``text``) or a callable
    (list of docnos → list of texts). Tokens are lowercased runs of letters and digits.
    Tokenising is vectorised with pyarrow (no Python loop over the documents).
    ``collection``: the whole collection's :class:`CollectionStatistics`, for the background
    model, the IDF and the vocabulary (Büttcher et al.'s); None: those of ``docnos`` only.
    """
    order = pc.unique(pa.array([str(d) for d in docnos] if not isinstance(docnos, (pa.Array, pa.ChunkedArray))
                               else docnos, pa.string()))
    if isinstance(order, pa.ChunkedArray):
        order = order.combine_chunks()
    names = order.to_pylist()
    texts = pc.utf8_lower(pa.array(_texts(documents, names), pa.string()))
    if len(texts) and not pc.any(pc.match_substring_regex(texts, _NOT_PLAIN)).as_py():
        # plain lowercase words and whitespace only: a whitespace split gives the same tokens, 3× faster
        split = pc.ascii_split_whitespace(pc.utf8_trim_whitespace(texts))
    else:
        split = pc.split_pattern_regex(texts, _TOKEN_SEPARATOR)
    per_doc = pc.list_value_length(split).to_numpy(zero_copy_only=False).astype(np.int64)
    tokens = pc.list_flatten(split)
    row = np.repeat(np.arange(len(names), dtype=np.int64), per_doc)
    starts = np.r_[0, np.cumsum(per_doc)[:-1]]
    maybe_empty = np.zeros(row.size, dtype=bool)  # empty tokens come only first or last in a document
    if row.size:
        maybe_empty[starts[per_doc > 0]] = True
        maybe_empty[(starts + per_doc - 1)[per_doc > 0]] = True
    check = np.flatnonzero(maybe_empty)
    empty = check[pc.equal(pc.utf8_length(tokens.take(pa.array(check))), 0).to_numpy(zero_copy_only=False)]
    if empty.size:
        keep = np.ones(row.size, dtype=bool)
        keep[empty] = False
        tokens = tokens.filter(pa.array(keep))
        row = row[keep]
    encoded = pc.dictionary_encode(tokens)
    if isinstance(encoded, pa.ChunkedArray):
        encoded = encoded.combine_chunks()
    col = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    vocabulary = encoded.dictionary
    counts = sparse.csr_matrix((np.ones(row.size), (row, col)), shape=(len(names), len(vocabulary)))
    counts.sum_duplicates()
    out = TermCounts(docnos=order, counts=counts, vocabulary=vocabulary, collection=collection)
    if collection is not None:
        _ = out._in_collection  # every term read is in the collection, or a ValueError now
    return out


def term_counts_covering(documents, docnos: pa.Array) -> TermCounts:
    """``documents`` as a :class:`TermCounts` that covers ``docnos``: a TermCounts is used as
    it is (a ValueError names the docnos it lacks); texts are read and tokenised."""
    if isinstance(documents, TermCounts):
        documents.index(docnos)  # every needed docno present, or a ValueError naming them
        return documents
    return term_counts(documents, docnos)
