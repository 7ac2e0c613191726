"""Run and Qrels as checked tables (irnb.trecdata): repeated docnos (an error, or the first kept),
DataFrame columns and values, and errors that name the DataFrame's row by its index label."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from trec_text import ranking_of, write_file
from irnb import read_qrels, read_run, read_runs, trecdata


def test_on_duplicate_keep_first(tmp_path):
    path = write_file(tmp_path / "dup", "1 Q0 a 1 1 t\n1 Q0 b 2 2 t\n1 Q0 a 3 9 t\n2 Q0 a 1 1 t\n")
    run = read_run(path, on_duplicate="keep_first")
    # the second 'a' of topic 1 (score 9) is dropped although its score is higher; topic 2's 'a' stays
    assert ranking_of(run) == [("1", "b", 2.0), ("1", "a", 1.0), ("2", "a", 1.0)]
    q = read_qrels(write_file(tmp_path / "q", "1 0 a 2\n1 0 a 0\n"), on_duplicate="keep_first")
    assert q.to_frame().values.tolist() == [["1", "a", 2]]
    with pytest.raises(ValueError, match=r"on_duplicate must be one of 'error' or 'keep_first', got 'last'"):
        read_run(path, on_duplicate="last")


def test_dataframe_errors_name_the_row():
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 1: expected a finite number in column 'score', "
                                                   "got nan")):
        read_run(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "score": [1.0, np.nan]}), name="f")
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 2: docno 'a' repeated for topic '1' (first at "
                                                   "row 0)")):
        read_run(pd.DataFrame({"qid": [1, 1, 1], "docno": ["a", "b", "a"], "score": [1, 2, 3]}), name="f")
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 0: expected a non-empty 'docno' without "
                                                   "whitespace, got 'a b'")):
        read_run(pd.DataFrame({"qid": [1], "docno": ["a b"], "score": [1]}), name="f")
    with pytest.raises(ValueError, match=re.escape("DataFrame 'f': row 0: expected a value in column 'qid', got None")):
        read_run(pd.DataFrame({"qid": [None], "docno": ["a"], "score": [1]}), name="f")
    with pytest.raises(ValueError, match=r"DataFrame 'f': expected a column for score \(one of score, sim\), got "
                                         r"columns \['qid', 'docno'\]"):
        read_run(pd.DataFrame({"qid": [1], "docno": ["a"]}), name="f")
    with pytest.raises(ValueError, match=re.escape("qrels DataFrame: row 1: expected an integer grade in column 'rel', "
                                                   "got 0.5")):
        read_qrels(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "rel": [1, 0.5]}))


def test_dataframe_errors_use_index_labels():
    frame = pd.DataFrame({"run": ["r", "s", "s"], "qid": [1, 1, 1], "docno": ["a", "a", "a"],
                          "score": [1.0, 2.0, 3.0]}, index=[10, 20, 30])
    # run 's' holds rows 20 and 30: the message names the labels, usable with frame.loc
    with pytest.raises(ValueError, match=re.escape("DataFrame 's': row 30: docno 'a' repeated for topic '1' (first at "
                                                   "row 20)")):
        read_runs(frame)
    with pytest.raises(ValueError, match=re.escape("qrels DataFrame: row 'y': expected an integer grade in column "
                                                   "'grade', got 'high'")):
        read_qrels(pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "grade": [1, "high"]}, index=["x", "y"]))


def test_dataframe_row_without_a_run_name_is_an_error():
    import pandas as pd

    from irnb import read_runs

    frame = pd.DataFrame({"run": ["a", "a", None], "qid": "1", "docno": ["x", "y", "z"], "score": [3.0, 2.0, 1.0]})
    with pytest.raises(ValueError, match=r"DataFrame: row 2: expected a run name in column 'run', got nan"):
        read_runs(frame)


@pytest.mark.parametrize("text, name", [
    ("10 0 b 1\n10 0 a 0\n9 0 c 2\n9 0 a 1\n2 0 z 0\n", "topics grouped, not in string order: topic column moved"),
    ("1 0 b 1\n1 0 a 0\n2 0 c 2\n2 0 a 1\n", "topics grouped in string order: topic column kept"),
    ("1 0 b 1\n2 0 c 2\n1 0 a 0\n2 0 a 1\n", "topics sorted names but interleaved: not kept"),
    ("2 0 a 1\n2 0 b 0\n1 0 c 2\n", "docnos in order, topics moved"),
    ("3 0 b 1\n3 0 a 0\n1 0 c 2\n1 0 a 1\n2 0 d 0\n2 0 c 1\n", "topics moved: two stretches one block"),
    ("3 0 a 1\n3 0 b 0\n1 0 a 2\n1 0 c 1\n2 0 c 0\n2 0 d 1\n", "docnos in order, topics moved: no gather"),
    ("3 0 a 1\n3 0 b 0\n1 0 a 2\n1 0 d 1\n1 0 c 1\n2 0 c 0\n", "docnos in order but one pair: gathered"),
])
@pytest.mark.parametrize("block_rows", [1, 10**9], ids=["stretches joined", "topic gathered"])
def test_qrels_order_and_topic_blocks(tmp_path, monkeypatch, text, name, block_rows):
    """Qrels rows are in (topic, docno) string order, equal to Arrow's own sort of the file's
    rows, whichever way the topic column is made (its stretches sliced end to end, or
    gathered row by row); the remembered topic boundaries are that column's stretches (the
    Experiment reads its topics from them)."""
    import pyarrow as pa
    from irnb import trecdata
    from irnb.ordering import QRELS_ORDER, topic_blocks

    monkeypatch.setattr(trecdata, "BLOCK_ROWS", block_rows)
    qrels = read_qrels(write_file(tmp_path / "q", text))
    rows = [line.split() for line in text.splitlines()]
    expected = pa.table({"topic": [r[0] for r in rows], "docno": [r[2] for r in rows],
                         "grade": pa.array([int(r[3]) for r in rows], pa.int64())})
    expected = expected.sort_by([("topic", "ascending"), ("docno", "ascending")])
    assert qrels.table.equals(expected), name
    starts, topics = topic_blocks(qrels.table, QRELS_ORDER)
    column = qrels.table["topic"].to_pylist()
    assert topics.to_pylist() == sorted(set(column))
    assert starts.tolist() == [column.index(t) for t in topics.to_pylist()] + [len(column)]
    assert topic_blocks(qrels.table) is None  # a run's trec_eval order is not claimed for qrels


def test_qrels_keep_first_blocks(tmp_path):
    from irnb.ordering import QRELS_ORDER, topic_blocks

    qrels = read_qrels(write_file(tmp_path / "q", "2 0 b 1\n2 0 a 0\n1 0 a 2\n2 0 b 3\n"), on_duplicate="keep_first")
    assert qrels.to_frame().values.tolist() == [["1", "a", 2], ["2", "a", 0], ["2", "b", 1]]
    starts, topics = topic_blocks(qrels.table, QRELS_ORDER)
    assert (starts.tolist(), topics.to_pylist()) == ([0, 1, 3], ["1", "2"])


@pytest.mark.skipif(pa.default_memory_pool().backend_name == "system",
                    reason="Arrow's default pool is the C allocator here: nothing to tell apart")
@pytest.mark.parametrize("stretches", [True, False])
def test_qrels_columns_reordered_one_at_a_time_into_the_c_allocator(stretches, monkeypatch):
    """Qrels parsed into Arrow's pool (as a large file is) whose docnos need reordering: each
    column's copy is made after the columns copied before it have been dropped and their
    memory handed back (the copies needing fresh memory for about one column, not three), and
    the copies come from the C allocator; the qrels are those the table gives in any pool.
    With ``stretches``, every topic's lines lie together (the topic column is laid end to
    end, docno and grade gathered); without, topics are scattered (every column gathered)."""
    rng = np.random.default_rng(5)
    n = 60_000
    topic = (np.repeat(np.arange(300), n // 300) if stretches else rng.integers(0, 300, n)).astype(str)
    docno, grade = [f"d{v:07d}" for v in rng.permutation(n)], rng.integers(0, 3, n).tolist()

    def parsed():  # every column in Arrow's pool (grades from a list: numpy's would be borrowed)
        return pa.table({"topic": topic, "docno": docno, "grade": pa.array(grade, pa.int64())})

    expected = trecdata.qrels_from_table([parsed()], None, "q", "error").to_frame()
    arrow, system = pa.default_memory_pool(), pa.system_memory_pool()
    tables = [parsed()]
    sizes = {name: tables[0][name].nbytes for name in ("topic", "docno", "grade")}
    at_copy = []
    for name in ("take_rows", "stretches_joined"):
        real = getattr(trecdata, name)
        monkeypatch.setattr(trecdata, name, lambda values, *args, real=real, **kw: (
            at_copy.append(arrow.bytes_allocated()) if len(values) == n else None) or real(values, *args, **kw))
    system_before = system.bytes_allocated()
    qrels = trecdata.qrels_from_table(tables, None, "q", "error")
    assert tables == [] and qrels.to_frame().equals(expected)
    assert len(at_copy) == 3  # topic, docno, grade: one copy each
    freed = at_copy[0] - np.array(at_copy) + (16 << 10)  # since the first copy began; small arrays aside
    assert freed[1] >= sizes["topic"]  # the topic column was dropped before docno's copy
    assert freed[2] >= sizes["topic"] + sizes["docno"]  # and docno before grade's
    assert at_copy[0] - arrow.bytes_allocated() + (16 << 10) >= sum(sizes.values())  # every source column freed
    assert system.bytes_allocated() - system_before >= sum(sizes.values()) * 0.9  # the copies: the C allocator's
