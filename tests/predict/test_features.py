"""Documents as term counts (irnb.predict.features): tokenising, the document shapes accepted and
the same counts from each, missing texts named, and tf-idf by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from predict_toy import toy_experiment
from irnb.predict import complete_qrels, term_counts


def test_term_counts_tokenise_lowercase_letters_and_digits():
    tc = term_counts({"x": "Hello, WORLD! foo-bar 42", "y": "Ünïcode\twörds", "z": ""}, ["x", "y", "z"])
    vocab = tc.vocabulary.to_pylist()
    row = {d: dict(zip(vocab, tc.counts.toarray()[i], strict=True)) for i, d in enumerate(["x", "y", "z"])}
    assert {w for w, n in row["x"].items() if n} == {"hello", "world", "foo", "bar", "42"}
    assert {w for w, n in row["y"].items() if n} == {"ünïcode", "wörds"}
    assert sum(row["z"].values()) == 0
    assert tc.lengths.tolist() == [5, 2, 0]


def test_plain_and_regex_tokenisers_agree():
    # the whitespace fast path (plain lowercase text) and the regex path give the same tokens
    plain = term_counts({"a": " x  y\tz ", "b": "y y"}, ["a", "b"])
    mixed = term_counts({"a": " X, y\tz!", "b": "y-y"}, ["a", "b"])
    assert plain.vocabulary.to_pylist() == mixed.vocabulary.to_pylist() == ["x", "y", "z"]
    assert plain.counts.toarray().tolist() == mixed.counts.toarray().tolist() == [[1, 1, 1], [0, 2, 0]]


def test_documents_as_mapping_frame_callable_and_term_counts_agree():
    exp, texts = toy_experiment()
    frame = pd.DataFrame({"docno": list(texts), "text": list(texts.values())})
    # a TermCounts of exactly the documents read (training a, b, u and the target v): the same background
    sources = [texts, frame, lambda names: [texts.get(n) for n in names], term_counts(texts, ["v", "u", "b", "a"])]
    results = [complete_qrels(exp, s, depth=4, method="kld", probabilities=False).predicted for s in sources]
    for other in results[1:]:
        pd.testing.assert_frame_equal(results[0], other)


def test_missing_text_names_the_docnos_and_their_count():
    exp, texts = toy_experiment()
    with pytest.raises(ValueError, match=r"no text for 2 docnos: \['u', 'v'\]"):
        complete_qrels(exp, {k: v for k, v in texts.items() if k not in ("u", "v")}, depth=4, method="kld")
    many = {f"d{i}": None for i in range(7)}
    with pytest.raises(ValueError, match=r"no text for 7 docnos: \['d0', 'd1', 'd2', 'd3', 'd4'\]…"):
        term_counts(lambda names: [many[n] for n in names], list(many))
    with pytest.raises(ValueError, match="no text for 1 docnos"):
        complete_qrels(exp, term_counts(texts, ["a", "b", "u"]), depth=4, method="kld")


def test_bad_documents_are_type_errors():
    exp, _ = toy_experiment()
    with pytest.raises(TypeError, match="documents must be a mapping"):
        complete_qrels(exp, 42, depth=4, method="kld")
    with pytest.raises(ValueError, match="expected columns 'docno' and 'text'"):
        complete_qrels(exp, pd.DataFrame({"id": ["a"], "body_text": ["x"]}), depth=4, method="kld")


def test_tfidf_by_hand():
    # idf: x in both documents → log(2/2) = 0; y, z in one → log 2. a = (2·0, 1·log 2, 0) → L1 (0, 1, 0)
    tc = term_counts({"a": "x x y", "b": "x z z"}, ["a", "b"])
    assert tc.vocabulary.to_pylist() == ["x", "y", "z"]
    np.testing.assert_allclose(tc.tfidf().toarray(), [[0, 1, 0], [0, 0, 1]])
    # max_features=1 keeps x (the most frequent term), whose idf is 0: empty vectors stay zero
    assert tc.tfidf(1).nnz == 0


def test_tfidf_and_vocabulary_from_the_collections_statistics():
    # documents read: a = "x x y", b = "x z"; the collection: 10 documents, x in 5 (frequency 9),
    # y in 1 (frequency 1), z in 2 (frequency 4), w in 3 (frequency 6, in no document read).
    # idf: x log 2, y log 10, z log 5; a = (2 log 2, log 10, 0) / (2 log 2 + log 10)
    import pyarrow as pa
    from irnb.predict import CollectionStatistics

    stats = CollectionStatistics(pa.array(["w", "x", "y", "z"]), np.array([6, 9, 1, 4]), np.array([3, 5, 1, 2]),
                                 num_documents=10)
    tc = term_counts({"a": "x x y", "b": "x z"}, ["a", "b"], collection=stats)
    assert tc.vocabulary.to_pylist() == ["x", "y", "z"]
    a = np.array([2 * np.log(2), np.log(10), 0.0])
    b_ = np.array([np.log(2), 0.0, np.log(5)])
    np.testing.assert_allclose(tc.tfidf().toarray(), [a / a.sum(), b_ / b_.sum()])
    # the 2 most frequent terms of the collection are x and w: y and z leave the vocabulary
    # (in the documents read alone, x and y would be the first two)
    np.testing.assert_allclose(tc.tfidf(max_features=2).toarray(), [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=r"collection: its statistics lack 1 terms of the documents read: \['q'\]"):
        term_counts({"a": "x q"}, ["a"], collection=stats)
