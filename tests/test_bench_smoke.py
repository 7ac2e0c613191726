"""Smoke test of the core benchmark (benchmarks/bench_core.py, benchmarks/_data.py) on a tiny
generated set: the generator writes what it promises, irnb's timing functions run, and irnb's
P@10 and AP equal a plain-Python reference written here. No peer tool is needed."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def bench(request):
    mp = pytest.MonkeyPatch()
    mp.syspath_prepend(str(BENCH))
    import _data
    import bench_core

    request.addfinalizer(mp.undo)
    return _data, bench_core


TINY = dict(n_runs=3, n_topics=2, depth=20, judgments_per_topic=30, candidates_per_topic=60,
            collection_size=500, seed=7)


@pytest.fixture(scope="module")
def tiny(bench, tmp_path_factory):
    _data, _ = bench
    # score_decimals=0 rounds scores to integers: many ties, so the docno tie-break matters
    spec = _data.SyntheticSpec(**TINY, score_decimals=0)
    return _data.generate(tmp_path_factory.mktemp("tiny"), spec)


# ----------------------------------------------------------------- a plain-Python reference
def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.split() for line in f if line.strip()]


def ranked(run_path):
    """{topic: [docno, …]} in trec_eval order: score descending, ties by docno descending."""
    per_topic = defaultdict(list)
    for qid, _, docno, _, score, _ in read_lines(run_path):
        per_topic[qid].append((docno, float(score)))
    out = {}
    for qid, docs in per_topic.items():
        docs = sorted(docs, key=lambda d: d[0], reverse=True)  # docno descending …
        docs = sorted(docs, key=lambda d: -d[1])  # … then (stable) score descending
        out[qid] = [d for d, _ in docs]
    return out


def reference_p_at_10(ranking, grades):
    return sum(1 for d in ranking[:10] if grades.get(d, 0) >= 1) / 10


def reference_ap(ranking, grades):
    R = sum(1 for g in grades.values() if g >= 1)
    if R == 0:
        return 0.0
    found, total = 0, 0.0
    for i, d in enumerate(ranking, start=1):
        if grades.get(d, 0) >= 1:
            found += 1
            total += found / i
    return total / R


def test_reference_on_a_hand_example():
    # relevant at ranks 1 and 3, R = 2 → AP = (1/1 + 2/3) / 2 = 0.8333…; P@10 = 2/10
    grades = {"a": 1, "b": 0, "c": 2}
    assert reference_ap(["a", "b", "c"], grades) == pytest.approx((1 + 2 / 3) / 2)
    assert reference_p_at_10(["a", "b", "c"], grades) == pytest.approx(0.2)
    # a relevant document never retrieved still counts in R: (1/1) / 2 = 0.5
    assert reference_ap(["a", "b"], grades) == pytest.approx(0.5)


def test_reference_breaks_ties_by_docno_descending(tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("1 Q0 a 1 2.0 t\n1 Q0 c 2 1.0 t\n1 Q0 b 3 2.0 t\n")
    assert ranked(path) == {"1": ["b", "a", "c"]}


# ----------------------------------------------------------------- the generator
def test_generator_writes_the_promised_shape(tiny):
    assert len(tiny.run_paths) == 3
    total = 0
    for path in tiny.run_paths:
        rows = read_lines(path)
        total += len(rows)
        assert len(rows) == 2 * 20  # 2 topics × 20 deep
        by_topic = defaultdict(list)
        for qid, q0, docno, rank, score, tag in rows:
            assert q0 == "Q0" and tag == path.stem and len(docno) == 8
            by_topic[qid].append((int(rank), float(score), docno))
        assert sorted(by_topic) == ["401", "402"]
        for docs in by_topic.values():
            assert [r for r, _, _ in docs] == list(range(1, 21))
            scores = [s for _, s, _ in docs]
            assert scores == sorted(scores, reverse=True)  # rank follows the score
            assert len({d for _, _, d in docs}) == 20  # docnos unique within a topic
    assert total == tiny.num_lines == 3 * 2 * 20


def test_generator_ties_and_qrels(tiny):
    rows = [r for p in tiny.run_paths for r in read_lines(p)]
    keys = [(p.name, r[0], r[4]) for p in tiny.run_paths for r in read_lines(p)]
    assert len(set(keys)) < len(rows)  # integer scores: some ties exist
    qrels = read_lines(tiny.qrels_path)
    per_topic = defaultdict(set)
    for qid, _, docno, grade in qrels:
        assert int(grade) in (0, 1, 2)
        per_topic[qid].add(docno)
    assert {q: len(d) for q, d in per_topic.items()} == {"401": 30, "402": 30}


def test_generator_is_deterministic(bench, tmp_path):
    _data, _ = bench
    spec = _data.SyntheticSpec(**TINY)
    a = _data.generate(tmp_path / "a", spec)
    b = _data.generate(tmp_path / "b", spec)
    for pa_, pb_ in zip(a.run_paths + [a.qrels_path], b.run_paths + [b.qrels_path], strict=True):
        assert pa_.read_bytes() == pb_.read_bytes()
    # ensure_generated reuses a folder whose manifest matches (no rewrite)
    stamp = a.qrels_path.stat().st_mtime_ns
    again = _data.ensure_generated(spec, tmp_path / "a")
    assert again.qrels_path.stat().st_mtime_ns == stamp


def test_generator_rejects_bad_sizes(bench):
    _data, _ = bench
    with pytest.raises(ValueError, match=r"depth must be an integer ≥ 1, got 0"):
        _data.SyntheticSpec(depth=0)
    with pytest.raises(ValueError, match=r"candidates_per_topic must be ≥ depth \(1000\), got 10"):
        _data.SyntheticSpec(candidates_per_topic=10)


# ----------------------------------------------------------------- irnb side of the benchmark
def test_irnb_timing_and_values_match_the_reference(bench, tiny):
    _, bench_core = bench
    result = bench_core.time_irnb(tiny.run_paths, tiny.qrels_path)
    assert result.num_lines == 120
    assert result.parse > 0 and result.build > 0 and result.evaluate > 0
    exp, ev = result.experiment, result.evaluation
    assert exp.shape == (3, 2, 20)

    grades = defaultdict(dict)
    for qid, _, docno, grade in read_lines(tiny.qrels_path):
        grades[qid][docno] = int(grade)
    p10, ap = ev["P@10"], ev["AP"]
    for s, path in enumerate(tiny.run_paths):
        assert exp.run_names[s] == path.name
        rankings = ranked(path)
        for t, topic in enumerate(exp.topics):
            assert p10[s, t] == pytest.approx(reference_p_at_10(rankings[topic], grades[topic]), abs=1e-12)
            assert ap[s, t] == pytest.approx(reference_ap(rankings[topic], grades[topic]), abs=1e-12)
    assert ap.max() > 0  # the tiny set has retrieved relevant documents


def test_array_footprint_and_memory_report(bench, tiny):
    _, bench_core = bench
    result = bench_core.time_irnb(tiny.run_paths, tiny.qrels_path)
    sizes = bench_core.array_footprint(result.experiment)
    assert sizes["doc (int32, S·T·D)"] == 3 * 2 * 20 * 4  # 480 bytes
    assert sizes["grade cache (int8, S·T·D)"] == 3 * 2 * 20  # 120 bytes
    assert sizes["length (S·T)"] == 3 * 2 * result.experiment.length.itemsize
    report = bench_core.memory_report(tiny.run_paths, tiny.qrels_path)
    assert report["num_lines"] == 120 and report["positions"] == 120
    assert report["arrays"] == sizes
    assert report["build_peak"] >= 480  # at least the doc array was allocated


def test_compare_values_finds_a_planted_difference(bench, tiny):
    _, bench_core = bench
    ev = bench_core.time_irnb(tiny.run_paths, tiny.qrels_path).evaluation
    peer = bench_core.ToolResult("fake")
    peer.values = {"P@10": np.array(ev["P@10"], dtype=float), "AP": np.array(ev["AP"], dtype=float)}
    peer.values["AP"][1, 0] += 0.25
    peer.values["P@10"][2, 1] = math.nan  # the peer reported nothing for one cell
    out = bench_core.compare_values(ev, peer)
    assert out["AP"] == {"cells": 6, "max_abs_diff": pytest.approx(0.25), "above_tol": 1,
                         "only_irnb": 0, "only_peer": 0}
    assert out["P@10"]["cells"] == 5 and out["P@10"]["only_irnb"] == 1
    assert out["P@10"]["max_abs_diff"] == 0.0


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(), reason="bench_memory reads Linux /proc figures")
def test_memory_benchmark_measures_a_tiny_set(bench, tiny, monkeypatch):
    import bench_memory

    result = bench_memory.child(str(tiny.run_dir), str(tiny.qrels_path))
    assert result["lines"] == 120 and result["runs"] == 3
    # in the test process the RSS figures are noise (other tests' memory comes and goes); a
    # fresh child process is what the benchmark measures
    assert {"build_peak", "held", "eval_transient", "peak", "evaluate_s"} <= set(result)
    table = bench_memory.report([result, dict(result, lines=240, peak=result["peak"] + 1200)])
    assert table.splitlines()[-1].endswith("| 10.0 |")  # 1,200 more bytes for 120 more lines


def test_scale_benchmark_baseline_runs_the_code_it_names(capsys, monkeypatch, tmp_path):
    """--baseline runs a checkout's irnb in the same rounds (its columns beside the current
    ones, its MAP equal), --families keeps the cases named, and a child that imported irnb
    from elsewhere than the checkout it was given is refused."""
    pytest.importorskip("pytrec_eval")
    monkeypatch.syspath_prepend(str(BENCH))
    import bench_scale

    repo = BENCH.parent
    bench_scale.main(["--quick", "--skip", "parse,pairs,tukey,sweeps,bias", "--baseline", str(repo),
                      "--families", "runs=1"])
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("| family"))
    assert header.endswith("| CPU ratio before | wall ratio before | B/line before | CPU now / before |")
    rows = [line for line in out.splitlines() if line.startswith("| runs | 1 |")]
    assert len(rows) == 1
    cells = rows[0].strip("| ").split(" | ")
    assert len(cells) == len(header.strip("| ").split(" | "))
    assert float(cells[-1]) > 0 and float(cells[-4]) > 0  # now/before, and the before code's own ratio
    assert "Before (same rounds): worst CPU ratio" in out
    elsewhere = tmp_path / "not-irnb"
    elsewhere.mkdir()  # no irnb inside: the child imports the installed one, which is not this checkout
    data = bench_scale.family_specs(True)[0][2]
    with pytest.raises(RuntimeError, match="imported irnb from"):
        bench_scale.measure_shape(data, 1, peer=False, baseline=elsewhere)


def test_scale_times_are_printed_in_milliseconds(monkeypatch):
    """The families' times in ms, three significant figures or whole ms: the smallest families'
    tens of milliseconds stay readable (in seconds to two decimals, 0.019 s showed as 0.02)."""
    monkeypatch.syspath_prepend(str(BENCH))
    import bench_scale

    assert [bench_scale._ms(s) for s in (0.01934, 0.0009, 0.2051, 14.6284)] == ["19.3", "0.9", "205", "14,628"]


def test_scale_benchmark_smoke_run_prints_every_ratio(capsys, monkeypatch):
    """benchmarks/bench_scale.py --quick: every part runs and prints its ratio line."""
    monkeypatch.syspath_prepend(str(BENCH))
    import bench_scale

    bench_scale.main(["--quick", "--skip", "tukey"])
    out = capsys.readouterr().out
    if "pytrec_eval not installed" not in out:
        rows = [line for line in out.splitlines() if line.startswith("| ") and not line.startswith("| family")]
        assert {row.split(" | ")[0][2:] for row in rows} == {family for family, _, _ in bench_scale.FAMILIES}
        header = next(line for line in out.splitlines() if line.startswith("| family")).strip("| ").split(" | ")
        for row in rows:  # irnb's MAP of the first run equals pytrec_eval's on every shape
            ours, peer = row.rstrip(" |").rsplit(" | ", 1)[1].split(" / ")
            assert float(ours) == pytest.approx(float(peer), abs=1e-6)
            cell = dict(zip(header, row.strip("| ").split(" | "), strict=True))
            assert all(float(cell[f"{tool} {kind} ms"].replace(",", "")) > 0
                       for tool in ("irnb", "peer") for kind in ("CPU", "wall"))
            met = re.fullmatch(r"(\d+), (\d+) of (\d+)", cell["rounds within target (CPU, wall)"])
            cpu_met, wall_met, rounds = map(int, met.groups())
            assert rounds >= 1 and cpu_met <= rounds and wall_met <= rounds
            # a median paired ratio within its target is met by at least half the rounds, beyond it by at most half
            for ratio, met_rounds, target in ((cell["CPU ratio"], cpu_met, bench_scale.CPU_TARGET),
                                              (cell["wall ratio"], wall_met, bench_scale.WALL_TARGET)):
                assert (met_rounds >= rounds / 2) if float(ratio) <= target else (met_rounds <= rounds / 2)
        assert re.search(r"Worst CPU ratio: [0-9.]+ \([^;]+; (meets|MISSES) ≤ 1/3; within it in \d+ of \d+ rounds\)",
                         out)
    assert "identical p-values: True" in out and "identical p-values: False" not in out
    assert "decision matrix (anova): 1,770 pairs" in out
    assert "n_jobs=2: leave-one-group-out" in out
    assert "results with n_jobs=2 identical to the serial ones: True" in out
    assert "untouched topics reused" in out and "identical results: True" in out
    assert "t-test vs vectorised numpy (max |Δp|" in out
    gap = float(out.split("t-test vs vectorised numpy (max |Δp| ")[1].split(")")[0])
    assert gap <= 1e-12  # the series p-values agree with scipy's stdtr
