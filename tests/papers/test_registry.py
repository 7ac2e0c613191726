"""The one rule for a data set's pool depth (irnb.papers.pool_depth_rule): what it infers,
when it warns, and how `irnb reproduce` reports it."""

from __future__ import annotations

import pandas as pd
import pytest

import irnb
from irnb.cli import main
from irnb.papers import PoolDepth, pool_depth_rule
from irnb.papers.registry import deepest_depth_of_most


def _rows(judged_to: dict[str, int], length: int = 6) -> tuple[list[dict], list[dict]]:
    """Runs of ``length`` documents each on two topics (no document shared between runs) and
    qrels judging each run's top ``judged_to[run]``."""
    rows, qrels = [], []
    for run, depth in judged_to.items():
        for topic in ("1", "2"):
            for rank in range(length):
                doc = f"{run}-{topic}-{rank}"
                rows.append({"run": run, "qid": topic, "docno": doc, "score": float(length - rank)})
                if rank < depth:
                    qrels.append({"qid": topic, "docno": doc, "grade": rank % 2})
    return rows, qrels


def _experiment(judged_to: dict[str, int], *, contributors=None) -> irnb.Experiment:
    rows, qrels = _rows(judged_to)
    return irnb.Experiment(pd.DataFrame(rows), pd.DataFrame(qrels), contributors=contributors)


def test_deepest_depth_of_most_by_hand():
    assert deepest_depth_of_most([7] * 52 + [6, 6, 6, 5]) == 7  # TREC-COVID round 1's contributors
    assert deepest_depth_of_most([7, 5, 5, 0]) == 5
    assert deepest_depth_of_most([3, 2]) == 2  # one of two runs is not more than half
    assert deepest_depth_of_most([7, 7, 7, 5], quorum=0.75) == 5
    assert deepest_depth_of_most([]) == 0
    with pytest.raises(ValueError, match=r"quorum must be in \[0, 1\), got 1"):
        deepest_depth_of_most([3], quorum=1)


def test_a_few_shallow_contributors_do_not_lower_the_depth():
    exp = _experiment({"a": 4, "b": 4, "c": 2, "x": 0}, contributors=["a", "b", "c"])
    rule = pool_depth_rule(exp)
    assert rule.depth == 4 and not rule.warning
    assert rule.basis == "inferred: 2 of the 3 contributing runs are judged to that depth on every topic, the " \
                         "shallowest to 2"


def test_the_data_cannot_tell_when_most_runs_are_unjudged():
    # every run counts as contributing (Experiment's default) but only "a" was pooled: the counter-example
    exp = _experiment({"a": 4, "x": 0, "y": 0})
    rule = pool_depth_rule(exp)
    assert rule.depth is None and rule.used == 1
    assert rule.warning.startswith("the data cannot tell the pool depth: no more than half of the 3 contributing runs "
                                   "are judged to depth 2 on every topic; using 1")
    # depth 1 cannot tell a pool from scattered judgments either
    assert pool_depth_rule(_experiment({"a": 1, "b": 1})).warning.startswith("the data cannot tell")
    # no run marked as contributing: every run counts, and the data cannot say which were pooled
    none = pool_depth_rule(_experiment({"a": 3, "b": 3}, contributors=[]))
    assert none.depth == 3 and "no run is marked as contributing to the pool" in none.warning


def test_the_simulated_collection_knows_its_depth():
    from irnb.datasets import default

    c = default()
    assert pool_depth_rule(c.experiment, collection=c) == PoolDepth(100, "the simulated collection's")
    assert str(PoolDepth(None, "x")) == "pool depth unknown (x)"


def test_reproductions_use_the_rule(covid_dir):
    from irnb.datasets.real import trec_covid_round1

    exp = trec_covid_round1(covid_dir)
    rule = pool_depth_rule(exp)
    assert rule.depth == 7 and not rule.warning
    rep = irnb.reproduce("ravana2010-table3", exp)
    assert rep.pool_depth == rule and str(rule) in str(rep)
    assert irnb.papers.Source(exp, "x").pool_depth == 7  # what baillie reads


def test_a_given_depth_replaces_the_datas():
    exp = _experiment({"a": 4, "b": 4, "c": 4})
    rep = irnb.reproduce("thesis-fig7.2", exp, pool_depth=2)
    assert rep.pool_depth == PoolDepth(2, "given")


def _write(judged_to: dict[str, int], folder) -> tuple[str, str]:
    rows, qrels = _rows(judged_to)
    runs = folder / "runs"
    runs.mkdir()
    for name in judged_to:
        mine = [r for r in rows if r["run"] == name]
        (runs / name).write_text("".join(f"{r['qid']} Q0 {r['docno']} {i + 1} {r['score']} {name}\n"
                                         for i, r in enumerate(mine)))
    path = folder / "qrels.txt"
    path.write_text("".join(f"{q['qid']} 0 {q['docno']} {q['grade']}\n" for q in qrels))
    return str(path), str(runs)


def test_cli_says_the_depth_and_warns_when_the_data_cannot_tell(tmp_path, capsys):
    qrels, runs = _write({"a": 4, "x": 0, "y": 0}, tmp_path)
    assert main(["reproduce", "thesis-fig7.2", "--qrels", qrels, "--runs", runs]) == 0
    out, err = capsys.readouterr()
    assert ("pool depth unknown (inferred: 1 of the 3 contributing runs are judged to depth 1 on every topic; the "
            "data cannot tell)") in out
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warnings == ["warning: the data cannot tell the pool depth: no more than half of the 3 contributing runs "
                        "are judged to depth 2 on every topic; using 1 (say which runs were pooled: contributors=... "
                        "in Python, --contributors on the command line)"]
    # told which run was pooled, the data shows its depth: no warning
    assert main(["reproduce", "thesis-fig7.2", "--qrels", qrels, "--runs", runs, "--contributors", "a"]) == 0
    out, err = capsys.readouterr()
    assert "pool depth 4 (inferred: 1 of the 1 contributing runs are judged to that depth on every topic)" in out
    assert "warning" not in err


def test_ids_keep_the_papers_order_whichever_module_was_imported_first():
    from irnb.papers.registry import REGISTRY

    ids = irnb.reproduction_ids()
    # as if the thesis module had been imported (and had registered) before the others
    thesis = {k: v for k, v in REGISTRY.items() if k.startswith("thesis-")}
    rest = {k: v for k, v in REGISTRY.items() if k not in thesis}
    REGISTRY.clear()
    REGISTRY.update({**thesis, **rest})
    assert list(REGISTRY)[0].startswith("thesis-")
    assert irnb.reproduction_ids() == ids and ids[0] == "baillie2007-table1" and ids[-1] == "thesis-fig7.2"
