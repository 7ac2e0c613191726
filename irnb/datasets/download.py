"""Real data one call away: TREC-COVID round 1 from its public repositories.

:func:`trec_covid` gives the Experiment that :func:`irnb.datasets.real.trec_covid_round1`
reads from the project's shared folder, where there is none (Binder, Colab, an installed
wheel): the round-1 runs, the official round-1 qrels and the leaderboard (teams, the pooled
runs, run types) from castorini/TREC-COVID, and, as the deep truth, the complete TREC-COVID
qrels from castorini/anserini, each at a pinned commit (:mod:`irnb.datasets.trec_covid_files`).

Every file is checked against the sha256 written there, then kept in a cache folder
(``cache=``, else ``$IRNB_CACHE``, else ``$XDG_CACHE_HOME/irnb`` or ``~/.cache/irnb``), so that
the next call reads the cache without a network. ``mirror=`` names another host for the raw
files, laid out as GitHub's raw-file host: ``MIRROR/OWNER/REPO/COMMIT/PATH``.

The cache holds the published files as they are, in the layout the shared folder's readers
take: ``trec-covid-round1/leaderboard-round1.csv``, ``qrels-rnd1.txt``,
``qrels.covid-complete.txt`` and ``runs-round1/<run>``.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..params import DOWNLOAD_PROGRESS, TREC_COVID_ROUND, WITH_TRUTH
from .trec_covid_files import ROUND1

__all__ = ["trec_covid", "fetch_trec_covid", "cache_folder", "PublishedFile", "published_files", "CACHE_VARIABLE",
           "GITHUB_RAW", "DownloadError"]

#: Environment variable: the cache folder when ``cache=`` is not given.
CACHE_VARIABLE = "IRNB_CACHE"
#: The raw-file host of GitHub: ``GITHUB_RAW/OWNER/REPO/COMMIT/PATH`` is a file as committed.
GITHUB_RAW = "https://raw.githubusercontent.com"
#: The cache's subfolder for round 1 (the shared folder's name).
FOLDER_NAME = "trec-covid-round1"
_STORED = {"leaderboard": "leaderboard-round1.csv", "qrels": "qrels-rnd1.txt", "truth": "qrels.covid-complete.txt"}
_WORKERS = 8  # files fetched at once: the runs are 143 files of about a megabyte
_TIMEOUT = 60  # seconds without an answer before a request fails


class DownloadError(OSError):
    """Files that could neither be read from the cache nor downloaded (an OSError: the
    network's or the mirror's fault, not the caller's)."""


@dataclass(frozen=True)
class PublishedFile:
    """One file as published: its role (``leaderboard``, ``qrels``, ``truth``, ``run``), where
    (repository ``owner/name``, commit, path), its size and sha256, and its name in the cache."""

    role: str
    repository: str
    commit: str
    path: str
    size: int
    sha256: str

    @property
    def stored(self) -> str:
        """Its path inside the cache's round folder."""
        return f"runs-round1/{self.path.rsplit('/', 1)[-1]}" if self.role == "run" else _STORED[self.role]

    def url(self, mirror: str = GITHUB_RAW) -> str:
        return f"{mirror.rstrip('/')}/{self.repository}/{self.commit}/{self.path}"


def published_files(*, with_truth: bool = True) -> list[PublishedFile]:
    """The files of round 1, from the embedded manifest (the truth's only with ``with_truth``).

    >>> files = published_files()
    >>> sorted({f.role for f in files}), sum(f.role == "run" for f in files)
    (['leaderboard', 'qrels', 'run', 'truth'], 143)
    """
    with_truth = WITH_TRUTH.validate(with_truth, "published_files")
    files = []
    for line in ROUND1.splitlines():
        role, repository, commit, path, size, sha256 = line.split("\t")
        if role != "truth" or with_truth:
            files.append(PublishedFile(role, repository, commit, path, int(size), sha256))
    return files


def cache_folder(cache: str | os.PathLike | None = None) -> Path:
    """The cache folder: ``cache``, else ``$IRNB_CACHE``, else ``$XDG_CACHE_HOME/irnb`` or
    ``~/.cache/irnb``.

    >>> str(cache_folder("/tmp/mine"))
    '/tmp/mine'
    """
    if cache is not None:
        return Path(cache).expanduser()
    setting = os.environ.get(CACHE_VARIABLE, "").strip()
    if setting:
        return Path(setting).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base).expanduser() if base else Path.home() / ".cache") / "irnb"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check(path: Path, file: PublishedFile, origin: str) -> None:
    """A ValueError naming the file when its sha256 is not the manifest's."""
    got = _sha256(path)
    if got != file.sha256:
        raise ValueError(f"{origin}: sha256 {got} is not the published file's {file.sha256} "
                         f"({file.repository}@{file.commit[:8]}:{file.path}); the file is corrupt or not TREC-COVID's")


def _download(file: PublishedFile, folder: Path, mirror: str) -> None:
    """Fetch one file into the cache: written beside its place, checked, then moved in."""
    target = folder / file.stored
    partial = folder / f".partial-{target.name}"  # hidden: no reader takes it for a run
    url = file.url(mirror)
    try:
        with urllib.request.urlopen(url, timeout=_TIMEOUT) as answer, open(partial, "wb") as out:
            for block in iter(lambda: answer.read(1 << 20), b""):
                out.write(block)
        _check(partial, file, url)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(partial, target)


def _mirror(mirror: str | None) -> str:
    if mirror is None:
        return GITHUB_RAW
    scheme = urllib.parse.urlsplit(str(mirror)).scheme
    if scheme not in ("http", "https", "file"):
        raise ValueError(f"mirror must be an http, https or file URL standing for the raw-file host "
                         f"(MIRROR/OWNER/REPO/COMMIT/PATH), got {mirror!r}")
    return str(mirror)


def fetch_trec_covid(*, round: int = TREC_COVID_ROUND.default, with_truth: bool = True,
                     cache: str | os.PathLike | None = None,
                     mirror: str | None = None, progress: bool = False) -> Path:
    """The cache folder holding TREC-COVID round ``round``, every file checked against its sha256;
    files not yet there are downloaded from ``mirror`` (default GitHub's raw-file host).

    Raises :class:`DownloadError` (an OSError) in one line naming the cache folder and the
    ``mirror=`` option when a file is neither cached nor downloadable, and a ValueError naming
    the file when a cached or downloaded file does not hash to the manifest's sha256.
    ``progress`` shows a bar while files download.
    """
    TREC_COVID_ROUND.validate(round, "trec_covid")
    with_truth = WITH_TRUTH.validate(with_truth, "trec_covid")
    progress = DOWNLOAD_PROGRESS.validate(progress, "trec_covid")
    host = _mirror(mirror)
    folder = cache_folder(cache) / FOLDER_NAME
    files = published_files(with_truth=with_truth)
    for file in files:  # what is cached must still be the published file
        if (folder / file.stored).is_file():
            _check(folder / file.stored, file, str(folder / file.stored))
    missing = [f for f in files if not (folder / f.stored).is_file()]
    if not missing:
        return folder
    try:
        (folder / "runs-round1").mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DownloadError(f"cannot create the cache folder {folder} ({err.strerror or err}); pass cache=FOLDER "
                            f"or set {CACHE_VARIABLE} to a folder you can write") from None
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=sum(f.size for f in missing), unit="B", unit_scale=True, file=sys.stderr,
                   desc=f"TREC-COVID round {round}")
    failures: list[tuple[PublishedFile, BaseException]] = []

    def one(file: PublishedFile) -> None:
        try:
            _download(file, folder, host)
        except (OSError, http.client.HTTPException, ValueError) as err:  # URLError, HTTPError, timeouts: OSErrors
            failures.append((file, err))
        if bar is not None:
            bar.update(file.size)

    try:
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            list(pool.map(one, missing))
    finally:
        if bar is not None:
            bar.close()
    if failures:
        file, err = failures[0]
        if isinstance(err, ValueError):  # a file that is not the published one
            raise err
        reason = getattr(err, "reason", None) or getattr(err, "strerror", None) or err
        raise DownloadError(
            f"TREC-COVID round {round}: {len(failures)} of {len(files)} files are neither in the cache {folder} nor "
            f"downloadable from {host} (first: {file.url(host)}: {reason}); connect to the network and call again "
            f"(files already fetched are kept), pass mirror=URL for another raw-file host "
            f"(MIRROR/OWNER/REPO/COMMIT/PATH), or cache=FOLDER (or {CACHE_VARIABLE}) where the files are")
    return folder


def trec_covid(*, round: int = TREC_COVID_ROUND.default, with_truth: bool = True,
               cache: str | os.PathLike | None = None,
               mirror: str | None = None, progress: bool = False):
    """TREC-COVID round 1 as an :class:`irnb.Experiment`, downloaded once and read from the cache
    after (see :func:`fetch_trec_covid` for ``cache``, ``mirror`` and the errors).

    The Experiment is :func:`irnb.datasets.real.trec_covid_round1`'s: 143 runs whose groups are
    the leaderboard's teams and whose contributors are the runs the leaderboard marks as pooled,
    the official round-1 qrels, and with ``with_truth`` the deep truth (the complete TREC-COVID
    qrels for topics 1–30) as ``experiment.truth``. The leaderboard's manual runs:
    ``trec_covid_manual_runs(fetch_trec_covid())``.
    """
    from .real import trec_covid_round1

    TREC_COVID_ROUND.validate(round, "trec_covid")
    with_truth = WITH_TRUTH.validate(with_truth, "trec_covid")
    progress = DOWNLOAD_PROGRESS.validate(progress, "trec_covid")
    folder = fetch_trec_covid(round=round, with_truth=with_truth, cache=cache, mirror=mirror, progress=progress)
    return trec_covid_round1(folder, with_truth=with_truth)
