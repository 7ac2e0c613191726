"""irnb.datasets.text: the readable text an assessor judges and the topics' descriptions."""

from __future__ import annotations

import numpy as np
import pytest

from irnb.datasets import default, simulate
from irnb.datasets.text import READABLE_LENGTH, READABLE_SHARE, Documents

SMALL = dict(num_topics=4, num_runs=8, num_groups=4, docs_per_topic=600, run_depth=100, pool_depth=10,
             median_relevant=40, novel_runs=1, keyword_runs=2)


@pytest.fixture(scope="module")
def coll():
    return default()


def _by_truth(collection, topic: str, *, relevant: bool, n: int) -> list[str]:
    """The first ``n`` docnos of ``topic`` that the collection's truth grades relevant (grade ≥ 1) or not."""
    truth = collection.truth.to_frame()
    here = truth[(truth["topic"] == topic) & ((truth["grade"] >= 1) == relevant)]
    return sorted(here["docno"])[:n]


def _subject_share(docs: Documents, topic: str, docnos: list[str]) -> np.ndarray:
    """Per document, the share of its readable words that are ``topic``'s subject words."""
    subject = set(docs.subject_words(topic))
    return np.array([np.mean([w in subject for w in text.split()]) for text in docs.readable.texts(docnos)])


def test_relevant_documents_read_as_their_topic_and_the_others_do_not(coll):
    """What a reader judges by: on every one of the first ten topics, a relevant document's
    readable text uses the topic's subject words about READABLE_SHARE of the time, a non-relevant
    one (about another topic) hardly ever, so even the least topical relevant document uses them
    more than the most topical non-relevant one."""
    docs = coll.documents
    for topic in coll.topics["topic"][:10]:
        relevant = _by_truth(coll, topic, relevant=True, n=30)
        other = _by_truth(coll, topic, relevant=False, n=30)
        assert len(relevant) == len(other) == 30
        rel, non = _subject_share(docs, topic, relevant), _subject_share(docs, topic, other)
        assert abs(rel.mean() - READABLE_SHARE) < 0.05, (topic, rel.mean())
        assert non.mean() < 0.05 and rel.min() > non.max(), (topic, rel.min(), non.max())
    # the property can fail: the classifiers' text of the same documents does not separate so
    subject = set(docs.subject_words(topic))
    hard = [np.mean([w in subject for w in text.split()]) for text in docs.texts(relevant + other)]
    assert min(hard[:30]) < max(hard[30:]), (min(hard[:30]), max(hard[30:]))


def test_a_non_relevant_document_reads_as_another_topic(coll):
    docs = coll.documents
    topics = list(coll.topics["topic"])
    docno = _by_truth(coll, topics[0], relevant=False, n=1)[0]
    words = docs.readable[docno].split()
    share = {t: np.mean([w in set(docs.subject_words(t)) for w in words]) for t in topics}
    best = max(share, key=share.get)
    assert best != topics[0] and share[best] > READABLE_SHARE - 0.2, (best, share[best])


def test_readable_text_is_seeded_and_independent_of_the_batch():
    a, b = simulate(3, **SMALL).documents, simulate(3, **SMALL).documents
    names = ["D101-00000", "D102-00417", "D104-00599"]
    assert a.readable.texts(names) == b.readable.texts(names)
    assert a.readable.texts(names)[1] == a.readable["D102-00417"]  # one document alone gives the same text
    assert simulate(4, **SMALL).documents.readable["D101-00000"] != a.readable["D101-00000"]
    lengths = [len(t.split()) for t in a.readable.texts([f"D101-{i:05d}" for i in range(200)])]
    assert READABLE_LENGTH[0] <= min(lengths) and max(lengths) < READABLE_LENGTH[1], (min(lengths), max(lengths))


def test_readable_text_leaves_the_classifiers_text_alone():
    docs = simulate(3, **SMALL).documents
    assert docs.readable["D101-00007"] != docs["D101-00007"]
    assert len(docs.readable) == len(docs) and list(docs.readable)[:2] == list(docs)[:2]
    assert "D101-00007" in docs.readable and "D999-00007" not in docs.readable
    with pytest.raises(KeyError, match="unknown docno 'D999-00007'"):
        docs.readable["D999-00007"]


def test_a_single_topic_has_no_other_subject_to_borrow():
    single = simulate(5, **{**SMALL, "num_topics": 1})
    docs = single.documents
    non, rel = (_by_truth(single, "101", relevant=r, n=10) for r in (False, True))
    assert _subject_share(docs, "101", non).max() == 0.0  # filler only
    assert _subject_share(docs, "101", rel).min() > 0.2


def test_the_description_names_the_title_and_the_most_frequent_subject_words(coll):
    docs = coll.documents
    topic = coll.topics["topic"].iloc[0]
    title, words = docs.topic_title(topic), docs.subject_words(topic)
    assert words[:3] == title.split() and title == coll.topics["title"].iloc[0]
    text = docs.topic_description(topic)
    assert title in text and all(w in text for w in words[3:11]) and words[11] not in text
    with pytest.raises(KeyError, match="unknown topic 'nope'"):
        docs.topic_description("nope")


def test_term_statistics_are_those_of_every_documents_text():
    from irnb.predict import term_counts

    docs = simulate(seed=2, **SMALL).documents
    stats = docs.term_statistics()
    every = term_counts(docs, list(docs))  # tokenise every text: the slow way
    assert every.num_documents == len(docs)
    here = stats.loc[every.vocabulary.to_pylist()]
    np.testing.assert_array_equal(here["frequency"], np.asarray(every.counts.sum(axis=0)).ravel())
    np.testing.assert_array_equal(here["documents"], every.document_frequency)
    assert stats["frequency"].sum() == every.counts.sum()  # no term outside the texts
