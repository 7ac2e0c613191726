"""irnb.datasets.files: a collection written to files is the same bytes for the same seed (on
every machine), reads back to the same evaluation, is not overwritten unasked; the
``simulate`` command writes one and reports errors."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irnb import Experiment, evaluate, read_qrels, read_runs
from irnb.datasets import (
    Collection,
    main_simulate,
    simulate,
    write_collection,
)

from sim_collections import SMALL


@pytest.fixture(scope="module")
def small() -> Collection:
    return simulate(7, **SMALL)


def file_hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_same_seed_gives_byte_identical_files(tmp_path):
    first = write_collection(simulate(0), tmp_path / "a")
    second = write_collection(simulate(0), tmp_path / "b")
    hashes = file_hashes(first)
    assert hashes == file_hashes(second)
    assert len(hashes) == 40 + 5  # 40 run files, qrels, truth, runs.tsv, topics.tsv, params.json
    assert (first / "qrels.truth.txt").read_bytes().count(b"\n") == 50 * 5000


# The digest of ``write_collection(simulate(0))`` (every file's path and bytes, in path order)
# as written on the development machine (numpy 2.4, x86_64). CI runs on another machine, so
# a match there shows that the same seed gives the same bytes across machines, not only
# within one process.
# A deliberate change of the simulator changes it: recompute it with folder_digest and say
# so in the commit.
DEFAULT_DIGEST = "9807fe5776eb096551b6771f712106ebc7c2971b1f575dd8e0c10b1c807d8f46"


def folder_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(folder).as_posix().encode())
            h.update(b"\0")
            h.update(p.read_bytes())
    return h.hexdigest()


def test_default_files_are_the_same_bytes_on_every_machine(tmp_path):
    folder = write_collection(simulate(0), tmp_path / "default")
    assert folder_digest(folder) == DEFAULT_DIGEST, (
        "simulate(0) wrote other bytes than on the development machine: either the simulator changed "
        "on purpose (update DEFAULT_DIGEST) or some operation is not bit-reproducible on this machine")


def test_written_files_read_back_to_the_same_evaluation(small, tmp_path):
    out = write_collection(small, tmp_path / "c")
    runs = read_runs(out / "runs")
    info = pd.read_csv(out / "runs.tsv", sep="\t")
    exp = Experiment(runs, read_qrels(out / "qrels.txt"), truth=read_qrels(out / "qrels.truth.txt"),
                     groups=dict(zip(info["run"], info["group"], strict=True)),
                     contributors=info.loc[info["contributor"] == 1, "run"].tolist())
    mine = small.experiment
    names = list(mine.run_names)
    order = [exp.run_names.index(n) for n in names]
    for truth in (False, True):
        a = evaluate(mine, ["AP", "P@10", "Bpref"], truth=truth)
        b = evaluate(exp, ["AP", "P@10", "Bpref"], truth=truth)
        for m in ("AP", "P@10", "Bpref"):
            assert np.array_equal(a[m], b[m][order])
    first = (out / "runs" / names[0]).read_text().splitlines()[0].split()
    assert first[1] == "Q0" and first[3] == "1" and len(first[4].split(".")[1]) == 6 and first[5] == names[0]
    assert json.loads((out / "params.json").read_text())["seed"] == 7


def test_write_refuses_to_overwrite(small, tmp_path):
    write_collection(small, tmp_path)
    with pytest.raises(ValueError, match=r"qrels.txt exists .*overwrite=True"):
        write_collection(small, tmp_path)
    write_collection(small, tmp_path, overwrite=True)
    with pytest.raises(TypeError, match="expected a Collection"):
        write_collection(small.experiment, tmp_path / "x")


def test_main_simulate_writes_and_reports_errors(tmp_path, capsys):
    argv = ["--seed", "3", "--out", str(tmp_path / "o"), "--num-topics", "2", "--num-runs", "4", "--num-groups",
            "2", "--docs-per-topic", "400", "--run-depth", "50", "--pool-depth", "5", "--median-relevant", "10",
            "--novel-runs", "1", "--keyword-runs", "1"]
    assert main_simulate(argv) == 0
    assert "4 runs" in capsys.readouterr().out
    assert len(list((tmp_path / "o" / "runs").iterdir())) == 4
    assert main_simulate(argv) == 2  # files exist
    assert "--force" in capsys.readouterr().err
    assert main_simulate(argv[:4] + ["--pool-depth", "0"]) == 2
    assert "pool_depth must be an integer" in capsys.readouterr().err
