"""The drop-in's reader (irnb.trec_eval.reading): trec_eval's qrels and results read with
irnb.io's rules, each refusal naming the file and line."""

from __future__ import annotations

import pytest

import reference_files
from irnb.trec_eval import main
from irnb.trec_eval.reading import RepeatedDocno, read_qrels, read_run

ref = reference_files.ref  # the fixture of trec_eval's own test files


def test_qrels_and_run_read_by_hand():
    assert read_qrels(b"1 0 a 1\n1 0 b 0\n2 0 c 2\n", "q") == {b"1": {b"a": 1, b"b": 0}, b"2": {b"c": 2}}
    # the run id is the last line's 6th column
    assert read_run(b"1 Q0 a 1 3.0 t\n1 Q0 x 2 2.5 u\n", "r") == ({b"1": {b"a": 3.0, b"x": 2.5}}, b"u")


def test_a_repeated_docno_is_refused_naming_both_lines():
    with pytest.raises(RepeatedDocno, match=r"^r.txt:3: docno 'a' repeated for topic '1' \(first at line 1\)"):
        read_run(b"1 Q0 a 1 3.0 t\n1 Q0 b 2 2.0 t\n1 Q0 a 3 1.0 t\n", "r.txt")
    assert read_run(b"1 Q0 a 1 3.0 t\n2 Q0 a 1 3.0 t\n", "r.txt")[0] == {b"1": {b"a": 3.0}, b"2": {b"a": 3.0}}


@pytest.mark.shared
def test_input_rules_as_irnb_io(ref, tmp_path, capsys):
    """The lean reader applies irnb.io's rules: CRLF read, a BOM dropped, a lone CR, a NUL
    byte, a non-number score, a short line or a non-integer grade refused naming the line."""
    qrels = ref / "qrels.test"
    run = (ref / "results.test").read_bytes()
    (tmp_path / "crlf.txt").write_bytes(b"\xef\xbb\xbf" + run.replace(b"\n", b"\r\n"))
    assert main([str(qrels), str(tmp_path / "crlf.txt")]) == 0
    plain = capsys.readouterr().out
    assert main([str(qrels), str(ref / "results.test")]) == 0 and capsys.readouterr().out == plain
    for name, data, message in [
        ("cr.txt", b"301 Q0 a 1 1.0 t\r301 Q0 b 2 0.5 t\n", "cr.txt:1: expected line ends"),
        ("nul.txt", b"301 Q0 a 1 1.0 t\n301 Q0 \0b 2 0.5 t\n", "nul.txt:2: expected text, got a NUL byte"),
        ("score.txt", b"301 Q0 a 1 1.0 t\n301 Q0 b 2 x t\n", "score.txt:2: expected a number in column 5"),
        ("short.txt", b"301 Q0 a 1 1.0\n", "short.txt:1: expected 6 columns (qid Q0 docno rank score tag), got 5"),
    ]:
        (tmp_path / name).write_bytes(data)
        assert main([str(qrels), str(tmp_path / name)]) == 2
        assert message in capsys.readouterr().err
    (tmp_path / "q.txt").write_bytes(b"301 0 a 1\n301 0 b 1.0\n")
    assert main([str(tmp_path / "q.txt"), str(ref / "results.test")]) == 2
    assert "q.txt:2: expected an integer grade in column 4, got '1.0'" in capsys.readouterr().err


def test_compressed_inputs_are_read_by_their_magic_bytes(ref, tmp_path, capsys):
    """The drop-in reads files as irnb.io does (irnb.sources): gzip, xz and bzip2 by their
    magic bytes whatever the name, a plain file named .gz as plain text, and a cut stream
    is an error naming the file and the format."""
    import bz2
    import gzip
    import lzma

    qrels, run = ref / "qrels.test", (ref / "results.test").read_bytes()
    assert main([str(qrels), str(ref / "results.test")]) == 0
    plain = capsys.readouterr().out
    for name, data in [("run.txt", gzip.compress(run)), ("run.bin", lzma.compress(run)), ("run", bz2.compress(run)),
                       ("plain.gz", run)]:
        (tmp_path / name).write_bytes(data)
        assert main([str(qrels), str(tmp_path / name)]) == 0
        assert capsys.readouterr().out == plain, name
    (tmp_path / "cut.txt").write_bytes(gzip.compress(run)[:40])
    assert main([str(qrels), str(tmp_path / "cut.txt")]) == 2
    assert f"{tmp_path / 'cut.txt'}: corrupt or truncated gzip data" in capsys.readouterr().err
