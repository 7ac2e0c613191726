"""The Experiment's dense arrays on a hand-made example, its validation, and a property test
of the qrels lookup against a plain-Python reference."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irnb import Experiment, Run, read_qrels, read_runs
from irnb._grades import NO_DOC, UNJUDGED
from irnb.judgments import NO_DOCUMENT, NOT_IN_QRELS
from irnb.metrics import evaluate

# qrels entries in (topic, docno) order:
#   0: 1 a 2    1: 1 b 0    2: 1 c 1    3: 1 d -1 (pooled, not judged)
#   4: 2 a 1    5: 2 e 0    6: 3 x 1   (no run answers topic 3)
QRELS = pd.DataFrame({
    "qid": ["1", "1", "1", "1", "2", "2", "3"],
    "docno": ["a", "b", "c", "d", "a", "e", "x"],
    "grade": [2, 0, 1, -1, 1, 0, 1],
})
# r1: topic 1 → a z b d (z not in qrels), topic 2 → e, topic 9 (not in qrels) → q
# r2: topic 1 → c a (shorter), topic 2 not answered
RUNS = pd.DataFrame({
    "run": ["r1"] * 6 + ["r2"] * 2,
    "qid": ["1", "1", "1", "1", "2", "9", "1", "1"],
    "docno": ["a", "z", "b", "d", "e", "q", "c", "a"],
    "score": [0.9, 0.8, 0.7, 0.6, 0.5, 1.0, 3.0, 2.0],
})
N = NOT_IN_QRELS
X = NO_DOCUMENT


@pytest.fixture(scope="module")
def exp() -> Experiment:
    return Experiment(RUNS, QRELS)


def test_hand_example_arrays(exp):
    assert exp.run_names == ("r1", "r2") and exp.topics == ("1", "2", "3")
    assert exp.shape == (2, 3, 4) and exp.depth == 4  # the longest ranking (r1, topic 1)
    assert exp.judgments.doc.tolist() == [
        [[0, N, 1, 3], [5, X, X, X], [X, X, X, X]],
        [[2, 0, X, X], [X, X, X, X], [X, X, X, X]],
    ]
    assert exp.grade.tolist() == [
        [[2, UNJUDGED, 0, -1], [0, NO_DOC, NO_DOC, NO_DOC], [NO_DOC] * 4],
        [[1, 2, NO_DOC, NO_DOC], [NO_DOC] * 4, [NO_DOC] * 4],
    ]
    assert exp.length.tolist() == [[4, 1, 0], [2, 0, 0]]
    assert exp.answered.tolist() == [[True, True, False], [True, False, False]]
    assert exp.ignored_topics == {"r1": ["9"]}
    j = exp.judgments
    assert j.qrel_topic.tolist() == [0, 0, 0, 0, 1, 1, 2]
    assert j.qrel_grade.tolist() == [2, 0, 1, -1, 1, 0, 1]
    assert j.qrel_docno.to_pylist() == ["a", "b", "c", "d", "a", "e", "x"]
    assert j.topic_start.tolist() == [0, 4, 6, 7]
    assert exp.groups == ("r1", "r2") and exp.contributors.tolist() == [True, True]
    assert exp.truth is None


def test_retrieved_rank_hand_example(exp):
    big = np.iinfo(exp.judgments.retrieved_rank.dtype).max
    assert exp.judgments.retrieved_rank.tolist() == [
        [1, 3, big, 4, big, 1, big],  # r1: a@1, b@3, d@4 (topic 1), e@1 (topic 2)
        [2, big, 1, big, big, big, big],  # r2: c@1, a@2
    ]


def test_unanswered_topics_count_only_with_complete(exp):
    # P@2: r1 topic 1 = a (rel) + z (unjudged) → 1/2; topic 2 = e (grade 0) → 0/2; topic 3 unanswered.
    #      r2 topic 1 = c, a both relevant → 2/2.
    assert evaluate(exp, ["P@2"]).aggregate("P@2") == pytest.approx([(0.5 + 0.0) / 2, 1.0])
    assert evaluate(exp, ["P@2"], complete=True).aggregate("P@2") == pytest.approx([0.5 / 3, 1.0 / 3])


def test_grade_array_with_a_pool_mask(exp):
    judged = np.array([True, False, True, True, True, True, True])  # b left out of the pool
    assert exp.judgments.grade_array(judged)[0, 0].tolist() == [2, UNJUDGED, UNJUDGED, -1]
    with pytest.raises(ValueError, match=r"judged must be a boolean mask over the 7 qrels entries, got dtype int64 and "
                                         r"shape \(7,\)"):
        exp.judgments.grade_array(np.ones(7, dtype=np.int64))
    with pytest.raises(ValueError, match=r"got dtype bool and shape \(3,\)"):
        exp.judgments.grade_array(np.ones(3, dtype=bool))


def test_arrays_are_read_only():
    exp = Experiment(RUNS, QRELS, truth=QRELS)
    arrays = {
        "doc": exp.judgments.doc, "grade": exp.grade, "qrel_topic": exp.judgments.qrel_topic,
        "qrel_grade": exp.judgments.qrel_grade, "topic_start": exp.judgments.topic_start,
        "retrieved_rank": exp.judgments.retrieved_rank, "length": exp.length,
        "contributors": exp.contributors, "truth.doc": exp.truth.doc, "truth.grade": exp.truth.grade_array(),
    }
    for name, array in arrays.items():
        assert not array.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = 0


def test_max_depth_cuts_every_ranking():
    exp = Experiment(RUNS, QRELS, max_depth=2)
    assert exp.shape == (2, 3, 2) and exp.max_depth == 2
    assert exp.judgments.doc.tolist() == [[[0, N], [5, X], [X, X]], [[2, 0], [X, X], [X, X]]]
    assert exp.length.tolist() == [[2, 1, 0], [2, 0, 0]]
    big = np.iinfo(exp.judgments.retrieved_rank.dtype).max
    assert exp.judgments.retrieved_rank[0].tolist() == [1, big, big, big, big, 1, big]  # b@3, d@4 cut
    # a cutoff deeper than every ranking changes nothing
    assert Experiment(RUNS, QRELS, max_depth=100).shape == (2, 3, 4)


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "3"])
def test_max_depth_validation(bad):
    with pytest.raises(ValueError, match=re.escape("max_depth (run cutoff, trec_eval -M) must be an integer ≥ 1, got "
                                                   f"{bad!r}")):
        Experiment(RUNS, QRELS, max_depth=bad)


def test_truth_on_a_different_topic_set():
    # truth: topic 1 fully judged (z too), topic 7 unknown to the official qrels; topics 2, 3 absent
    truth = pd.DataFrame({"qid": ["1", "1", "1", "7"], "docno": ["a", "z", "b", "k"], "grade": [2, 1, 0, 1]})
    exp = Experiment(RUNS, QRELS, truth=truth)
    assert exp.topics == ("1", "2", "3")  # the official qrels define the topics
    t = exp.truth
    assert t.num_judgments == 3 and t.qrel_docno.to_pylist() == ["a", "b", "z"]  # topic 7 dropped
    assert t.topic_start.tolist() == [0, 3, 3, 3]  # no truth judgments for topics 2 and 3
    assert t.doc[0, 0].tolist() == [0, 2, 1, N] and t.doc[0, 1].tolist() == [N, X, X, X]
    assert t.grade_array()[0, 0].tolist() == [2, 1, 0, UNJUDGED]
    assert exp.judgments.doc.tolist() == Experiment(RUNS, QRELS).judgments.doc.tolist()


def test_groups_validation():
    assert Experiment(RUNS, QRELS, groups={"r1": "G", "r2": "G"}).groups == ("G", "G")
    with pytest.raises(ValueError, match=re.escape("groups: unknown run 'rr2'; did you mean 'r2'? (expected names of "
                                                   "the 2 runs)")):
        Experiment(RUNS, QRELS, groups={"r1": "G", "rr2": "H"})
    with pytest.raises(ValueError, match=re.escape("groups: expected a group for every run, missing ['r2']")):
        Experiment(RUNS, QRELS, groups={"r1": "G"})
    with pytest.raises(TypeError, match="groups must be a mapping run name → group, got list"):
        Experiment(RUNS, QRELS, groups=["G", "G"])


def test_contributors_validation():
    assert Experiment(RUNS, QRELS, contributors=["r2"]).contributors.tolist() == [False, True]
    assert Experiment(RUNS, QRELS, contributors="r1").contributors.tolist() == [True, False]
    assert Experiment(RUNS, QRELS, contributors=[]).contributors.tolist() == [False, False]
    assert Experiment(RUNS, QRELS, contributors=np.array([False, True])).contributors.tolist() == [False, True]
    with pytest.raises(ValueError, match=re.escape("contributors: unknown run 'r3'; did you mean 'r2', 'r1'? (expected "
                                                   "names of the 2 runs)")):
        Experiment(RUNS, QRELS, contributors=["r1", "r3"])
    with pytest.raises(ValueError, match=re.escape("contributors: a boolean mask needs one value per run (2), got 1")):
        Experiment(RUNS, QRELS, contributors=[True])


def test_run_sharing_no_topic_with_the_qrels():
    lost = pd.DataFrame({"run": "lost", "qid": ["99", "98"], "docno": ["a", "b"], "score": [1.0, 0.5]})
    with pytest.raises(ValueError, match=re.escape(
            "DataFrame 'lost': run 'lost' shares no topic with the qrels (qrels DataFrame): "
            "run topics ['98', '99'], qrels topics ['1', '2', '3']")):
        Experiment(pd.concat([RUNS, lost]), QRELS)


def test_run_sharing_no_topic_names_the_file(tmp_path):
    (tmp_path / "wrong.run").write_text("401 Q0 a 1 1 t\n")
    (tmp_path / "q").write_text("1 0 a 1\n")
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'wrong.run'}: run 'wrong.run' shares no topic with "
                                                   f"the qrels ({tmp_path / 'q'})")):
        Experiment([tmp_path / "wrong.run"], tmp_path / "q")


def test_grades_outside_int8_range():
    with pytest.raises(ValueError, match=re.escape("qrels DataFrame: row 0: expected a grade in [-126, 127] "
                                                   "(irnb stores grades as 8-bit integers and keeps -127 and -128 "
                                                   "as markers), got 300")):
        Experiment(RUNS, pd.DataFrame({"qid": ["1"], "docno": ["a"], "grade": [300]}))


def test_hand_built_run_is_put_in_trec_eval_order():
    table = pa.table({"topic": ["1", "1", "1"], "docno": ["b", "a", "c"], "score": [1.0, 2.0, 1.0]})
    run = Run(name="h", table=table)
    exp = Experiment([run], QRELS)
    # a (2.0) first; b and c tie on 1.0: docno descending → c, b
    assert exp.judgments.doc[0, 0].tolist() == [0, 2, 1]
    assert exp.runs["h"].table["docno"].to_pylist() == ["a", "c", "b"]
    assert run.table["docno"].to_pylist() == ["b", "a", "c"]  # the caller's Run is untouched
    ordered = exp.runs["h"]
    assert Experiment({"h": ordered}, QRELS).runs["h"] is ordered  # already in order: same object


def test_runs_from_files_and_mappings(tmp_path):
    (tmp_path / "b.run").write_text("1 Q0 a 1 1 t\n")
    (tmp_path / "a.run").write_text("2 0 e 1 1 t\n")
    exp = Experiment([tmp_path / "b.run", tmp_path / "a.run"], QRELS)
    assert exp.run_names == ("b.run", "a.run")
    runs = read_runs([tmp_path / "b.run"])
    assert Experiment({"renamed": runs["b.run"]}, QRELS).run_names == ("renamed",)
    with pytest.raises(ValueError, match="expected at least one run, got none"):
        Experiment([], QRELS)
    with pytest.raises(ValueError, match=r"on_duplicate must be one of 'error' or 'keep_first', got 'x'"):
        Experiment(RUNS, QRELS, on_duplicate="x")


def test_run_index_did_you_mean(exp):
    assert exp.run_index(["r2", "r1"]).tolist() == [1, 0]
    with pytest.raises(ValueError, match=re.escape("unknown run 'r_1'; did you mean 'r1'")):
        exp.run_index("r_1")


# --------------------------------------------------------------------------- property test

_doc = st.sampled_from(["a", "b", "c", "d", "e", "f", "g"])  # few docnos: many judged for several topics
_topic = st.sampled_from(["1", "2", "3", "10"])


@st.composite
def _collection(draw):
    qrels = draw(st.lists(st.tuples(_topic, _doc, st.integers(-2, 3)), min_size=1, max_size=20,
                          unique_by=lambda r: r[:2]))
    runs = {}
    for s in range(draw(st.integers(1, 4))):
        rows = draw(st.lists(st.tuples(_topic, _doc, st.sampled_from([0.5, 1.0, 2.0, 3.0])), min_size=1,
                             max_size=20, unique_by=lambda r: r[:2]))
        runs[f"r{s}"] = rows
    return qrels, runs


@settings(max_examples=80, deadline=None)
@given(data=_collection(), max_depth=st.one_of(st.none(), st.integers(1, 4)))
def test_lookup_matches_a_plain_python_reference(data, max_depth):
    qrels_rows, run_rows = data
    qrels = read_qrels(pd.DataFrame(qrels_rows, columns=["qid", "docno", "grade"]))
    qrels_topics = {t for t, _, _ in qrels_rows}
    frames = {name: pd.DataFrame(rows, columns=["qid", "docno", "score"]) for name, rows in run_rows.items()
              if {t for t, _, _ in rows} & qrels_topics}
    if not frames:
        return
    exp = Experiment({name: frame for name, frame in frames.items()}, qrels, max_depth=max_depth)
    topics = sorted(qrels_topics)
    entries = sorted((t, d) for t, d, _ in qrels_rows)
    index = {key: i for i, key in enumerate(entries)}
    for s, name in enumerate(exp.run_names):
        for t, topic in enumerate(topics):
            # trec_eval order: score descending, then docno descending
            ranked = sorted(((score, docno) for tt, docno, score in run_rows[name] if tt == topic), reverse=True)
            ranked = [docno for _, docno in ranked][:max_depth]
            expected = [index.get((topic, d), NOT_IN_QRELS) for d in ranked]
            row = exp.judgments.doc[s, t].tolist()
            assert row == expected + [NO_DOCUMENT] * (exp.depth - len(expected))
            assert exp.length[s, t] == len(expected)
            for r, q in enumerate(expected):
                if q >= 0:
                    assert exp.judgments.retrieved_rank[s, q] == r + 1
        assert (exp.judgments.retrieved_rank[s] < np.iinfo(exp.judgments.retrieved_rank.dtype).max).sum() == \
            sum(1 for q in exp.judgments.doc[s].ravel() if q >= 0)


def test_runs_of_short_docnos_meet_qrels_with_longer_ones(tmp_path):
    """Every docno of the run 8 bytes or shorter, one qrels docno longer: the run's documents
    are still found in the qrels (P@2 = 2/2, as trec_eval gives)."""
    from irnb import Experiment, evaluate

    (tmp_path / "run.txt").write_text("1 Q0 A-d0 1 2.0 r\n1 Q0 A-d1 2 1.0 r\n")
    (tmp_path / "qrels.txt").write_text("1 0 A-d0 1\n1 0 A-d1 1\n1 0 aaaaaaaaa 0\n")
    exp = Experiment(str(tmp_path / "run.txt"), str(tmp_path / "qrels.txt"))
    assert evaluate(exp, ["P@2"]).means().loc["run.txt", "P@2"] == 1.0


def test_remembered_qrels_topics_lay_out_as_encoded(tmp_path):
    """Qrels read by irnb carry their topic boundaries; the same table without them (a Qrels
    built from the table as it is) must give the Experiment the same topics and arrays."""
    from trec_text import write_file
    from irnb import Qrels
    from irnb.ordering import QRELS_ORDER, topic_blocks

    qrels = read_qrels(write_file(tmp_path / "q", "10 0 b 1\n10 0 a 0\n9 0 c 2\n9 0 a 1\n2 0 z -1\n7 0 x 1\n"))
    plain = Qrels(table=pa.table({name: qrels.table[name].to_pylist() for name in ("topic", "docno", "grade")}))
    assert topic_blocks(qrels.table, QRELS_ORDER) is not None and topic_blocks(plain.table, QRELS_ORDER) is None
    run = pd.DataFrame({"qid": ["9", "9", "10", "10", "2", "3"], "docno": ["a", "c", "a", "zz", "z", "q"],
                        "score": [2.0, 1.0, 1.0, 0.5, 1.0, 1.0]})
    kept, again = Experiment(run, qrels, truth=qrels), Experiment(run, plain, truth=plain)
    assert kept.topics == again.topics == ("10", "2", "7", "9")
    assert kept.grade.tolist() == again.grade.tolist() == [[[0, UNJUDGED], [-1, NO_DOC], [NO_DOC, NO_DOC], [1, 2]]]
    for mine, theirs in [(kept.judgments, again.judgments), (kept.truth, again.truth)]:
        assert np.array_equal(mine.qrel_topic, theirs.qrel_topic)
        assert np.array_equal(mine.topic_start, theirs.topic_start)
        assert np.array_equal(mine.qrel_grade, theirs.qrel_grade) and mine.qrel_docno.equals(theirs.qrel_docno)
