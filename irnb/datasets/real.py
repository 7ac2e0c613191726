"""Loaders for the real collections the project tests and calibrates against.

They read the files as published (see the project's ``shared/data/SOURCES.md``) from a
folder the caller names; they download nothing (:func:`irnb.datasets.trec_covid` does, into a
cache folder that these readers take) and nothing is bundled.

* TREC-COVID round 1: 143 runs, 30 topics, official round-1 qrels; groups are teams and
  contributors the leaderboard's "contributed judgments" column (one pooled run per team,
  pooled to depth 7). Its *deep truth* is the complete TREC-COVID qrels restricted to
  topics 1–30, plus the round-1 judgments they lack (the two agree on every judgment they
  share).
* CLEF eHealth 2016 IR task 2: 16 runs named by file (tags repeat), groups = the file-name
  prefix before ``_EN_``; no run was a full contributor.

:func:`shared_data` is the one way the notebooks (and anyone else) find these folders: the
project's ``shared/data`` beside the working folder or beside the irnb checkout; the
environment variable ``IRNB_SHARED_DATA`` names another data folder, or is ``0`` to use the
embedded default even where the data is present. Where it finds nothing (on Binder, in an
installed wheel) :func:`shared_data_missing` is the sentence the notebooks show.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..experiment import Experiment
from ..io import read_qrels, read_runs
from ..trecdata import Qrels
from ..params import WITH_TRUTH

__all__ = ["shared_data", "shared_data_missing", "SHARED_DATA_VARIABLE", "trec_covid_leaderboard",
           "trec_covid_deep_truth", "trec_covid_round1", "trec_covid_runs", "trec_covid_manual_runs",
           "clef_ehealth_2016_task2"]

COVID_TOPICS = range(1, 31)
#: Environment variable: a folder holding the collections (``trec-covid-round1/`` …), or ``0``.
SHARED_DATA_VARIABLE = "IRNB_SHARED_DATA"


def shared_data(name: str, *, start=None) -> Path | None:
    """The folder of the real collection ``name`` (e.g. ``"trec-covid-round1"``), or None.

    Looked for, in order: under ``$IRNB_SHARED_DATA`` when it names a folder (``0`` means
    "use the embedded default": None); then ``shared/data/<name>`` in ``start`` (default the
    current folder) or any folder above it; then the same above the irnb package (a source
    checkout beside the project's ``shared`` folder). Nothing is downloaded.

    >>> shared_data("no-such-collection", start="/") is None
    True
    """
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        raise ValueError(f"name must be one collection folder such as 'trec-covid-round1', got {name!r}")
    setting = os.environ.get(SHARED_DATA_VARIABLE, "").strip()
    if setting == "0":
        return None
    if setting:
        folder = Path(setting).expanduser() / name
        return folder if folder.is_dir() else None
    here = Path.cwd() if start is None else Path(start)
    for origin in (here.resolve(), Path(__file__).resolve()):
        for folder in (origin, *origin.parents):
            if (folder / "shared" / "data" / name).is_dir():
                return folder / "shared" / "data" / name
    return None


def shared_data_missing(name: str) -> str:
    """What a notebook says when :func:`shared_data` finds nothing (as on Binder).

    >>> shared_data_missing("trec-covid-round1").startswith("The real data (trec-covid-round1) is not here")
    True
    """
    if os.environ.get(SHARED_DATA_VARIABLE, "").strip() == "0":
        why = f"{SHARED_DATA_VARIABLE}=0 asks for the embedded default"
    else:
        why = ("no shared/data folder beside this copy of the notebooks — on Binder and in an installed wheel "
               "there never is one")
    return (f"The real data ({name}) is not here ({why}): this notebook uses the embedded default, irnb's "
            "simulated collection, instead.")


def _need(folder: Path, *names: str) -> None:
    missing = [str(folder / n) for n in names if not (folder / n).exists()]
    if missing:
        raise FileNotFoundError(f"expected the published files {missing} (see shared/data/SOURCES.md)")


def _one_of(folder: Path, *names: str) -> Path:
    """The first of ``names`` present in ``folder``: the shared folder keeps the runs as one
    archive and the complete qrels gzipped, :func:`irnb.datasets.trec_covid`'s cache as published."""
    for name in names:
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"expected the published files {[str(folder / n) for n in names[:1]]} "
                            f"(or {', '.join(names[1:])}; see shared/data/SOURCES.md)")


def trec_covid_runs(folder) -> Path:
    """Where the round-1 runs are in ``folder``: ``runs-round1.tar.xz`` (the shared folder) or
    ``runs-round1/`` (the download cache); either is what :func:`irnb.read_runs` takes."""
    return _one_of(Path(folder), "runs-round1.tar.xz", "runs-round1")


def trec_covid_manual_runs(folder) -> list[str]:
    """The runs the leaderboard's ``runtype`` column calls manual, in its order (what
    ``irnb.reproduce(..., manual=...)`` takes for Büttcher et al.'s manual/automatic pools)."""
    board = trec_covid_leaderboard(folder)
    return board.index[board["runtype"].astype(str).str.strip().str.lower().eq("manual")].tolist()


def trec_covid_leaderboard(folder) -> pd.DataFrame:
    """The official round-1 leaderboard, indexed by run, with a boolean ``contributed`` column."""
    folder = Path(folder)
    _need(folder, "leaderboard-round1.csv")
    board = pd.read_csv(folder / "leaderboard-round1.csv").set_index("run")
    board["contributed"] = board["contributed judgments"].astype(str).str.strip().str.lower().eq("yes")
    return board


def trec_covid_deep_truth(folder) -> Qrels:
    """The complete TREC-COVID qrels for topics 1–30, plus the round-1 judgments they lack."""
    folder = Path(folder)
    _need(folder, "qrels-rnd1.txt")
    round1 = read_qrels(folder / "qrels-rnd1.txt").to_frame()
    complete = read_qrels(_one_of(folder, "qrels.covid-complete.txt.gz", "qrels.covid-complete.txt")).to_frame()
    complete = complete[complete["topic"].astype(int).isin(COVID_TOPICS)]
    known = pd.MultiIndex.from_frame(complete[["topic", "docno"]])
    lacking = round1[~pd.MultiIndex.from_frame(round1[["topic", "docno"]]).isin(known)]
    return read_qrels(pd.concat([complete, lacking], ignore_index=True))


def trec_covid_round1(folder, *, qrels: str = "round1", with_truth: bool = False) -> Experiment:
    """TREC-COVID round 1 as an Experiment (groups = teams, contributors from the leaderboard).

    ``qrels="round1"`` uses the official round-1 judgments (``with_truth=True`` attaches the
    deep truth as ``experiment.truth``); ``qrels="deep"`` uses the deep truth itself as the
    qrels, so that shallow pools can be simulated over it.
    """
    with_truth = WITH_TRUTH.validate(with_truth, "trec_covid_round1")
    if qrels not in ("round1", "deep"):
        raise ValueError(f"qrels must be 'round1' or 'deep', got {qrels!r}")
    if with_truth and qrels == "deep":
        raise ValueError("with_truth=True attaches the deep truth to the round-1 qrels; with qrels='deep' "
                         "the deep truth is already the qrels")
    folder = Path(folder)
    _need(folder, "qrels-rnd1.txt")
    board = trec_covid_leaderboard(folder)
    runs = read_runs(trec_covid_runs(folder))
    missing = sorted(set(runs) - set(board.index))
    if missing:
        raise ValueError(f"{folder / 'leaderboard-round1.csv'}: no row for runs {missing[:5]}")
    contributors = [n for n in runs if board.loc[n, "contributed"]]
    groups = {n: str(board.loc[n, "team"]) for n in runs}
    judged = read_qrels(folder / "qrels-rnd1.txt") if qrels == "round1" else trec_covid_deep_truth(folder)
    truth = trec_covid_deep_truth(folder) if with_truth else None
    return Experiment(runs, judged, groups=groups, contributors=contributors, truth=truth)


def clef_ehealth_2016_task2(folder) -> Experiment:
    """CLEF eHealth 2016 IR task 2 (runs by file name; group = prefix before ``_EN_``; no
    run is marked as a contributor)."""
    folder = Path(folder)
    _need(folder, "runs-irtask2.tar.xz", "task2.qrels")
    runs = read_runs(folder / "runs-irtask2.tar.xz")
    groups = {n: n.split("_EN_")[0] for n in runs}
    return Experiment(runs, read_qrels(folder / "task2.qrels"), groups=groups, contributors=[])
