"""No silent wrong answers: one named test per case. Line ends, over-long lines and
binary files, grades outside the stored range, I/O failures in the operating system's words,
qrels topics a run does not answer (API and CLI), and evaluate's chunks of runs."""

from __future__ import annotations

import os
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import irnb
from irnb import FileReadError, MissingTopicsWarning, evaluate, read_qrels, read_run, read_runs
from irnb._grades import MAX_GRADE, MIN_GRADE
from irnb._text import MAX_LINE_BYTES
from irnb import sources as irnb_sources
from irnb import metrics
from irnb.cli import main

RUN = b"1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n2 Q0 a 1 1 r\n"
QRELS = b"1 0 a 1\n1 0 c 1\n2 0 a 0\n3 0 x 1\n"


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# ------------------------------------------------------------------ line ends


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_lf_and_crlf_line_ends_read_the_same(tmp_path, end):
    run = read_run(_write(tmp_path / "r", RUN.replace(b"\n", end)))
    qrels = read_qrels(_write(tmp_path / "q", QRELS.replace(b"\n", end)))
    assert run.num_lines == 4 and run.table["docno"].to_pylist() == ["a", "b", "c", "a"]
    assert qrels.num_judgments == 4


def test_lone_carriage_return_line_ends_are_refused_not_read_as_one_line(tmp_path):
    mac = _write(tmp_path / "mac.run", (RUN * 2000).replace(b"\n", b"\r"))  # 8,000 lines, old Mac style
    with pytest.raises(ValueError, match=re.escape(f"{mac}:1: expected line ends \\n or \\r\\n, got a carriage "
                                                   "return (\\r) not followed by \\n (old Mac line ends?)")):
        read_run(mac)
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'mac.qrels'}:1: expected line ends")):
        read_qrels(_write(tmp_path / "mac.qrels", QRELS.replace(b"\n", b"\r")))


def test_a_carriage_return_inside_a_line_names_its_line(tmp_path):
    path = _write(tmp_path / "r", b"1 Q0 a 1 3 r\r\n1 Q0 b 2 2\rr\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}:2: expected line ends \\n or \\r\\n")):
        read_run(path)


# ------------------------------------------------------------------ long lines, binary files, echoed input


def test_a_line_longer_than_the_bound_is_an_error_naming_file_and_line(tmp_path):
    long = b"1 Q0 " + b"d" * (MAX_LINE_BYTES + 1) + b" 1 1 r\n"
    path = _write(tmp_path / "r", RUN + long + RUN)
    with pytest.raises(ValueError, match=re.escape(f"{path}:5: line of {MAX_LINE_BYTES + 12:,} bytes, "
                                                   f"expected at most {MAX_LINE_BYTES:,}")) as err:
        read_run(path)
    assert len(str(err.value)) < len(str(path)) + 250
    # a line of exactly the bound is fine
    fits = b"1 Q0 x 1 1 " + b"t" * (MAX_LINE_BYTES - 11) + b"\n"
    assert len(fits) - 1 == MAX_LINE_BYTES
    assert read_run(_write(tmp_path / "fits", fits)).num_lines == 1


def test_a_file_without_line_ends_is_not_read_as_one_giant_line(tmp_path):
    path = _write(tmp_path / "one.run", b" ".join([b"1 Q0 d%d %d 1 r" % (i, i) for i in range(5000)]))
    with pytest.raises(ValueError, match=re.escape(f"{path}:1: line of ")):
        read_run(path)


def test_an_elf_binary_given_as_qrels_gives_a_short_message(tmp_path):
    binary = Path(sys.executable).resolve().read_bytes()[:100_000]
    if not binary.startswith(b"\x7fELF"):
        pytest.skip("the Python executable is not an ELF binary on this platform")
    path = _write(tmp_path / "qrels.bin", binary)
    with pytest.raises(ValueError, match=re.escape(f"{path}:1: expected text, got a NUL byte (\\x00)")) as err:
        read_qrels(path)
    assert len(str(err.value)) < len(str(path)) + 100


def test_echoed_input_is_cut_to_a_readable_length(tmp_path):
    path = _write(tmp_path / "r", b"1 Q0 " + b"x" * 5000 + b" 1\n")  # 4 columns, one of 5,000 bytes
    with pytest.raises(ValueError, match=re.escape(f"{path}:1: expected 6 columns (qid Q0 docno rank score tag), "
                                                   "got 4: '1 Q0 xxx")) as err:
        read_run(path)
    assert "xxx'… (5,007 characters)" in str(err.value) and len(str(err.value)) < len(str(path)) + 200
    dup = _write(tmp_path / "d", b"1 Q0 " + b"y" * 3000 + b" 1 1 r\n" + b"1 Q0 " + b"y" * 3000 + b" 2 0 r\n")
    with pytest.raises(ValueError, match=r"docno 'y+'… \(3,000 characters\) repeated") as err:
        read_run(dup)
    assert len(str(err.value)) < len(str(dup)) + 350


# ------------------------------------------------------------------ grades


@pytest.mark.parametrize("grade,line", [(b"200", 2), (b"999", 2), (b"-127", 2), (b"128", 2),
                                        (b"-9999999999999999999999", 2)])
def test_grades_outside_the_stored_range_are_refused_where_they_are_read(tmp_path, grade, line):
    path = _write(tmp_path / "q", b"1 0 a 1\n1 0 b " + grade + b"\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}:{line}: expected a grade in [-126, 127] (irnb stores "
                                                   f"grades as 8-bit integers and keeps -127 and -128 as markers), "
                                                   f"got {int(grade)}")):
        read_qrels(path)


def test_grades_at_the_ends_of_the_range_are_read(tmp_path):
    qrels = read_qrels(_write(tmp_path / "q", b"1 0 a -126\n1 0 b 127\n"))
    assert qrels.table["grade"].to_pylist() == [-126, 127]
    assert (MIN_GRADE, MAX_GRADE) == (-126, 127)


def test_dataframe_grades_outside_the_range_name_the_row_label():
    frame = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "grade": [1, 300]}, index=["x", "y"])
    with pytest.raises(ValueError, match=re.escape("qrels DataFrame: row 'y': expected a grade in [-126, 127]")):
        read_qrels(frame)


# ------------------------------------------------------------------ I/O failures


def test_a_missing_file_is_a_file_read_error_in_the_os_words(tmp_path):
    with pytest.raises(FileReadError, match=re.escape(f"{tmp_path / 'nope'}: cannot read qrels file: "
                                                      "No such file or directory (ENOENT)")) as err:
        read_qrels(tmp_path / "nope")
    assert isinstance(err.value, ValueError)
    assert err.value.path == str(tmp_path / "nope") and err.value.reason == "No such file or directory (ENOENT)"
    with pytest.raises(FileReadError, match=re.escape(f"{tmp_path / 'nope'}: cannot read run file: No such file")):
        read_run(tmp_path / "nope")


def test_a_symlink_loop_is_reported_as_a_loop(tmp_path):
    loop = tmp_path / "loop"
    os.symlink(loop, loop)
    for reader in (read_run, read_runs, read_qrels):
        with pytest.raises(FileReadError, match=re.escape(f"{loop}: cannot read")) as err:
            reader(loop)
        assert "Too many levels of symbolic links (ELOOP)" in str(err.value)


def test_a_broken_link_in_a_runs_folder_is_an_error_not_skipped(tmp_path):
    (tmp_path / "runs").mkdir()
    _write(tmp_path / "runs" / "good", RUN)
    os.symlink(tmp_path / "gone", tmp_path / "runs" / "bad")
    with pytest.raises(FileReadError, match=re.escape(f"{tmp_path / 'runs' / 'bad'}: cannot read run file: "
                                                      "No such file or directory (ENOENT)")):
        read_runs(tmp_path / "runs")


def test_a_directory_is_refused_as_qrels_and_as_a_single_run(tmp_path):
    with pytest.raises(FileReadError, match=re.escape(f"{tmp_path}: cannot read qrels file: Is a directory (EISDIR)")):
        read_qrels(tmp_path)
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path}: holds several runs; use read_runs()")):
        read_run(tmp_path)


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_is_refused_without_reading_it(tmp_path):
    for reader, what in ((read_qrels, "qrels file"), (read_run, "run file"), (read_runs, "runs")):
        with pytest.raises(FileReadError, match=re.escape(f"/dev/null: cannot read {what}: not a regular file "
                                                          "(a character device)")):
            reader("/dev/null")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileReadError, match=re.escape(f"{fifo}: cannot read qrels file: not a regular file (a named "
                                                      "pipe)")):
        read_qrels(fifo)


def test_permission_denied_is_a_file_read_error(tmp_path, monkeypatch):
    path = _write(tmp_path / "secret.run", RUN)

    def denied(file, mode="r", *args, **kwargs):  # as open() fails on a file without read permission
        raise PermissionError(13, "Permission denied", str(file))

    monkeypatch.setattr(irnb_sources, "open", denied, raising=False)
    with pytest.raises(FileReadError, match=re.escape(f"{path}: cannot read run file: Permission denied (EACCES)")):
        read_run(path)
    with pytest.raises(FileReadError, match=re.escape(f"{path}: cannot read qrels file: Permission denied (EACCES)")):
        read_qrels(path)
    archive = _write(tmp_path / "runs.tar.gz", b"")
    with pytest.raises(FileReadError, match=re.escape(f"{archive}: cannot read run archive: Permission denied "
                                                      "(EACCES)")):
        read_runs(archive)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads files without permission")
def test_permission_denied_on_a_real_file(tmp_path):
    path = _write(tmp_path / "secret.qrels", QRELS)
    path.chmod(0)
    with pytest.raises(FileReadError, match=re.escape(f"{path}: cannot read qrels file: Permission denied (EACCES)")):
        read_qrels(path)


def test_the_cli_reports_io_failures_on_one_line(tmp_path, capsys):
    loop = tmp_path / "loop"
    os.symlink(loop, loop)
    assert main(["evaluate", str(loop), str(loop), "-m", "P@1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Too many levels of symbolic links" in err


# ------------------------------------------------------------------ topics the run does not answer


@pytest.fixture
def partial(tmp_path) -> tuple[Path, Path]:
    """A run answering topics 1 and 2 of qrels topics 1, 2 and 3 (topic '01' is not topic '1')."""
    return _write(tmp_path / "part.run", RUN + b"01 Q0 x 1 1 r\n"), _write(tmp_path / "q", QRELS)


def test_experiment_lists_the_qrels_topics_a_run_does_not_answer(partial):
    run, qrels = partial
    exp = irnb.Experiment([run], qrels)
    assert exp.missing_topics == {"part.run": ["3"]}
    assert exp.ignored_topics == {"part.run": ["01"]}


@pytest.mark.parametrize("complete", [False, True])
def test_evaluate_carries_and_warns_about_missing_topics_whatever_the_averaging(partial, complete):
    run, qrels = partial
    exp = irnb.Experiment([run], qrels)
    with pytest.warns(MissingTopicsWarning, match=re.escape("run 'part.run' answers 2 of the 3 qrels topics; the 1 "
                                                            "other ('3') is")) as caught:
        ev = evaluate(exp, ["P@2"], complete=complete)
    assert caught[0].filename == __file__  # points at the caller's line
    assert ev.missing_topics == {"part.run": ("3",)}
    # P@2: topic 1 ranks a (rel), b → 1/2; topic 2 ranks a (grade 0) → 0; topic 3 unanswered
    assert ev.aggregate("P@2")[0] == pytest.approx((0.5 + 0.0) / (3 if complete else 2))
    assert ("scored 0" if complete else "left out of its mean") in str(caught[0].message)


def test_no_warning_when_every_topic_is_answered(tmp_path):
    exp = irnb.Experiment([_write(tmp_path / "r", RUN)], _write(tmp_path / "q", QRELS.replace(b"3 0 x 1\n", b"")))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert evaluate(exp, ["P@2"]).missing_topics == {}


@pytest.mark.parametrize("flag,words", [([], "is left out of its mean (trec_eval 9.x; trec_eval 10.0 refuses such "
                                            "a run); use -c to score it 0"),
                                        (["-c"], "is scored 0 (-c)")])
def test_the_cli_says_how_many_and_which_topics_are_missing(partial, capsys, flag, words):
    run, qrels = partial
    assert main(["evaluate", str(qrels), str(run), "-m", "P@2", *flag]) == 0
    err = capsys.readouterr().err
    assert f"irnb: warning: run 'part.run' answers 2 of the 3 qrels topics; the 1 other ('3') {words}" in err
    assert "MissingTopicsWarning" not in err  # said once, in the CLI's words


def test_the_cli_compare_says_which_topics_a_run_misses(partial, tmp_path, capsys):
    run, qrels = partial
    other = _write(tmp_path / "full.run", RUN + b"3 Q0 x 1 1 r\n")
    assert main(["compare", str(qrels), str(run), str(other), "-m", "P@2"]) == 0
    err = capsys.readouterr().err
    assert err == ("irnb: warning: run 'part.run' answers 2 of the 3 qrels topics; the 1 other ('3') is left out "
                   "of its pairs' tests (a pair is tested on the topics both runs answer)\n")


def test_the_cli_names_the_first_few_missing_topics_only(tmp_path, capsys):
    qrels = _write(tmp_path / "q", b"".join(b"%d 0 a 1\n" % t for t in range(1, 31)))
    run = _write(tmp_path / "r", b"1 Q0 a 1 1 r\n2 Q0 a 1 1 r\n")
    assert main(["evaluate", str(qrels), str(run), "-m", "P@1"]) == 0
    err = capsys.readouterr().err
    assert "answers 2 of the 30 qrels topics; the 28 others ('10', '11', '12', '13', '14', … 23 more)" in err


# ------------------------------------------------------------------ evaluate in chunks of runs


def test_evaluate_in_chunks_of_runs_gives_the_values_of_one_call(monkeypatch):
    from irnb.datasets import default
    from irnb.pooling import depth_pool

    exp = default().experiment
    measures = ["P@10", "AP", "nDCG@10", "Bpref", "infAP", "RR", "Judged@10", "RBP(p=0.8)", "P@10(j)", "GMAP"]
    pool = depth_pool(exp, depth=10)
    cases = [dict(), dict(judged=pool.judged), dict(judged_only=True, max_depth=50), dict(truth=True),
             dict(relevance_level=2, complete=True)]
    whole = [evaluate(exp, measures, **case) for case in cases]
    S, T, D = exp.shape
    monkeypatch.setattr(metrics, "_CHUNK_CELLS", 3 * T * D)  # 3 runs per chunk, the last one shorter
    assert S % 3 != 0
    for case, expected in zip(cases, whole, strict=True):
        got = evaluate(exp, measures, **case)
        for m in expected.measures:
            # equal but for the order of floating-point sums (BLAS picks it by array shape)
            np.testing.assert_allclose(got[m], expected[m], rtol=1e-14, atol=1e-15, err_msg=f"{m.name} {case}")
        np.testing.assert_array_equal(got.evaluated, expected.evaluated)
    assert "_full_grade" not in exp.judgments.__dict__ or exp.judgments._full_grade is not None


def test_the_missing_topics_warning_points_at_the_caller_when_runs_are_evaluated_in_chunks(partial, monkeypatch,
                                                                                          tmp_path):
    """Many runs are evaluated a few at a time (one more frame between the caller and the
    warning): the warning still names the caller's file."""
    import irnb.metrics

    run, qrels = partial
    other = _write(tmp_path / "other.run", run.read_bytes())
    exp = irnb.Experiment([run, other], qrels)
    monkeypatch.setattr(irnb.metrics, "_CHUNK_CELLS", 0)  # one run per chunk (one topic of it at a time)
    with pytest.warns(MissingTopicsWarning) as caught:
        ev = evaluate(exp, ["P@2"])
    assert caught[0].filename == __file__
    assert ev.missing_topics == {"part.run": ("3",), "other.run": ("3",)}
