"""irnb.datasets.trec_covid: download from a raw-file host, check every sha256, cache, read offline.

A loopback HTTP server stands for GitHub's raw-file host: it serves ../shared's TREC-COVID files
in the ``OWNER/REPO/COMMIT/PATH`` layout (the runs taken out of their archive, the complete qrels
un-gzipped, i.e. the files as published). Skipped, with the reason, where ../shared is absent.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import os
import shutil
import socket
import tarfile
import threading
from pathlib import Path

import pandas as pd
import pytest

from conftest import shared_path
from irnb.datasets.download import (CACHE_VARIABLE, DownloadError, cache_folder, fetch_trec_covid, published_files,
                                    trec_covid)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    corrupt: frozenset[str] = frozenset()  # URL paths served with one byte changed

    def log_message(self, *args):  # no line per request on the test's stderr
        pass

    def do_GET(self):
        if self.path not in self.corrupt:
            return super().do_GET()
        data = bytearray(Path(self.translate_path(self.path)).read_bytes())
        data[0] ^= 0xFF
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(bytes(data))


@contextlib.contextmanager
def serving(root: Path, *, corrupt=()):
    """A raw-file host on 127.0.0.1 serving ``root``; its URL while the block runs, stopped after."""
    handler = type("Handler", (_Quiet,), {"corrupt": frozenset(corrupt)})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _closed_port_url() -> str:
    """A loopback URL where nothing listens (a host without network, as far as the call can tell)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def shared_covid() -> Path:
    return shared_path("data", "trec-covid-round1")


@pytest.fixture(scope="module")
def raw_host(shared_covid, tmp_path_factory) -> Path:
    """../shared's files laid out as the raw-file host has them: OWNER/REPO/COMMIT/PATH."""
    root = tmp_path_factory.mktemp("raw")
    with tarfile.open(shared_covid / "runs-round1.tar.xz") as tar:
        runs = {m.name.removeprefix("./"): tar.extractfile(m).read() for m in tar if m.isfile()}
    published = {"leaderboard": (shared_covid / "leaderboard-round1.csv").read_bytes(),
                 "qrels": (shared_covid / "qrels-rnd1.txt").read_bytes(),
                 "truth": gzip.decompress((shared_covid / "qrels.covid-complete.txt.gz").read_bytes())}
    for file in published_files():
        target = root / file.repository / file.commit / file.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(runs[file.path.rsplit("/", 1)[-1]] if file.role == "run" else published[file.role])
    return root


@pytest.fixture(scope="module")
def downloaded(raw_host, tmp_path_factory):
    """One download into a fresh cache through the loopback host: (cache folder, Experiment)."""
    cache = tmp_path_factory.mktemp("cache")
    with serving(raw_host) as url:
        experiment = trec_covid(cache=cache, mirror=url, with_truth=True)
    return cache, experiment


def _same_judgments(a, b) -> None:
    """Two Experiments' truth laid over their rankings: the same judgments at the same places."""
    assert a.qrel_docno.equals(b.qrel_docno)
    for name in ("doc", "qrel_topic", "qrel_grade", "topic_start"):
        assert (getattr(a, name) == getattr(b, name)).all(), name


def _linked_copy(cache: Path, where: Path) -> Path:
    """A copy of a cache whose files are hard links (cheap; a test that changes a file unlinks it first)."""
    shutil.copytree(cache, where, copy_function=os.link)
    return where


def test_download_checks_caches_and_gives_the_shared_loaders_experiment(downloaded, shared_covid):
    from irnb.datasets.real import trec_covid_manual_runs, trec_covid_round1

    cache, experiment = downloaded
    folder = cache / "trec-covid-round1"
    stored = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert stored == sorted(f.stored for f in published_files())  # every file, no partial left behind
    reference = trec_covid_round1(shared_covid, with_truth=True)
    assert experiment.run_names == reference.run_names and len(experiment.run_names) == 143
    assert experiment.groups == reference.groups
    assert list(experiment.contributors) == list(reference.contributors)
    pd.testing.assert_frame_equal(experiment.qrels.to_frame(), reference.qrels.to_frame())
    _same_judgments(experiment.truth, reference.truth)
    assert (experiment.length == reference.length).all()
    assert trec_covid_manual_runs(folder) == trec_covid_manual_runs(shared_covid) != []


def test_the_second_call_reads_the_cache_without_a_network(downloaded):
    cache, first = downloaded
    again = trec_covid(cache=cache, mirror=_closed_port_url(), with_truth=True)  # nothing listens there
    assert again.run_names == first.run_names
    _same_judgments(again.truth, first.truth)


def test_the_cache_folder_comes_from_the_environment(downloaded, monkeypatch):
    cache, first = downloaded
    monkeypatch.setenv(CACHE_VARIABLE, str(cache))
    assert cache_folder() == cache
    assert fetch_trec_covid(mirror=_closed_port_url()) == cache / "trec-covid-round1"
    monkeypatch.delenv(CACHE_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert cache_folder() == Path("/somewhere/irnb")


def test_a_corrupted_download_fails_its_check_naming_the_file(downloaded, raw_host, tmp_path):
    cache = _linked_copy(downloaded[0], tmp_path / "cache")
    run = next(f for f in published_files() if f.path.endswith("/BBGhelani1"))
    (cache / "trec-covid-round1" / run.stored).unlink()
    with serving(raw_host, corrupt={f"/{run.repository}/{run.commit}/{run.path}"}) as url:
        with pytest.raises(ValueError, match=rf"^{url}/castorini/TREC-COVID/{run.commit}/round1/runs/BBGhelani1: "
                                             rf"sha256 [0-9a-f]{{64}} is not the published file's {run.sha256} "):
            fetch_trec_covid(cache=cache, mirror=url)
    folder = cache / "trec-covid-round1"
    assert not (folder / run.stored).exists()
    assert [p.name for p in folder.rglob(".partial-*")] == []


def test_a_corrupted_cached_file_fails_its_check_naming_the_file(downloaded, tmp_path):
    cache = _linked_copy(downloaded[0], tmp_path / "cache")
    target = cache / "trec-covid-round1" / "qrels-rnd1.txt"
    data = target.read_bytes()
    target.unlink()  # a file of its own, not the shared cache's link
    target.write_bytes(data.replace(b" 2\n", b" 1\n", 1))
    with pytest.raises(ValueError, match=rf"^{target}: sha256 [0-9a-f]{{64}} is not the published file's"):
        fetch_trec_covid(cache=cache, mirror=_closed_port_url())


def test_no_network_and_no_cache_is_one_line_naming_the_cache_and_the_mirror_option(tmp_path):
    url = _closed_port_url()
    with pytest.raises(DownloadError) as failed:
        fetch_trec_covid(cache=tmp_path / "empty", mirror=url, with_truth=False)
    message, count = str(failed.value), len(published_files(with_truth=False))
    assert "\n" not in message
    assert message.startswith(f"TREC-COVID round 1: {count} of {count} files are neither in the cache "
                              f"{tmp_path / 'empty'}/trec-covid-round1 nor downloadable from {url} "
                              f"(first: {url}/castorini/")
    assert "pass mirror=URL for another raw-file host (MIRROR/OWNER/REPO/COMMIT/PATH)" in message
    assert f"or cache=FOLDER (or {CACHE_VARIABLE}) where the files are" in message
    assert [p for p in (tmp_path / "empty").rglob("*") if p.is_file()] == []


@pytest.mark.parametrize("options, message", [
    ({"mirror": "ftp://example.org"}, "mirror must be an http, https or file URL"),
    ({"round": 2}, "trec_covid: round must be an integer with 1 ≤ round ≤ 1 .the later rounds' judgments are round "
                   "1's deep truth., got 2"),
    ({"with_truth": "yes"}, "trec_covid: with_truth must be True or False, got 'yes'"),
])
def test_bad_options_are_refused_before_anything_is_fetched(tmp_path, options, message):
    with pytest.raises(ValueError, match=message):
        fetch_trec_covid(cache=tmp_path, **options)
    assert list(tmp_path.iterdir()) == []


def test_the_embedded_manifest_is_what_the_shared_files_hash_to(shared_covid):
    """irnb/datasets/trec_covid_files.py is tools/trec_covid_manifest.py's output on ../shared (each
    file's bytes checked there against the git blob its MANIFEST.tsv names)."""
    import runpy

    tool = runpy.run_path(str(Path(__file__).resolve().parents[2] / "tools" / "trec_covid_manifest.py"))
    assert tool["MODULE"].read_text(encoding="utf-8") == tool["text"](), \
        "run python tools/trec_covid_manifest.py: the embedded manifest differs from the shared files"
