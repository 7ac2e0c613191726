"""irnb.ordering: the docno hash that matches a run's lines with the qrels entries."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irnb import ordering
from irnb.ordering import as_arrow, column_numpy, find_keys, group_by_code, key_table, positions_in, sort_within
from irnb.ordering import string_hash

docnos = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", max_size=30)


@settings(max_examples=200, deadline=None)
@given(st.lists(docnos, min_size=1, max_size=12), st.lists(docnos, max_size=12))
def test_a_string_hashes_the_same_whatever_else_its_array_holds(strings, others):
    alone = string_hash(pa.array(strings))
    among = string_hash(pa.array(others + strings))[len(others):]
    assert alone.tolist() == among.tolist()


def test_short_docnos_match_beside_longer_ones():
    """Docnos of one length (a run) hashed as in an array with a longer docno (its qrels):
    each of the short ones gets the hash it gets alone."""
    run = string_hash(pa.array(["A-d0", "A-d1"]))
    qrels = string_hash(pa.array(["A-d0", "A-d1", "aaaaaaaaa"]))
    assert run.tolist() == qrels[:2].tolist()
    assert len(set(qrels.tolist())) == 3


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 2**64 - 1), max_size=70), min_size=1, max_size=12))
def test_sort_within_sorts_every_segment_and_nothing_across(segments):
    """Segments of every length (a power of two, one more, empty) sorted apart; the largest
    value (the padding of short segments) is an ordinary value too."""
    values = np.array([v for segment in segments for v in segment], dtype=np.uint64)
    starts = np.r_[0, np.cumsum([len(segment) for segment in segments])]
    sort_within(values, starts)
    assert values.tolist() == [v for segment in segments for v in sorted(segment)]


def test_sort_within_sorts_long_segments_alone(monkeypatch):
    monkeypatch.setattr(ordering, "_LONG_SEGMENT", 4)
    monkeypatch.setattr(ordering, "_SEGMENT_CELLS", 4)  # short segments a few rows at a time
    values = np.array([5, 4, 3, 2, 1, 9, 8, 7, 6, 2, 1], dtype=np.uint64)
    sort_within(values, np.array([0, 5, 6, 9, 11]))
    assert values.tolist() == [1, 2, 3, 4, 5, 9, 6, 7, 8, 1, 2]


def test_group_by_code_moves_stretches_without_a_sort_and_keeps_rows_in_order():
    codes = np.array([2, 2, 0, 0, 0, 1])  # each code in one stretch, codes out of order
    order, starts = group_by_code(codes, 4)
    assert order.tolist() == [2, 3, 4, 5, 0, 1] and starts.tolist() == [0, 3, 4, 6, 6]
    order, _ = group_by_code(np.array([1, 0, 1, 0]), 2)  # a code in two stretches
    assert order.tolist() == [1, 3, 0, 2]
    assert group_by_code(np.array([0, 0, 3]), 4)[0] is None


@settings(max_examples=100, deadline=None)
@given(entries=st.lists(st.tuples(st.integers(0, 6), docnos), max_size=40),
       pairs=st.lists(st.tuples(st.integers(-1, 8), docnos), max_size=30),
       part=st.sampled_from([1, 2, 5]), codes_in_order=st.booleans())
def test_key_table_and_lookup_a_few_at_a_time_are_those_at_once(entries, pairs, part, codes_in_order):
    """Tables placed in parts of whole codes (a code larger than a part alone in its part;
    codes without entries between them) have the same buckets, keys and entries as one
    placed at once; pairs looked up a few at a time find the first entry of each."""
    entries = sorted(entries, key=lambda e: e[0]) if codes_in_order else entries
    codes = np.array([c for c, _ in entries], dtype=np.int64)
    strings = pa.array([d for _, d in entries], pa.string())
    whole = key_table(codes, strings)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ordering, "_TABLE_PART", part)
        patch.setattr(ordering, "_LOOKUP_PART", part)
        parts = key_table(codes, strings)
        got = find_keys(parts, np.array([c for c, _ in pairs], dtype=np.int64),
                        pa.array([d for _, d in pairs], pa.string()))
    for name in ("start", "key", "entry", "base", "shift"):
        assert getattr(parts, name).tolist() == getattr(whole, name).tolist(), name
    first = {}
    for i, entry in enumerate(entries):
        first.setdefault(entry, i)
    assert got.tolist() == [first.get(pair, -1) for pair in pairs]


def test_key_table_given_where_each_code_starts_is_the_table_found_from_the_codes():
    codes = np.array([0, 0, 2, 2, 2, 3])  # code 1 without entries; code 2 lists "a" twice
    strings = pa.array(["a", "b", "a", "c", "a", "b"])
    found = key_table(codes, strings)
    given = key_table(codes, strings, code_start=np.array([0, 2, 2, 5, 6]))
    for name in ("start", "key", "entry", "base", "shift"):
        assert getattr(given, name).tolist() == getattr(found, name).tolist(), name
    more = key_table(codes, strings, code_start=np.array([0, 2, 2, 5, 6, 6]))  # a last code without entries
    assert find_keys(more, np.array([4, 2, 3, 1]), pa.array(["a", "a", "b", "a"])).tolist() == [-1, 2, 5, -1]
    with pytest.raises(ValueError, match=r"code_start must run from 0 to the 6 entries \(one offset per code "
                                         r"and one after\), got 4 offsets from \[0\] to \[5\]"):
        key_table(codes, strings, code_start=np.array([0, 2, 2, 5]))


def test_key_table_of_a_code_with_more_buckets_than_16_bits_number():
    """A code of 2**16 entries has 2**17 buckets, more than a part numbers in 16 bits: it is
    placed alone, and every entry (the first of a pair listed twice) is found."""
    many = 1 << 16
    docno = [f"d{i}" for i in range(many)] + ["x", "d7", "x"]  # d7 again under code 1; x twice under code 1
    codes = np.r_[np.zeros(many, np.int64), np.ones(3, np.int64)]
    table = key_table(codes, pa.array(docno))
    assert int(table.base[1]) == 2 * many  # code 0's buckets: beyond 16 bits
    probe = np.r_[0, many - 1, 12345, many, many + 1]  # entries whose pairs are looked up
    got = find_keys(table, codes[probe], pa.array([docno[i] for i in probe]))
    assert got.tolist() == [0, many - 1, 12345, many, many + 1]
    assert find_keys(table, np.array([1, 0]), pa.array(["x", "x"])).tolist() == [many, -1]


@settings(max_examples=150, deadline=None)
@given(entries=st.lists(st.tuples(st.integers(0, 6), docnos), max_size=40),
       pairs=st.lists(st.tuples(st.integers(-1, 8), docnos), max_size=30))
def test_key_table_finds_the_first_entry_of_every_pair(entries, pairs):
    """Against a dict of the first entry of every (code, docno); codes in any order, a code
    without entries and a negative code find nothing."""
    table = key_table(np.array([c for c, _ in entries], dtype=np.int64), pa.array([d for _, d in entries], pa.string()))
    got = find_keys(table, np.array([c for c, _ in pairs], dtype=np.int64),
                    pa.array([d for _, d in pairs], pa.string()))
    first = {}
    for i, entry in enumerate(entries):
        first.setdefault(entry, i)
    assert got.tolist() == [first.get(pair, -1) for pair in pairs]


# docnos that share their first bytes (ties of the integer keys) or differ only past them
_TIED_DOCNOS = ["a", "ab", "ab\x00", "abcdefgh", "abcdefgh1", "abcdefgh0", "abcdefgi", "clueweb12-0001",
                "clueweb12-0000", "é", "Z"]


@settings(max_examples=150, deadline=None)
@given(stretches=st.lists(st.tuples(st.sampled_from(["1", "2", "10", "9", "é", "100"]),
                                    st.lists(st.sampled_from(_TIED_DOCNOS), min_size=1, max_size=9)),
                          min_size=1, max_size=6, unique_by=lambda stretch: stretch[0]),
       group_rows=st.integers(1, 12))
def test_topics_in_one_stretch_each_are_ordered_a_group_at_a_time(stretches, group_rows):
    """Every topic's rows in one stretch (topics in any order, docnos repeated or not): the
    stretches sorted a few rows' worth at a time give pyarrow's (topic, docno) sort and the
    repeats that hashing every row finds."""
    rows = [(topic, docno) for topic, docnos in stretches for docno in docnos]
    table = pa.table({"topic": [t for t, _ in rows], "docno": [d for _, d in rows]})
    _assert_qrels_order_and_repeats(table, rows, group_rows)


def _assert_qrels_order_and_repeats(table: pa.Table, rows: list, group_rows: int) -> None:
    """topic_docno_order_and_repeats, ``group_rows`` rows of stretches at a time, gives
    pyarrow's (topic, docno) sort of ``rows`` (the table's) and the repeats hashing every
    row finds."""
    codes, dictionary = ordering.encode_topics(table["topic"])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ordering, "_STRETCH_ROWS", group_rows)
        order, repeated, firsts = ordering.topic_docno_order_and_repeats(table["docno"], codes, dictionary)
    want_rows, want_firsts = ordering.repeated_rows(table, codes)
    assert repeated.tolist() == want_rows.tolist() and firsts.tolist() == want_firsts.tolist()
    expected = pc.sort_indices(table, sort_keys=[("topic", "ascending"), ("docno", "ascending")]).to_numpy()
    got = np.arange(len(rows)) if order is None else order
    assert [rows[i] for i in got] == [rows[i] for i in expected]


def test_stretches_out_of_topic_order_are_moved_whole():
    """Topics '9' then '10' (string order: '10' first), each in one stretch, two rows to a
    group: '10''s sorted rows (3, 2) go first, then '9''s (1, 0); the repeat of 'b' in
    topic '10' (row 4) names row 2."""
    table = pa.table({"topic": ["9", "9", "10", "10", "10"], "docno": ["b", "a", "b", "a", "b"]})
    codes, dictionary = ordering.encode_topics(table["topic"])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ordering, "_STRETCH_ROWS", 2)
        order, repeated, firsts = ordering.topic_docno_order_and_repeats(table["docno"], codes, dictionary)
    assert order.tolist() == [3, 2, 4, 1, 0]
    assert repeated.tolist() == [4] and firsts.tolist() == [2]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 12)), min_size=1, max_size=8), st.randoms())
def test_sort_within_sorts_runs_of_equal_segments_as_a_matrix_and_the_rest_alone(runs, random):
    """Runs of neighbouring segments of one length (many, as a run's topics cut at one
    depth; or a few, sorted the general way) among others: every segment sorted, nothing
    moved across segments."""
    segments = [[random.randrange(2**64) for _ in range(length)] for length, count in runs for _ in range(count)]
    values = np.array([v for segment in segments for v in segment], dtype=np.uint64)
    starts = np.r_[0, np.cumsum([len(segment) for segment in segments])]
    sort_within(values, starts)
    assert values.tolist() == [v for segment in segments for v in sorted(segment)]


def test_sort_within_a_view_sorts_the_callers_values():
    """Every other value of an array (not contiguous: no matrix view of it), ten segments of
    two: sorted in place all the same."""
    base = np.zeros(40, dtype=np.uint64)
    base[::2] = np.arange(20, 0, -1)
    view = base[::2]
    sort_within(view, np.arange(0, 21, 2))
    assert view.tolist() == [v for pair in range(10) for v in (19 - 2 * pair, 20 - 2 * pair)]
    assert base[1::2].tolist() == [0] * 20


@pytest.mark.parametrize("values", [np.array([3, -1, 2], np.int64), np.array([7, 0], np.int32),
                                    np.array([2**63 + 1, 5], np.uint64), np.array([0.5, -2.0]),
                                    np.arange(10)[::3], np.zeros(0, np.int64), np.array([True, False])])
def test_as_arrow_gives_what_pa_array_gives(values):
    """Integers and floats from their buffer (a strided view made contiguous first), booleans
    through pa.array: the same type and values either way."""
    out = as_arrow(values)
    assert out.equals(pa.array(values)) and out.type == pa.array(values).type


def test_reading_runs_never_loads_pyarrows_pandas_layer(tmp_path):
    """Runs read alone and in a batch, sorted by topic name and with score ties to settle,
    qrels read, the Experiment built and evaluated (every step that builds Arrow arrays from
    numpy or looks topics up): pa.array's first call, or fill_null's scalar, would load the
    pandas layer; as_arrow and positions_in do not."""
    for i in range(3):
        (tmp_path / f"r{i}").write_text("10 Q0 b 1 1 t\n10 Q0 c 2 1 t\n9 Q0 a 1 2 t\n9 Q0 d 2 3 t\n")
    qrels = tmp_path.parent / f"{tmp_path.name}.qrels"  # beside the runs' folder, not in it
    qrels.write_text("9 0 d 1\n10 0 c 2\n9 0 a 0\n")
    code = ("import sys, irnb; irnb.read_runs([sys.argv[1] + '/r0']); runs = irnb.read_runs(sys.argv[1]); "
            "ev = irnb.evaluate(irnb.Experiment(runs, irnb.read_qrels(sys.argv[2])), ['P@2', 'AP']); "
            "print('pyarrow.pandas_compat' in sys.modules, ev['P@2'].shape)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path), str(qrels)], capture_output=True, text=True,
                         check=True,
                         env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1])))
    assert out.stdout.split() == ["False", "(3,", "2)"]  # 3 runs × 2 topics evaluated


_SCORES = [1.0, 1.0 + 2 ** -40, 0.5, -0.0, 0.0, -2.0, 3.0]  # 1.0 and 1 + 2**-40 tie as float32 only


def _trec_order_by_hand(rows: list[tuple[str, str, float]], compat: str) -> list[tuple[str, str, float]]:
    """trec_eval's order with Python's sort: topic ascending, then score as compared
    (float32 in 9.x, -0.0 as 0.0) descending, then docno descending."""
    def compared(score: float) -> float:
        return float(np.float32(score)) + 0.0 if compat == "9" else score + 0.0
    by_docno = sorted(rows, key=lambda row: row[1].encode(), reverse=True)
    by_score = sorted(by_docno, key=lambda row: compared(row[2]), reverse=True)
    return sorted(by_score, key=lambda row: row[0].encode())


@settings(max_examples=200, deadline=None)
@given(stretches=st.lists(st.tuples(st.sampled_from(["1", "2", "10", "9", "é"]),
                                    st.lists(st.tuples(st.sampled_from(_TIED_DOCNOS), st.sampled_from(_SCORES)),
                                             min_size=1, max_size=7)),
                          min_size=1, max_size=6),
       in_score_order=st.booleans(), compat=st.sampled_from(["9", "10"]), block_rows=st.sampled_from([1, 512]))
def test_sorted_blocks_gives_trec_evals_order_and_each_row_its_own_score(stretches, in_score_order, compat,
                                                                         block_rows):
    """Topics in stretches (each in one or in several, in any order), scores listed in
    score order or not, float32 ties, -0.0: every row in the order Python's sorts give,
    each row keeping its own stored score (-0.0 stays -0.0), whether the moved rows are
    gathered one by one or their stretches joined (``block_rows`` 1: joined whenever
    fewer stretches than rows move)."""
    if in_score_order:
        stretches = [(topic, sorted(rows, key=lambda row: -row[1])) for topic, rows in stretches]
    rows = [(topic, docno, score) for topic, pairs in stretches for docno, score in pairs]
    table = pa.table({"topic": [r[0] for r in rows], "docno": [r[1] for r in rows],
                      "score": pa.array([r[2] for r in rows], pa.float64())})
    saved, ordering.BLOCK_ROWS = ordering.BLOCK_ROWS, block_rows
    try:
        ordered, starts, topics = ordering.sorted_blocks(table, compat=compat)
    finally:
        ordering.BLOCK_ROWS = saved
    got = list(zip(ordered["topic"].to_pylist(), ordered["docno"].to_pylist(), ordered["score"].to_pylist(),
                   strict=True))
    want = _trec_order_by_hand(rows, compat)
    assert [(t, d, s, np.signbit(s)) for t, d, s in got] == [(t, d, s, np.signbit(s)) for t, d, s in want]
    assert topics.to_pylist() == sorted({r[0] for r in rows}, key=str.encode)
    assert ordered["topic"].to_pylist() == [t for t, n in zip(topics.to_pylist(), np.diff(starts), strict=True)
                                            for _ in range(n)]


def test_tied_rows_take_their_own_scores_when_only_float32_ties_them():
    """'a' (1.0) then 'b' (1 + 2**-40): tied in 9.x, so 'b' goes first by docno and takes
    its own score with it; scores equal as stored (two 2.0s) leave the column as it was."""
    table = pa.table({"topic": ["1"] * 4, "docno": ["a", "b", "c", "d"], "score": [1.0, 1.0 + 2 ** -40, 0.5, 0.5]})
    ordered, _, _ = ordering.sorted_blocks(table, compat="9")
    assert ordered["docno"].to_pylist() == ["b", "a", "d", "c"]
    assert ordered["score"].to_pylist() == [1.0 + 2 ** -40, 1.0, 0.5, 0.5]


@settings(max_examples=150, deadline=None)
@given(stretches=st.lists(st.lists(st.sampled_from(_TIED_DOCNOS), min_size=1, max_size=9), min_size=1, max_size=6),
       group_rows=st.integers(1, 12))
def test_repeats_found_a_group_of_stretches_at_a_time_are_the_hashed_ones(stretches, group_rows):
    """Each topic in one stretch: the repeats found a few stretches at a time are those
    that hashing every row with its topic finds, whatever the group size."""
    codes = np.repeat(np.arange(len(stretches)), [len(s) for s in stretches])
    table = pa.table({"topic": [str(c) for c in codes], "docno": [d for s in stretches for d in s]})
    heads = ordering.stretch_heads(codes)
    assert heads.tolist() == np.r_[0, np.cumsum([len(s) for s in stretches])[:-1]].tolist()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ordering, "_REPEAT_ROWS", group_rows)
        rows, firsts = ordering.repeated_in_stretches(table["docno"], heads)
    want_rows, want_firsts = ordering.repeated_rows(table, codes)
    assert rows.tolist() == want_rows.tolist() and firsts.tolist() == want_firsts.tolist()


def test_repeats_in_stretches_never_merge_docnos_whose_hashes_collide(monkeypatch):
    """Every docno hashed alike (a collision everywhere): only the docno listed twice in
    one topic is a repeat ('b', row 3 of row 1); 'a' in both topics is not."""
    monkeypatch.setattr(ordering, "string_hash", lambda strings: np.zeros(len(strings), np.uint64))
    docno = pa.array(["a", "b", "c", "b", "a", "d"])
    rows, firsts = ordering.repeated_in_stretches(docno, np.array([0, 4]))
    assert rows.tolist() == [3] and firsts.tolist() == [1]


def test_stretch_heads_of_joined_runs_part_at_each_run():
    """Two runs of topics 0, 1: a topic in one stretch of each run; the same topic twice
    within a run is not."""
    assert ordering.stretch_heads(np.array([0, 0, 1, 0, 1]), sizes=np.array([3, 2])).tolist() == [0, 2, 3, 4]
    assert ordering.stretch_heads(np.array([0, 1, 0, 1]), sizes=np.array([4])) is None


@settings(max_examples=150, deadline=None)
@given(length=st.integers(0, 20), data=st.data())
def test_strings_of_one_length_compare_at_a_stride_as_one_by_one(length, data):
    """Strings of one length, end to end: compared without their lengths (words read at a
    stride), equal exactly when the strings are; strings that differ only in their last byte
    or beyond the first 8 bytes included."""
    text = st.text(alphabet="ab\x00", min_size=length, max_size=length)
    a = data.draw(st.lists(text, min_size=1, max_size=8))

    def one_byte_changed(s: str, at: int) -> str:  # the same string but for one byte (any of them)
        return s if not s else s[:at % len(s)] + ("b" if s[at % len(s)] != "b" else "a") + s[at % len(s) + 1:]

    b = data.draw(st.lists(st.one_of(st.sampled_from(a), text, st.builds(one_byte_changed, st.sampled_from(a),
                                                                          st.integers(0, 19))), min_size=1, max_size=8))
    rows_a = np.array(data.draw(st.lists(st.integers(0, len(a) - 1), max_size=12)), dtype=np.int64)
    rows_b = np.array(data.draw(st.lists(st.integers(0, len(b) - 1), min_size=rows_a.size, max_size=rows_a.size)),
                      dtype=np.int64)
    left, right = ordering.string_bytes(pa.array(a)), ordering.string_bytes(pa.array(b))
    got = ordering.strings_equal(left, rows_a, right, rows_b, length=length)
    assert got.tolist() == [a[i] == b[j] for i, j in zip(rows_a.tolist(), rows_b.tolist(), strict=True)]


def test_lookup_of_docnos_of_one_length_with_every_key_equal_finds_only_equal_pairs(monkeypatch):
    """Entries and lookups of one length (the strided comparison) under one key: a docno that
    differs in its last byte or past its first 8 bytes is no match; the table knows the
    length only when every entry has it."""
    monkeypatch.setattr(ordering, "_string_key", lambda strings: np.zeros(strings.starts.size, np.uint64))
    docno = ["doc-00000001", "doc-00000002", "doc-00000001", "xoc-00000001"]
    table = key_table(np.array([0, 0, 0, 1]), pa.array(docno))
    assert table.length == 12 and key_table(np.array([0, 0]), pa.array(["a", "bb"])).length is None
    probe = ["doc-00000002", "doc-00000003", "doc-00000001", "doc-00000001", "xoc-00000001", "doc-10000001"]
    got = find_keys(table, np.array([0, 0, 0, 1, 1, 0]), pa.array(probe))
    assert got.tolist() == [1, -1, 0, -1, 3, -1]
    assert find_keys(table, np.array([0, 0]), pa.array(["doc-00000002", "doc-0000002"])).tolist() == [1, -1]


@settings(max_examples=100, deadline=None)
@given(length=st.sampled_from([8, 9, 13]), data=st.data(), group_rows=st.integers(1, 12), parts=st.integers(1, 3))
def test_docnos_of_one_length_are_ordered_from_their_stored_bytes(length, data, group_rows, parts):
    """Docnos of one length of at least 8 bytes (their first 8 bytes read from the column's
    own buffers, in chunks): the stretches' order and repeats are pyarrow's sort and the
    hashed repeats, the docnos sharing long prefixes so that keys tie."""
    stems = [("ab" * 8)[:length - 2] + tail for tail in ("aa", "ab", "ba", "zz")]  # equal first 8 bytes
    stems += ["x" * length, "a" * length]
    stretches = data.draw(st.lists(st.tuples(st.sampled_from(["1", "2", "10", "9"]),
                                             st.lists(st.sampled_from(stems), min_size=1, max_size=9)),
                                   min_size=1, max_size=4, unique_by=lambda stretch: stretch[0]))
    rows = [(topic, docno) for topic, docnos in stretches for docno in docnos]
    cut = sorted({len(rows) * k // parts for k in range(parts + 1)})
    docno = pa.chunked_array([pa.array([d for _, d in rows[a:b]]) for a, b in zip(cut[:-1], cut[1:], strict=True)])
    table = pa.table({"topic": [t for t, _ in rows], "docno": docno})
    assert ordering._stored_prefix_key(docno) is not None
    _assert_qrels_order_and_repeats(table, rows, group_rows)


def test_stored_prefix_key_is_the_copied_bytes_prefix_or_none():
    """Read from a sliced, chunked column, the first 8 bytes are those of the padded copy;
    docnos shorter than 8 bytes or of two lengths fall back (None)."""
    column = pa.chunked_array([pa.array(["zzzzzzzzz", "abcdefghi", "abcdefgha"]).slice(1), pa.array(["012345678"])])
    stored = ordering._stored_prefix_key(column)
    assert stored.tolist() == ordering._prefix_key(column).tolist()
    assert stored.tolist() == [int.from_bytes(s[:8].encode(), "big") for s in ["abcdefghi", "abcdefgha", "012345678"]]
    assert ordering._stored_prefix_key(pa.array(["abcdefg", "abcdefh"])) is None
    assert ordering._stored_prefix_key(pa.chunked_array([pa.array(["abcdefgh"]), pa.array(["abcdefghi"])])) is None


def test_stretches_found_in_order_are_not_sorted_but_one_pair_out_of_order_is():
    """Topic stretches whose docnos ascend are left in place (no order); swap one neighbouring
    pair in one topic and the order puts that pair back, the rest staying in place."""
    docnos = [f"doc{i:05d}" for i in range(6)]
    topic = ["1"] * 3 + ["2"] * 3
    codes, dictionary = ordering.encode_topics(pa.array(topic))
    order, repeated, _ = ordering.topic_docno_order_and_repeats(pa.chunked_array([docnos]), codes, dictionary)
    assert order is None and repeated.size == 0
    docnos[3], docnos[4] = docnos[4], docnos[3]  # topic 2's first two docnos out of order
    order, repeated, _ = ordering.topic_docno_order_and_repeats(pa.chunked_array([docnos]), codes, dictionary)
    assert order.tolist() == [0, 1, 2, 4, 3, 5] and repeated.size == 0


@settings(max_examples=60, deadline=None)
@given(chunks=st.lists(st.lists(st.one_of(st.none(), st.integers(-2**31, 2**31 - 1)), max_size=20), max_size=4),
       cut=st.integers(0, 5))
def test_column_numpy_and_positions_in_agree_with_arrows_own_conversion(chunks, cut):
    """Numbers (sliced chunks: an offset into their buffers), their validity and booleans come
    out as pyarrow's to_pylist gives them; positions_in gives -1 for nulls and absent values."""
    column = pa.chunked_array([pa.array(chunk, pa.int32()) for chunk in chunks], type=pa.int32())
    column = column.slice(min(cut, len(column)))
    values = column.to_pylist()
    got = column_numpy(column)
    assert [v for v, want in zip(got.tolist(), values, strict=True) if want is not None] == \
        [v for v in values if v is not None]
    flags = pa.chunked_array([pa.array([v is not None and v % 2 == 0 for v in chunk], pa.bool_()) for chunk in chunks],
                             type=pa.bool_()).slice(min(cut, len(column)))
    assert column_numpy(flags).tolist() == flags.to_pylist()
    names = pa.chunked_array([pa.array([None if v is None else f"n{v % 3}" for v in chunk], pa.string())
                              for chunk in chunks], type=pa.string()).slice(min(cut, len(column)))
    wanted = [-1 if v is None else {"n0": 1, "n2": 0}.get(v, -1) for v in names.to_pylist()]
    assert positions_in(names, pa.array(["n2", "n0"])).tolist() == wanted


@settings(max_examples=80, deadline=None)
@given(stretches=st.lists(st.tuples(st.sampled_from(["1", "2", "10", "401", "b"]), st.integers(1, 6)), max_size=12),
       cuts=st.lists(st.integers(0, 80), max_size=6), scattered=st.booleans())
def test_topics_encoded_chunk_by_chunk_are_those_of_one_array(stretches, cuts, scattered):
    """encode_topics reads a column of several chunks (a file parsed a block at a time) chunk
    by chunk, joining it only to hash every row: its codes and topics are those of the same
    values in one array, wherever the chunks are cut, in stretches or scattered."""
    values = [name for name, count in stretches for _ in range(count)]
    if scattered:  # no long stretches: every row hashed
        values = values[::2] + values[1::2]
    bounds = sorted({0, len(values), *(cut for cut in cuts if cut < len(values))})
    chunked = pa.chunked_array([pa.array(values[a:b], pa.string()) for a, b in zip(bounds, bounds[1:], strict=False)],
                               type=pa.string())
    codes, topics = ordering.encode_topics(chunked)
    want_codes, want_topics = ordering.encode_topics(pa.array(values, pa.string()))
    assert codes.tolist() == want_codes.tolist() and topics.to_pylist() == want_topics.to_pylist()
    assert [topics[c].as_py() for c in codes.tolist()] == values  # each row's code names its own topic
    rows = np.flatnonzero(np.arange(len(values)) % 3 == 0)
    assert ordering.ascending_rows(chunked, rows).to_pylist() == [values[i] for i in rows]
