"""The shortcuts that make parsing and the Experiment build fast give the same results as
the plain paths: runs read on several threads raise the error a file-by-file loop raises
first; runs that irnb sorted are not sorted again, hand-built runs are; the docno lookup in
batches of runs (dense table or binary search) equals a plain-Python reference; topic codes
from topic stretches equal a plain dictionary encoding; docno hashes agree across CSV blocks."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irnb.experiment as experiment_module
import irnb.judgments as judgments_module
from irnb import Experiment, Run, read_qrels, read_run, read_runs, write_run
from irnb import io as irnb_io
from irnb.arrow_pool import allocating_from, arrow_pool
from irnb import ordering as irnb_ordering
from irnb.ordering import encode_topics, string_bytes, string_hash, strings_equal, topic_docno_order
from irnb.parsing import parse_run_bytes
from irnb.judgments import NO_DOCUMENT, NOT_IN_QRELS


# --------------------------------------------------------------------------- reading on threads


def _good(path, docno="d"):
    path.write_text(f"1 Q0 {docno} 1 2.0 t\n1 Q0 e 2 1.0 t\n", encoding="utf-8")
    return path


@pytest.fixture(params=[1, 3], ids=["inline", "3 threads"])
def threads(request, monkeypatch):
    monkeypatch.setattr(irnb_io, "_parse_threads", lambda: request.param)
    monkeypatch.setattr(irnb_io, "_INLINE_BYTES", 0)  # tiny files go to the threads too
    return request.param


def test_a_directory_raises_the_first_bad_file_in_name_order(tmp_path, threads):
    folder = tmp_path / "runs"
    folder.mkdir()
    for i in range(12):  # more files than the threads keep in flight
        _good(folder / f"r{i:02d}", f"d{i}")
    (folder / "r05").write_text("1 Q0 a 1 x t\n", encoding="utf-8")  # first bad one in name order
    (folder / "r09").write_text("1 Q0 a 1 1.0\n", encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(f"{folder / 'r05'}:1: expected a number in column 5 (score), got "
                                                   "'x'")):
        read_runs(folder)
    (folder / "r05").unlink()
    with pytest.raises(ValueError, match=re.escape(f"{folder / 'r09'}:1: expected 6 columns")):
        read_runs(folder)


def test_a_bad_file_before_a_missing_one_is_reported_first(tmp_path, threads):
    files = [_good(tmp_path / f"r{i}") for i in range(6)]
    (tmp_path / "r2").write_text("1 Q0 a 1 1.0 t\n1 Q0 a 2 0.5 t\n", encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'r2'}:2: docno 'a' repeated for topic '1'")):
        read_runs(files + [tmp_path / "missing"])
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'missing'}: cannot read runs: No such file or "
                                                   "directory (ENOENT)")):
        read_runs([files[0], tmp_path / "missing", files[2]])  # the missing one comes first


def test_a_bad_file_before_a_bad_dataframe_is_reported_first(tmp_path, threads):
    files = [_good(tmp_path / f"r{i}") for i in range(6)]
    bad_frame = pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": ["high"]})
    (tmp_path / "r4").write_text("1 Q0 a 1 nan t\n", encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'r4'}:1: expected a finite number")):
        read_runs(files + [bad_frame])
    with pytest.raises(ValueError, match=re.escape("DataFrame 'run': row 0: expected a finite number in column "
                                                   "'score'")):
        read_runs([files[0], bad_frame, files[4]])


def test_small_inputs_are_parsed_on_the_calling_thread_and_larger_ones_start_the_pool(tmp_path, monkeypatch):
    """Files are parsed inline until their text passes the inline budget; the file that
    passes it starts the pool, and every later file goes there (never back inline, so the
    first error is still the first in order)."""
    files = [_good(tmp_path / f"r{i}", f"doc{i}") for i in range(5)]
    size = files[0].stat().st_size
    started = []
    real_pool = irnb_io.ThreadPoolExecutor

    def counting_pool(*args, **kwargs):
        started.append(args)
        return real_pool(*args, **kwargs)

    monkeypatch.setattr(irnb_io, "ThreadPoolExecutor", counting_pool)
    monkeypatch.setattr(irnb_io, "_parse_threads", lambda: 2)
    monkeypatch.setattr(irnb_io, "_INLINE_BYTES", 5 * size)  # all five fit
    inline = read_runs(files)
    assert started == []
    monkeypatch.setattr(irnb_io, "_INLINE_BYTES", 2 * size)  # the third file starts the pool
    threaded = read_runs(files)
    assert started == [(2,)]
    assert list(threaded) == list(inline) and all(threaded[n].table.equals(inline[n].table) for n in inline)
    (tmp_path / "r1").write_text("1 Q0 a 1 x t\n", encoding="utf-8")  # inline, before the pool starts
    (tmp_path / "r3").write_text("1 Q0 a 1 1.0\n", encoding="utf-8")  # on the pool
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'r1'}:1: expected a number in column 5")):
        read_runs(files)


def test_threads_give_the_same_runs_in_the_same_order(tmp_path, monkeypatch):
    files = [_good(tmp_path / f"r{i}", f"doc{i}") for i in range(9)]
    frame = pd.DataFrame({"qid": ["1", "1"], "docno": ["x", "y"], "score": [1.0, 2.0]})
    sources = {f"n{i}": f for i, f in enumerate(files[:4])} | {"frame": frame} | {"n9": files[8]}
    monkeypatch.setattr(irnb_io, "_parse_threads", lambda: 1)
    inline = read_runs(sources)
    monkeypatch.setattr(irnb_io, "_parse_threads", lambda: 4)
    monkeypatch.setattr(irnb_io, "_INLINE_BYTES", 0)
    threaded = read_runs(sources)
    assert list(threaded) == list(inline) == ["n0", "n1", "n2", "n3", "frame", "n9"]
    for name in inline:
        assert threaded[name].table.equals(inline[name].table)
    assert threaded["n2"].table["docno"].to_pylist() == ["doc2", "e"]  # score 2.0 then 1.0


# --------------------------------------------------------------------------- topic codes


def test_a_repeated_docno_in_different_csv_blocks_is_found(tmp_path):
    # pyarrow reads > 1 MB in several blocks (chunks); a long docno only in the last block
    # must not change how the docnos of the other blocks hash
    lines = [f"1 Q0 doc{i:06d} {i + 1} {100000 - i} t" for i in range(60000)]
    lines[59990] = "1 Q0 a-docno-longer-than-eight-bytes 59991 1 t"
    lines[59995] = "1 Q0 doc000002 59996 1 t"  # line 3 holds doc000002
    path = tmp_path / "big.run"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert parse_run_bytes(path.read_bytes(), "x")[0]["docno"].num_chunks > 1
    with pytest.raises(ValueError, match=re.escape(f"{path}:59996: docno 'doc000002' repeated for topic '1' (first at "
                                                   "line 3)")):
        read_run(path)


@settings(max_examples=60, deadline=None)
@given(topics=st.lists(st.sampled_from(["1", "2", "10", "é", "b"]), max_size=40),
       repeat=st.integers(1, 6))
def test_topic_codes_equal_a_plain_dictionary_encoding(topics, repeat):
    array = pa.array([t for t in topics for _ in range(repeat)], pa.string())  # long stretches when repeat > 4
    codes, dictionary = encode_topics(array)
    encoded = pc.dictionary_encode(array)
    assert codes.tolist() == encoded.indices.to_pylist()
    assert dictionary.equals(encoded.dictionary)


def test_string_hash_is_equal_for_equal_strings_across_chunks():
    values = ["", "a", "abcdefgh", "abcdefghi", "é" * 9, "a"]
    chunked = pa.chunked_array([pa.array(values[:3]), pa.array(values[3:])])
    hashed = string_hash(chunked)
    assert hashed.shape == (6,) and hashed.dtype == np.uint64
    assert hashed[1] == hashed[5]  # 'a' twice, in different chunks
    assert len(set(hashed.tolist())) == 5
    assert np.array_equal(hashed, string_hash(pa.array(values)))


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from(["1", "2", "10", "é"]),
                               st.sampled_from(["a", "ab", "ab\x00", "abcdefgh", "abcdefgh1", "abcdefgh0", "abcdefgi",
                                                "clueweb12-0001", "clueweb12-0000", "é", "Z", ""])),
                     min_size=1, max_size=30, unique=True))
def test_qrels_are_in_topic_then_docno_string_order(rows):
    """The integer keys (topic rank, docno's first bytes) and the string comparison of their
    ties give pyarrow's (topic, docno) sort, whatever the docnos share."""
    table = pa.table({"topic": [t for t, _ in rows], "docno": [d for _, d in rows], "grade": [1] * len(rows)})
    codes, dictionary = encode_topics(table["topic"])
    order = topic_docno_order(table["docno"], codes, dictionary)
    expected = pc.sort_indices(table, sort_keys=[("topic", "ascending"), ("docno", "ascending")]).to_numpy()
    assert (np.arange(len(rows)) if order is None else order).tolist() == expected.tolist()


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from(["1", "2", "10", "é"]),
                               st.sampled_from(["a", "ab", "abcdefgh", "abcdefgh1", "abcdefgh0", "abcdefgi",
                                                "clueweb12-0001", "clueweb12-0000", "é", "Z"])),
                     min_size=1, max_size=40))
def test_repeats_found_by_the_qrels_order_are_the_hashed_ones(rows):
    """The repeated (topic, docno) rows that the (topic, docno) order finds among its ties,
    and the earliest row each repeats, are the ones the hash of every row finds; the order
    puts every row where pyarrow's sort does."""
    from irnb.ordering import repeated_rows, topic_docno_order_and_repeats

    table = pa.table({"topic": [t for t, _ in rows], "docno": [d for _, d in rows]})
    codes, dictionary = encode_topics(table["topic"])
    order, repeated, firsts = topic_docno_order_and_repeats(table["docno"], codes, dictionary)
    want_rows, want_firsts = repeated_rows(table, codes)
    assert repeated.tolist() == want_rows.tolist() and firsts.tolist() == want_firsts.tolist()
    expected = pc.sort_indices(table, sort_keys=[("topic", "ascending"), ("docno", "ascending")]).to_numpy()
    got = np.arange(len(rows)) if order is None else order
    assert [rows[i] for i in got] == [rows[i] for i in expected]
    for row, first in zip(repeated.tolist(), firsts.tolist(), strict=True):
        assert rows[row] == rows[first] and first < row and rows[first] not in rows[:first]


@settings(max_examples=60, deadline=None)
@given(a=st.lists(st.sampled_from(["", "a", "ab", "ab\x00", "abcdefgh", "abcdefgi", "abcdefgh1", "abcdefgh2",
                                   "é" * 5, "é" * 9, "clueweb12-0000tw-08-16795", "clueweb12-0000tw-08-16796"]),
                  min_size=1, max_size=12),
       data=st.data())
def test_strings_equal_compares_whole_strings(a, data):
    b = data.draw(st.lists(st.sampled_from(a + ["zz", "abcdefgh"]), min_size=1, max_size=12))
    rows_a = np.array(data.draw(st.lists(st.integers(0, len(a) - 1), min_size=len(b), max_size=len(b))))
    split = len(a) // 2  # the left strings come in two chunks, combined first
    left = string_bytes(pa.chunked_array([pa.array(a[:split], pa.string()), pa.array(a[split:], pa.string())]))
    right = string_bytes(pa.array(b, pa.string()))
    got = strings_equal(left, rows_a, right, np.arange(len(b)))
    assert got.tolist() == [a[i] == y for i, y in zip(rows_a.tolist(), b, strict=True)]


# --------------------------------------------------------------------------- order and lookup


def test_a_run_read_by_irnb_is_not_sorted_again_a_hand_built_one_is(tmp_path):
    path = tmp_path / "r"
    path.write_text("2 Q0 a 1 1.0 t\n10 Q0 b 1 5.0 t\n10 Q0 c 2 5.0 t\n", encoding="utf-8")
    run = read_run(path)
    assert run.table["topic"].to_pylist() == ["10", "10", "2"]  # string order
    assert run.table["docno"].to_pylist() == ["c", "b", "a"]  # tie on 5.0: docno descending
    qrels = pd.DataFrame({"qid": ["10", "2"], "docno": ["b", "a"], "grade": [1, 1]})
    exp = Experiment({"r": run}, qrels)
    assert exp.runs["r"] is run
    assert exp.judgments.doc.tolist() == [[[NOT_IN_QRELS, 0], [1, NO_DOCUMENT]]]
    # the same rows as a hand-built Run in file order: sorted by the Experiment
    raw = pa.table({"topic": ["2", "10", "10"], "docno": ["a", "b", "c"], "score": [1.0, 5.0, 5.0]})
    hand = Experiment({"r": Run("r", raw)}, qrels)
    assert hand.runs["r"].table.equals(run.table)
    assert np.array_equal(hand.judgments.doc, exp.judgments.doc)


def test_write_run_gives_the_same_text_for_read_and_hand_built_runs(tmp_path):
    raw = pa.table({"topic": ["2", "10", "10"], "docno": ["a", "b", "c"], "score": [1.0, 5.0, 5.0]})
    write_run(Run("h", raw), tmp_path / "hand", tag="t")
    write_run(read_run(tmp_path / "hand"), tmp_path / "again", tag="t")
    expected = "10 Q0 c 1 5 t\n10 Q0 b 2 5 t\n2 Q0 a 1 1 t\n"  # ranks restart per topic
    assert (tmp_path / "hand").read_text() == (tmp_path / "again").read_text() == expected


_doc = st.sampled_from(["a", "b", "c", "d", "e", "f"])
_topic = st.sampled_from(["1", "2", "3", "10"])


@st.composite
def _collection(draw):
    qrels = draw(st.lists(st.tuples(_topic, _doc, st.integers(-1, 2)), min_size=1, max_size=16,
                          unique_by=lambda r: r[:2]))
    runs = {}
    for s in range(draw(st.integers(1, 5))):
        rows = draw(st.lists(st.tuples(_topic, _doc, st.sampled_from([0.5, 1.0, 2.0])), min_size=1,
                             max_size=16, unique_by=lambda r: r[:2]))
        runs[f"r{s}"] = rows
    return qrels, runs


@settings(max_examples=60, deadline=None)
@given(data=_collection(), max_depth=st.one_of(st.none(), st.integers(1, 3)),
       batch=st.sampled_from([1, 5, 1 << 20]), hand_built=st.booleans(),
       path=st.sampled_from(["keys", "colliding keys"]))
def test_batched_lookup_matches_a_plain_python_reference(data, max_depth, batch, hand_built, path,
                                                         monkeypatch_module):
    qrels_rows, run_rows = data
    qrels_topics = {t for t, _, _ in qrels_rows}
    run_rows = {name: rows for name, rows in run_rows.items() if {t for t, _, _ in rows} & qrels_topics}
    if not run_rows:
        return
    monkeypatch_module.setattr(experiment_module, "_BATCH_LINES", batch)
    # (topic, docno) keys of the full docno hash, or of 1 bit of it: then most docnos of a topic
    # share a key and only the string comparison tells them apart
    monkeypatch_module.setattr(irnb_ordering, "_KEY_BITS", 1 if path == "colliding keys" else 64)
    qrels = read_qrels(pd.DataFrame(qrels_rows, columns=["qid", "docno", "grade"]))
    if hand_built:  # rows in drawn order: the Experiment sorts them
        runs = {name: Run(name, pa.table({"topic": [t for t, _, _ in rows], "docno": [d for _, d, _ in rows],
                                          "score": [float(x) for _, _, x in rows]}))
                for name, rows in run_rows.items()}
    else:
        runs = read_runs({name: pd.DataFrame(rows, columns=["qid", "docno", "score"])
                          for name, rows in run_rows.items()})
    exp = Experiment(runs, qrels, max_depth=max_depth, truth=qrels)
    index = {key: i for i, key in enumerate(sorted((t, d) for t, d, _ in qrels_rows))}
    for s, name in enumerate(exp.run_names):
        for t, topic in enumerate(sorted(qrels_topics)):
            ranked = sorted(((score, docno) for tt, docno, score in run_rows[name] if tt == topic), reverse=True)
            expected = [index.get((topic, d), NOT_IN_QRELS) for _, d in ranked][:max_depth]
            assert exp.judgments.doc[s, t].tolist() == expected + [NO_DOCUMENT] * (exp.depth - len(expected))
            assert exp.length[s, t] == len(expected)
        ignored = sorted({t for t, _, _ in run_rows[name]} - qrels_topics)
        assert exp.ignored_topics.get(name, []) == ignored
    assert np.array_equal(exp.truth.doc, exp.judgments.doc)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.mark.parametrize("hash_bits", [64, 1, 0])
def test_key_lookup_confirms_every_match_on_the_strings(hash_bits, monkeypatch):
    """Lines and entries meet on (topic, docno hash bits); a shared key is never taken for a
    match unless the topics and docnos are equal (with 0 bits every pair of a topic shares
    its key), and a docno listed twice for a topic finds its first entry."""
    monkeypatch.setattr(irnb_ordering, "_KEY_BITS", hash_bits)
    qrel_topic = np.array([0, 0, 0, 1, 1, 1])
    qrel_docno = pa.array(["a", "b", "c", "a", "d", "a"])  # topic 1 lists "a" twice: entries 3 and 5
    topic = np.array([0, 0, 0, 1, 1, 1, 2])
    docno = pa.chunked_array([["c", "d", "a"], ["a", "b", "d", "a"]])
    got = judgments_module.qrels_row_of(qrel_topic, qrel_docno, topic, docno)
    assert got.tolist() == [2, NOT_IN_QRELS, 0, 3, NOT_IN_QRELS, 4, NOT_IN_QRELS]


def test_key_lookup_with_every_key_equal_tells_topics_and_docnos_apart(monkeypatch):
    """Every pair in one bucket under one key (the worst a hash can do): the entries found
    are still exactly the pairs whose topic and docno are equal, the first of a pair listed
    twice."""
    monkeypatch.setattr(irnb_ordering, "_string_key", lambda strings: np.zeros(strings.starts.size, np.uint64))
    table = irnb_ordering.key_table(np.array([0, 1, 1, 0, 1]), pa.array(["a", "a", "b", "bb", "a"]))
    got = irnb_ordering.find_keys(table, np.array([1, 0, 0, 1, 2, 0]), pa.array(["a", "a", "b", "bb", "a", "bb"]))
    assert got.tolist() == [1, 0, -1, -1, -1, 3]


@pytest.mark.parametrize("budget", [1, 64 << 20])
def test_files_over_the_bytes_in_flight_are_parsed_one_at_a_time_with_the_same_runs_and_errors(
        tmp_path, monkeypatch, budget):
    """With a budget of 1 byte every file is read and parsed alone (as large files are):
    the runs are those read inline, and the first bad file in name order is the one
    reported."""
    folder = tmp_path / "runs"
    folder.mkdir()
    for i in range(9):
        _good(folder / f"r{i}", f"d{i}")
    (folder / "r4").write_text("# a comment\n1 Q0 a 1 2.0 t\n", encoding="utf-8")  # the exact path keeps comments
    monkeypatch.setattr(irnb_io, "_BYTES_IN_FLIGHT", budget)
    monkeypatch.setattr(irnb_io, "_INLINE_BYTES", 0)
    monkeypatch.setattr(irnb_io, "_parse_threads", lambda: 3)
    threaded = read_runs(folder)
    monkeypatch.setattr(irnb_io, "_parse_threads", lambda: 1)
    inline = read_runs(folder)
    assert list(threaded) == list(inline) and all(threaded[n].table.equals(inline[n].table) for n in inline)
    assert threaded["r4"].comments == inline["r4"].comments == ("a comment",)
    monkeypatch.setattr(irnb_io, "_parse_threads", lambda: 3)
    (folder / "r6").write_text("1 Q0 a 1 x t\n", encoding="utf-8")
    (folder / "r7").write_text("1 Q0 a 1 1.0\n", encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(f"{folder / 'r6'}:1: expected a number in column 5")):
        read_runs(folder)


def test_a_parse_frees_the_text_it_was_handed():
    """The file's bytes go to the parse in a one-item list, which the parse empties (so the
    text is freed as soon as the parse no longer needs it)."""
    text = [b"1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0 t\n"]
    run = irnb_io._run_from_bytes(text, "r", "r", "error")
    assert text == [] and run.table["docno"].to_pylist() == ["a", "b"]


def test_a_parse_gives_the_same_table_whichever_allocator_holds_it():
    """The first small files of a read are parsed into the C allocator's memory, later ones
    into Arrow's pool: the same table either way, its buffers in the pool asked for."""
    text = "".join(f"{t} Q0 doc{t}-{i} {i + 1} {1.5 - i / 8} tag\n" for t in (3, 1) for i in range(6)).encode()
    system = pa.system_memory_pool()
    before = system.bytes_allocated()
    with allocating_from(system):
        held = parse_run_bytes(text, "r")[0]
        assert system.bytes_allocated() > before  # the table's buffers are the C allocator's
    default = parse_run_bytes(text, "r")[0]
    assert held.equals(default) and held.num_rows == 12
    assert held["score"].to_pylist()[:3] == [1.5, 1.375, 1.25]


def test_only_the_files_parsed_inline_use_the_c_allocator(tmp_path, monkeypatch):
    """Within the inline budget a file (or a batch of small files) is parsed with the C
    allocator's pool; past it (or on the pool's threads) with Arrow's default."""
    files = [_good(tmp_path / f"r{i}", f"doc{i}") for i in range(4)]
    size = files[0].stat().st_size
    pools = []
    real, real_joined = irnb_io.parse_run_bytes, irnb_io.parse_joined_runs

    def spy(data, label):
        pools.append(arrow_pool())
        return real(data, label)

    def joined_spy(texts, labels):
        pools.append(arrow_pool())
        return real_joined(texts, labels)

    monkeypatch.setattr(irnb_io, "parse_run_bytes", spy)
    monkeypatch.setattr(irnb_io, "parse_joined_runs", joined_spy)
    monkeypatch.setattr(irnb_io, "_INLINE_BYTES", 2 * size)
    system = pa.system_memory_pool().backend_name
    for small_file, expected in ((0, [system] * 2 + [None] * 2),  # every file parsed alone
                                 (2 * size, [system, None])):  # two batches of two files
        monkeypatch.setattr(irnb_io, "_SMALL_FILE_BYTES", small_file)
        monkeypatch.setattr(irnb_io, "_BATCH_BYTES", 2 * size)
        for threads in (1, 2):
            pools.clear()
            monkeypatch.setattr(irnb_io, "_parse_threads", lambda threads=threads: threads)
            read_runs(files)
            names = [None if pool is None else pool.backend_name for pool in pools]
            assert names == expected


@settings(max_examples=40, deadline=None)
@given(files=st.lists(st.lists(st.tuples(st.sampled_from(["1", "2", "10", "b"]),
                                         st.sampled_from(["a", "c", "d10", "é"]),
                                         st.sampled_from(["1", "2.5", "2.50000001", "0"])),
                               min_size=1, max_size=8, unique_by=lambda row: row[:2]),
                      min_size=1, max_size=5),
       repeat_in=st.one_of(st.none(), st.integers(0, 4)))
def test_small_files_read_together_give_the_runs_each_gives_alone(tmp_path_factory, files, repeat_in):
    """Small files are parsed and ordered together (one batch): each run, its order (score
    ties broken by docno, topics in string order) and its topic blocks are those of the file
    read alone; a docno repeated in one of them sends the batch file by file (the same
    error, or the same first occurrence kept)."""
    from irnb.ordering import topic_blocks
    from irnb.parsing import parse_joined_runs
    from irnb.trecdata import runs_from_joined_table

    folder = tmp_path_factory.mktemp("runs")
    paths = []
    for i, rows in enumerate(files):
        lines = [f"{t} Q0 {d} {r + 1} {s} tag{i}" for r, (t, d, s) in enumerate(rows)]
        if repeat_in == i:
            lines.append(lines[0].replace(" 1 ", " 9 ", 1))
        paths.append(folder / f"r{i}")
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    labels = [str(path) for path in paths]
    table, sizes, tags = parse_joined_runs([path.read_bytes() for path in paths], labels)
    repeats = repeat_in is not None and repeat_in < len(files)
    assert (runs_from_joined_table(table, sizes, [p.name for p in paths], tags, labels) is None) == repeats
    for policy in ("error", "keep_first"):
        try:
            alone = {}
            for path in paths:
                alone |= read_runs(path, on_duplicate=policy)
        except ValueError as err:
            with pytest.raises(ValueError, match=re.escape(str(err))):
                read_runs(paths, on_duplicate=policy)
            continue
        together = read_runs(paths, on_duplicate=policy)
        assert list(together) == list(alone)
        for name, run in alone.items():
            assert together[name].table.equals(run.table) and together[name].tag == run.tag
            (starts, topics), (starts_alone, topics_alone) = topic_blocks(together[name].table), topic_blocks(run.table)
            assert starts.tolist() == starts_alone.tolist() and topics.to_pylist() == topics_alone.to_pylist()
