"""Where a run's bytes come from (irnb.sources): compressed files by their magic bytes, folders, tar
archives, hidden files skipped, and errors that name the file or the archive member."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import tarfile
from pathlib import Path

import pytest

from trec_text import RUN, ranking_of, write_file
from irnb import read_qrels, read_run, read_runs


def test_compressed_files(tmp_path):
    for name, data in [("r.gz", gzip.compress(RUN.encode())), ("r.bz2", bz2.compress(RUN.encode())),
                       ("r.xz", lzma.compress(RUN.encode()))]:
        assert ranking_of(read_run(write_file(tmp_path / name, data))) == \
            ranking_of(read_run(write_file(tmp_path / "p", RUN)))
    q = read_qrels(write_file(tmp_path / "q.gz", gzip.compress(b"1 0 a 1\n")))
    assert q.to_frame().values.tolist() == [["1", "a", 1]]


def _make_folder(root: Path) -> Path:
    (root / "g1").mkdir(parents=True)
    (root / "g2").mkdir()
    write_file(root / "g1" / "run.txt", "1 Q0 a 1 1 x\n")
    write_file(root / "g2" / "run.txt", "1 Q0 b 1 1 y\n")
    write_file(root / "solo", "1 Q0 c 1 1 z\n")
    write_file(root / ".hidden", "not a run\n")
    return root


def test_directory_of_runs(tmp_path):
    runs = read_runs(_make_folder(tmp_path / "runs"))
    # base names that repeat are qualified by their folder; hidden files are skipped
    assert list(runs) == ["g1/run.txt", "g2/run.txt", "solo"]
    assert runs["g2/run.txt"].table["docno"].to_pylist() == ["b"]


@pytest.mark.parametrize("suffix,mode", [(".tar", "w"), (".tar.xz", "w:xz"), (".tar.gz", "w:gz")])
def test_tar_archives(tmp_path, suffix, mode):
    folder = _make_folder(tmp_path / "runs")
    archive = tmp_path / f"runs{suffix}"
    with tarfile.open(archive, mode) as tar:
        for name in ["solo", "g2/run.txt", "g1/run.txt", ".hidden"]:  # not in name order
            tar.add(folder / name, arcname=f"./{name}")
    runs = read_runs(archive)
    assert list(runs) == ["g1/run.txt", "g2/run.txt", "solo"]
    assert runs["solo"].source == f"{archive}::solo"
    assert {n: r.tag for n, r in runs.items()} == {"g1/run.txt": "x", "g2/run.txt": "y", "solo": "z"}
    with pytest.raises(ValueError, match=re.escape(f"{archive}: holds several runs; use read_runs()")):
        read_run(archive)


def test_errors_inside_an_archive_name_the_member(tmp_path):
    archive = tmp_path / "runs.tar.gz"
    data = b"1 Q0 a 1 1 t\n1 Q0 b 2 oops t\n"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("team/bad.run")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(ValueError, match=re.escape(f"{archive}::team/bad.run:2: expected a number in column 5")):
        read_runs(archive)


def test_files_in_hidden_folders_are_not_runs(tmp_path):
    from irnb import read_runs

    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / "sub").mkdir()
    line = "1 Q0 a 1 1.0 r\n"
    (tmp_path / "sub" / "r1").write_text(line)
    (tmp_path / ".ipynb_checkpoints" / "r1-checkpoint").write_text(line)
    (tmp_path / ".hidden-run").write_text(line)
    assert sorted(read_runs(tmp_path)) == ["r1"]


def test_a_directory_given_as_qrels_is_named_as_such(tmp_path):
    from irnb import read_qrels

    with pytest.raises(ValueError, match="cannot read qrels file: Is a directory \\(EISDIR\\); expected a qrels file"):
        read_qrels(tmp_path)


_GOOD = "1 Q0 d1 1 2.5 t\n1 Q0 d2 2 2.5 t\n2 Q0 é 1 1 t\n"
_MAPPED_CASES = {
    "plain": _GOOD.encode(),
    "bom": b"\xef\xbb\xbf" + _GOOD.encode(),
    "crlf": _GOOD.replace("\n", "\r\n").encode(),
    "lone cr": b"1 Q0 d1 1 2 t\r1 Q0 d2 2 1 t\n",
    "nul": b"1 Q0 d1 1 2 t\n1 Q0 d\x002 2 1 t\n",
    "long line": b"1 Q0 d1 1 2 t\n1 Q0 " + b"x" * 20_000 + b" 2 1 t\n",
    "comments": b"# made by hand\n" + _GOOD.encode(),
    "tabs": _GOOD.replace(" ", "\t").encode(),
    "no last line end": _GOOD.rstrip("\n").encode(),
    "bad utf-8": b"1 Q0 d\xff 1 2 t\n",
    "repeated docno": b"1 Q0 d1 1 2 t\n1 Q0 d1 2 1 t\n",
    "utf-16": "1 Q0 d1 1 2 t\n".encode("utf-16"),
    "gzip": gzip.compress(_GOOD.encode()),
    "empty": b"",
}


def _outcome(read):
    try:
        got = read()
    except ValueError as err:
        return "error", str(err)
    runs = got.values() if isinstance(got, dict) else [got]
    return "read", [(run.table.to_pylist(), getattr(run, "comments", None)) for run in runs]


@pytest.mark.parametrize("case", sorted(_MAPPED_CASES))
def test_a_mapped_file_reads_as_the_same_file_read_into_memory(tmp_path, monkeypatch, case):
    """Every reader gives the same runs or qrels, or the same error, whether the file is
    mapped (read_text at any size) or read into bytes: BOM, CRLF, errors that name a line,
    comments (the exact parser), tabs, UTF-8 checks, compressed data."""
    import irnb.sources as sources

    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "r").write_bytes(_MAPPED_CASES[case])
    qrels = tmp_path / "q"
    qrels.write_bytes(_MAPPED_CASES[case].replace(b" Q0 ", b" 0 ").replace(b"\tQ0\t", b"\t0\t")
                      .replace(b" 2.5 t", b" 1").replace(b" 1 t", b" 1").replace(b" 2 t", b" 0"))
    readers = [lambda: read_run(folder / "r"), lambda: read_runs([folder / "r"]), lambda: read_runs(folder),
               lambda: read_qrels(qrels)]
    outcomes = {}
    for limit in (0, 1 << 40):
        monkeypatch.setattr(sources, "MAP_BYTES", limit)
        outcomes[limit] = [_outcome(read) for read in readers]
    assert outcomes[0] == outcomes[1 << 40]
    if case in ("plain", "bom", "crlf", "tabs", "no last line end", "gzip"):
        assert outcomes[0][0][0] == "read" and len(outcomes[0][0][1][0][0]) == 3


def test_read_text_maps_plain_files_only(tmp_path, monkeypatch):
    """A plain file at the size limit is mapped; a smaller one, a compressed one and an
    empty one are bytes."""
    import mmap

    import irnb.sources as sources

    monkeypatch.setattr(sources, "MAP_BYTES", 8)
    for name, data, mapped in (("big", b"1 Q0 d 1 2 t\n", True), ("small", b"1 Q0 d", False),
                               ("gz", gzip.compress(b"1 Q0 d 1 2 t\n"), False)):
        (tmp_path / name).write_bytes(data)
        text = sources.read_text(tmp_path / name)
        assert isinstance(text, mmap.mmap) == mapped and bytes(text) == (data if name != "gz" else b"1 Q0 d 1 2 t\n")
    monkeypatch.setattr(sources, "MAP_BYTES", 0)
    (tmp_path / "empty").write_bytes(b"")
    assert sources.read_text(tmp_path / "empty") == b""
