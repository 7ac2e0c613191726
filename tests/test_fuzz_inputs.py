"""Malformed inputs: irnb refuses them with its documented error, or reads them as trec_eval
10.0 does. Hypothesis generates small run and qrels files with the faults people's
files have — column counts, separators, line ends, encodings, NUL bytes, numbers in every
spelling Python and C accept, huge and tiny values, duplicate and conflicting entries — and
each is given to irnb (``Experiment`` + ``evaluate(complete=True)``) and to the real trec_eval
10.0 binary (``-c -q``, built by the ``trec_eval_bin`` fixture). For every file, either:

* irnb raises ``ValueError`` whose message starts with the file's path, is at most a few
  hundred characters long, and (for faults in a line) names the line; or
* irnb's values equal trec_eval's, topic by topic, on the file as trec_eval reads irnb's
  documented rules: compressed files decompressed, a UTF-8 byte-order mark dropped, and blank and comment lines dropped
  from qrels (trec_eval 10.0 reads a second consecutive qrels comment as a judgment and
  refuses blank qrels lines); a qrels topic whose grades are all negative (nothing judged,
  on which trec_eval 10.0 stops with "Can't calculate measure") is a topic with nothing
  relevant. trec_eval must then succeed on that file.

Seeded (``derandomize``) and bounded: CI sees the same 800 file pairs every time (about 10 s).
"""

from __future__ import annotations

import re
import subprocess
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irnb import Experiment, evaluate
from irnb.sources import decompress

# trec_eval name → irnb name; -m flags below ask trec_eval for exactly these
MEASURES = {"num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet", "map": "AP", "P_5": "P@5",
            "recip_rank": "RR", "bpref": "Bpref", "ndcg_cut_10": "nDCG@10", "Rprec": "Rprec"}
TREC_EVAL_FLAGS = ["-c", "-q", "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret", "-m", "map", "-m", "P.5",
                   "-m", "recip_rank", "-m", "bpref", "-m", "ndcg_cut.10", "-m", "Rprec"]
MAX_MESSAGE = 400

TOPICS = [b"1", b"2", b"01", b"10"]
DOCNOS = [b"a", b"b", b"B", b"c", b"d-1", b"a#1", "é".encode(), b"zz9"]
# distinct values, all far apart at float32 precision (trec_eval 10 compares doubles, irnb
# float32 like 9.x: values closer than that are the version switch's business, not this test's)
SCORE_VALUES = [0.0, 1.0, 1.5, -2.0, 3.25, 1000.0, 1e-3, 1e30, -1e30, 1e-30]
GRADES = [b"0", b"1", b"2", b"-1", b"+1", b"01", b"3"]


def _spell(value: float, style: int) -> bytes:
    """One of the spellings Python's float() and C's atof both read as ``value``."""
    text = [repr(value), f"{value:+}", f"{value:e}", f"{value:E}", f"{value:.10g}", f"{value:f}",
            f"{value:.6e}".replace("e", "E")][style % 7]
    return text.encode()


# spellings only one of Python and C reads, or neither; non-finite or out-of-range values
ODD_SCORES = [b"0x1p3", b"0X10", b"1_0", b"inf", b"-inf", b"nan", b"NaN", b"infinity", b"1e400", b"-1e400",
              b"1e-400", b"1.5abc", b"1.5f", b"\xd9\xa1", b"--1", b"1e", b".", b"+", b"1,5", b"0x", b"+.5", b"5.",
              b"00012", b"-0", b"1e38", b"3.4028235e38"]
ODD_GRADES = [b"1.0", b"0x1", b"1e0", b"200", b"-127", b"-126", b"127", b"128", b"99999999999999999999", b"\xd9\xa1",
              b"one", b"-0", b"+0", b"0001", b" "]
SEPARATORS = [b" ", b"\t", b"  ", b" \t", b"\x0b", b"\x0c"]


def _rarely(n: int):
    """True about once in ``n + 1`` draws (False is the simplest value, the one Hypothesis
    favours and shrinks to)."""
    return st.sampled_from([False] * n + [True])


@st.composite
def _fields(draw, kind: str, topic: bytes, docno: bytes) -> list[bytes]:
    if kind == "run":
        if draw(_rarely(5)):
            score = draw(st.sampled_from(ODD_SCORES))
        else:
            score = _spell(draw(st.sampled_from(SCORE_VALUES)), draw(st.integers(0, 6)))
        fields = [topic, draw(st.sampled_from([b"Q0", b"0", b"x"])), docno, draw(st.sampled_from([b"1", b"7", b"-"])),
                  score, draw(st.sampled_from([b"tag", b"t#2"]))]
    else:
        grade = draw(st.sampled_from(ODD_GRADES)) if draw(_rarely(8)) else draw(st.sampled_from(GRADES))
        fields = [topic, draw(st.sampled_from([b"0", b"Q0", b"0.5"])), docno, grade]
    fault = draw(st.sampled_from([None] * 40 + ["short", "long", "latin-1"]))
    if fault == "short":  # a column short or long
        fields = fields[:-1]
    elif fault == "long":
        fields = fields + [draw(st.sampled_from([b"extra", b"1"]))]
    elif fault == "latin-1":  # a byte that is not UTF-8
        fields[2] = fields[2] + b"\xe9"
    return fields


@st.composite
def _file(draw, kind: str) -> bytes:
    pairs = draw(st.lists(st.tuples(st.sampled_from(TOPICS), st.sampled_from(DOCNOS)), min_size=1, max_size=8,
                          unique=True))
    lines = [draw(_fields(kind, topic, docno)) for topic, docno in pairs]
    if draw(_rarely(10)):  # a duplicate: the same (topic, docno), same or other values
        topic, docno = draw(st.sampled_from(pairs))
        lines.insert(draw(st.integers(0, len(lines))), draw(_fields(kind, topic, docno)))
    out: list[bytes] = []
    for fields in lines:
        sep = draw(st.sampled_from(SEPARATORS)) if draw(_rarely(3)) else b" "
        line = sep.join(fields)
        if draw(_rarely(8)):
            line = draw(st.sampled_from([b" ", b"\t"])) + line + draw(st.sampled_from([b"", b" ", b"\t"]))
        out.append(line)
        extra = draw(st.sampled_from([None] * 14 + ["blank", "comment"]))
        if extra == "blank":
            out.append(b"")
        elif extra == "comment":
            out.append(draw(st.sampled_from([b"# a comment", b"#", b"  # indented", b"# 1 0 a 1"])))
    end = draw(st.sampled_from([b"\n"] * 30 + [b"\r\n"] * 6 + [b"\r"]))
    data = end.join(out) + draw(st.sampled_from([end, b""]))
    fault = draw(st.sampled_from([None] * 60 + ["bom", "utf-16", "nul", "empty"]))
    if fault == "bom":
        data = b"\xef\xbb\xbf" + data  # UTF-8 byte-order mark
    elif fault == "utf-16":
        data = data.decode("utf-8", errors="replace").encode("utf-16")
    elif fault == "nul" and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + b"\x00" + data[at:]
    elif fault == "empty":
        data = b""
    return data


def _as_trec_eval_reads(data: bytes, kind: str) -> bytes:
    """The file with irnb's documented departures from trec_eval applied (see module doc)."""
    data = decompress(data)  # gzip, xz, bzip2: irnb reads them, trec_eval does not
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if kind == "qrels":
        keep = [line for line in data.split(b"\n") if line.split() and not line.split()[0].startswith(b"#")]
        top: dict[bytes, int] = {}
        for line in keep:
            fields = line.split()
            if len(fields) == 4 and re.fullmatch(rb"[+-]?[0-9]+", fields[3]):
                top[fields[0]] = max(top.get(fields[0], -999), int(fields[3]))
        # a topic whose grades are all negative has nothing judged: trec_eval 10.0 stops on it
        # ("Can't calculate measure"); irnb reads it as a topic with nothing relevant, which is
        # what trec_eval makes of it once one judged non-relevant document nobody retrieved is added
        keep += [topic + b" 0 irnb-nothing-judged 0" for topic, grade in top.items() if grade < 0]
        data = b"\n".join(keep) + (b"\n" if keep else b"")
    return data


def _trec_eval(binary: Path, qrels: Path, run: Path) -> dict | None:
    done = subprocess.run([str(binary), *TREC_EVAL_FLAGS, str(qrels), str(run)], capture_output=True, timeout=30)
    if done.returncode != 0:
        return None
    values = {}
    for line in done.stdout.decode("utf-8", errors="replace").splitlines():
        measure, topic, value = line.split()
        if measure in MEASURES:
            values[(measure, topic)] = float(value)
    return values


def _irnb(qrels: Path, run: Path) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate(Experiment([run], qrels), list(MEASURES.values()), complete=True)
    names = {v: k for k, v in MEASURES.items()}
    frame = ev.to_frame()
    return {(names[m], t): float(v) for m, t, v in zip(frame["measure"], frame["topic"], frame["value"], strict=True)}


def check_file_pair(binary: Path, folder: Path, run_data: bytes, qrels_data: bytes) -> str:
    """'refused' or 'equal' for one (run, qrels) pair; an AssertionError otherwise."""
    run, qrels = folder / "fuzz.run", folder / "fuzz.qrels"
    run.write_bytes(run_data)
    qrels.write_bytes(qrels_data)
    try:
        got = _irnb(qrels, run)
    except ValueError as err:
        message = str(err)
        assert message.startswith((str(run), str(qrels))), f"error does not name the file: {message[:300]}"
        assert len(message) <= MAX_MESSAGE, f"error of {len(message)} characters: {message[:300]}…"
        return "refused"
    run.write_bytes(_as_trec_eval_reads(run_data, "run"))
    qrels.write_bytes(_as_trec_eval_reads(qrels_data, "qrels"))
    expected = _trec_eval(binary, qrels, run)
    assert expected is not None, "irnb read a file that trec_eval 10.0 refuses"
    assert got.keys() == expected.keys(), f"topics differ: irnb {sorted(got)} trec_eval {sorted(expected)}"
    for key, value in expected.items():
        assert abs(got[key] - value) <= 5.01e-5, f"{key}: irnb {got[key]} trec_eval {value}"
    return "equal"


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=800, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(run_data=_file("run"), qrels_data=_file("qrels"))
def test_malformed_files_are_refused_or_read_as_trec_eval_reads_them(trec_eval_bin, fuzz_dir, run_data, qrels_data):
    check_file_pair(trec_eval_bin, fuzz_dir, run_data, qrels_data)


def test_the_fuzz_reaches_both_outcomes(trec_eval_bin, tmp_path):
    """The generator is not all refusals: a clean pair is read, a NUL byte is refused."""
    run = b"1 Q0 a 1 1.5 tag\n1 Q0 b 2 0.5 tag\n2 Q0 c 1 1 tag\n"
    qrels = b"1 0 a 1\n1 0 c 0\n2 0 c 2\n"
    assert check_file_pair(trec_eval_bin, tmp_path, run, qrels) == "equal"
    assert check_file_pair(trec_eval_bin, tmp_path, run.replace(b"b", b"\x00"), qrels) == "refused"
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'fuzz.run'}:2: expected text, got a NUL byte")):
        _irnb(tmp_path / "fuzz.qrels", tmp_path / "fuzz.run")
