"""`irnb evaluate`: output formats, flags mapped to trec_eval's, errors without tracebacks."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pandas as pd
import pytest

from irnb.cli import main

QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n2 0 y 0\n3 0 z 1\n"
# topic 1: a(3.0) b(2.0) c(1.0) d(0.5) -> relevant at ranks 1 and 3 (R = 2)
# topic 2: y(2.0) x(1.0)              -> relevant at rank 2 (R = 1)
# topic 3 is not answered.
RUN = "1 Q0 a 1 3.0 r\n1 Q0 b 2 2.0 r\n1 Q0 c 3 1.0 r\n1 Q0 d 4 0.5 r\n2 Q0 y 1 2.0 r\n2 Q0 x 2 1.0 r\n"


@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    run = tmp_path / "myrun.txt"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return str(qrels), str(run)


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_trec_format_per_topic_and_all(files, capsys):
    code, out, err = _run(capsys, "evaluate", *files, "-m", "map", "-m", "P_2", "-q")
    assert code == 0
    rows = [line.split("\t") for line in out.strip().splitlines()]
    table = {(r[1], r[2]): r[3] for r in rows}
    assert all(r[0] == "myrun.txt" for r in rows)
    # AP topic 1 = (1/1 + 2/3) / 2 = 0.8333; topic 2 = (1/2) / 1 = 0.5; mean = 0.6667
    assert table[("AP", "1")] == "0.8333"
    assert table[("AP", "2")] == "0.5000"
    assert table[("AP", "all")] == "0.6667"
    # P@2: topic 1 = 1/2, topic 2 = 1/2
    assert table[("P@2", "all")] == "0.5000"
    assert ("AP", "3") not in table  # unanswered topic: not evaluated without -c


def test_complete_mode_scores_unanswered_topics(files, capsys):
    code, out, _ = _run(capsys, "evaluate", *files, "-m", "map", "-m", "num_rel", "-c", "-q")
    table = {(r.split("\t")[1], r.split("\t")[2]): r.split("\t")[3] for r in out.strip().splitlines()}
    # (0.8333 + 0.5 + 0) / 3 = 0.4444
    assert table[("AP", "all")] == "0.4444"
    assert table[("AP", "3")] == "0.0000"
    # num_rel is summed over topics: 2 + 1 + 1 = 4
    assert table[("NumRel", "all")] == "4"


def test_relevance_level_and_cutoff_flags(files, capsys):
    _, out, _ = _run(capsys, "evaluate", *files, "-m", "map", "-l", "2")
    # level 2: only c (rank 3) is relevant in topic 1 -> AP = 1/3; topic 2 has R = 0 -> 0
    assert out.strip().split("\t")[3] == f"{(1 / 3 + 0) / 2:.4f}"
    _, out, _ = _run(capsys, "evaluate", *files, "-m", "num_ret", "-M", "1")
    assert out.strip().split("\t")[3] == "2"  # one document per answered topic


def test_judged_only_condenses(files, capsys):
    _, out, _ = _run(capsys, "evaluate", *files, "-m", "P_3", "-J", "-q")
    table = {r.split("\t")[2]: r.split("\t")[3] for r in out.strip().splitlines()}
    # d is unjudged and already last; topic 1 condensed: a b c -> 2 relevant / 3
    assert table["1"] == f"{2 / 3:.4f}"


def test_csv_and_json_carry_full_precision(files, capsys):
    _, out, _ = _run(capsys, "evaluate", *files, "-m", "map", "--format", "csv")
    frame = pd.read_csv(io.StringIO(out))
    assert list(frame.columns) == ["run", "topic", "measure", "value"]
    assert frame.loc[frame.topic == "all", "value"].iloc[0] == pytest.approx((5 / 6 + 0.5) / 2, abs=1e-15)
    _, out, _ = _run(capsys, "evaluate", *files, "-m", "map", "-q", "--format", "json")
    records = json.loads(out)
    assert {r["topic"] for r in records} == {"1", "2", "all"}
    assert [r["value"] for r in records if r["topic"] == "1"][0] == pytest.approx(5 / 6, abs=1e-15)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["-m", "mapp"], "unknown measure 'mapp'; did you mean 'map'"),
        (["-m", "P@0"], "measurement depth k must be an integer ≥ 1, got 0"),
    ],
)
def test_errors_exit_2_without_traceback(files, capsys, argv, message):
    code, out, err = _run(capsys, "evaluate", *files, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert out == ""


def test_bad_run_line_names_file_and_line(tmp_path, files, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 a 1 3.0 r\n1 Q0 b 2 oops r\n")
    code, _, err = _run(capsys, "evaluate", files[0], str(bad), "-m", "map")
    assert code == 2
    assert f"{bad}:2: expected a number in column 5 (score), got 'oops'" in err


def test_entry_point_subprocess(files):
    done = subprocess.run([sys.executable, "-m", "irnb.cli", "evaluate", *files, "-m", "RR"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    # RR: topic 1 -> 1/1, topic 2 -> 1/2; mean 0.75
    assert done.stdout.strip() == "myrun.txt\tRR\tall\t0.7500"
    done = subprocess.run([sys.executable, "-m", "irnb.cli", "evaluate", files[0], "/no/such/run", "-m", "RR"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "/no/such/run" in done.stderr


def test_pool_depth_restricts_the_qrels(files, capsys):
    # depth-1 pool of the one run: judged = a (topic 1) and y (topic 2); x (relevant, rank 2) drops out
    _, out, _ = _run(capsys, "evaluate", *files, "-m", "num_rel", "-m", "P_2", "-q", "--pool-depth", "1")
    table = {(r.split("\t")[1], r.split("\t")[2]): r.split("\t")[3] for r in out.strip().splitlines()}
    assert table[("NumRel", "1")] == "1"  # only a remains judged relevant (c is beyond depth 1)
    assert table[("NumRel", "2")] == "0"
    assert table[("P@2", "2")] == "0.0000"


def test_intervals_and_estimator_columns(files, capsys):
    code, out, err = _run(capsys, "evaluate", *files, "-m", "P_2", "-q", "--pool-depth", "1",
                          "--intervals", "--estimator", "M", "--E", "0.1", "--lambda", "auto")
    assert code == 0, err
    rows = {r.split("\t")[2]: r.split("\t")[3:] for r in out.strip().splitlines()}
    # topic 2, depth-1 pool: y judged non-relevant, x unjudged -> B = 0, T = 1/2, Δ = 1/2
    # X_M with λ = 1 − Δ: B(1 + Δ) + Δ²E = 0 + 0.25 · 0.1 = 0.025
    value, lower, upper, residual, estimate = (float(v) for v in rows["2"])
    assert (value, lower, upper, residual) == (0.0, 0.0, 0.5, 0.5)
    assert estimate == pytest.approx(0.025, abs=5e-5)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--pool-runs", "x"], "--pool-runs needs --pool-depth D"),
        (["--E", "0.1"], "add --estimator S|B|I|M"),
        (["--estimator", "B", "--lambda", "0.5"], "--lambda (smoothing λ) applies to estimator M only"),
        (["--intervals", "-c"], "cannot be combined with -c"),
        (["--estimator", "M", "--lambda", "lots"], "--lambda must be a number or 'auto', got 'lots'"),
        (["--pool-depth", "0"], "--pool-depth (pool depth d) must be an integer ≥ 1, got 0"),
        (["--estimator", "M", "--lambda", "2"], "--lambda (smoothing λ) must be 'auto' or satisfy 0 ≤ λ ≤ 1, got 2"),
        (["--estimator", "B", "--E", "1.5"], "--E (background rate E) must satisfy 0 ≤ E ≤ 1, got 1.5"),
        (["-l", "0"], "-l (relevance level) must be an integer ≥ 1, got 0"),
        (["-M", "0"], "-M (run cutoff) must be an integer ≥ 1, got 0"),
    ],
)
def test_invalid_pool_and_estimator_combinations(files, capsys, argv, message):
    code, out, err = _run(capsys, "evaluate", *files, "-m", "P_2", *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


@pytest.fixture
def two_runs(tmp_path):
    """Three topics; run `good` puts the relevant document first everywhere, `poor` last,
    `twin` equals `good`. All documents are judged."""
    qrels, good, poor, twin = [], [], [], []
    for t in range(1, 7):
        qrels += [f"{t} 0 r{t} 1", f"{t} 0 n{t} 0"]
        good += [f"{t} Q0 r{t} 1 2.0 good", f"{t} Q0 n{t} 2 1.0 good"]
        poor += [f"{t} Q0 n{t} 1 2.0 poor", f"{t} Q0 r{t} 2 1.0 poor"]
        twin += [f"{t} Q0 r{t} 1 2.0 twin", f"{t} Q0 n{t} 2 1.0 twin"]
    paths = []
    for name, lines in (("qrels", qrels), ("good", good), ("poor", poor), ("twin", twin)):
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    return paths


def test_compare_prints_every_pair_with_case(two_runs, capsys):
    code, out, err = _run(capsys, "compare", *two_runs, "-m", "P@1")
    assert code == 0, err
    about, *lines = out.strip().splitlines()
    # the header line says what produced the table: the papers' procedure by default
    assert about == "# P@1 with Judged@1: one-way ANOVA + Bonferroni multiple comparisons, α = 0.05"
    header, *rows = [line.split("\t") for line in lines]
    assert header[:2] == ["run_a", "run_b"] and "case" in header
    cells = {(r[0], r[1]): dict(zip(header, r, strict=True)) for r in rows}
    assert set(cells) == {("good", "poor"), ("good", "twin"), ("poor", "twin")}
    # good vs twin: identical scores and assessment -> case 1 (strong), p = 1
    assert cells[("good", "twin")]["case"] == "1" and cells[("good", "twin")]["p_measure"] == "1.0000"
    # good vs poor: P@1 = 1 vs 0 on every topic -> different; assessment equal (all judged) -> case 3
    assert cells[("good", "poor")]["case"] == "3"
    assert cells[("good", "poor")]["better"] == "good"
    assert cells[("good", "poor")]["mean_diff"] == "1.0000"


def test_compare_json_and_bad_alpha(two_runs, capsys):
    code, out, _ = _run(capsys, "compare", *two_runs, "-m", "P@1", "--test", "sign", "--format", "json")
    records = json.loads(out)
    pair = next(r for r in records if (r["run_a"], r["run_b"]) == ("good", "poor"))
    # sign test, 6 of 6 topics favour `good`: p = 2 · 0.5^6 = 0.03125
    assert pair["p_measure"] == pytest.approx(0.03125, abs=1e-12)
    assert pair["more_assessed"] is None
    code, _, err = _run(capsys, "compare", *two_runs, "-m", "P@1", "--alpha", "1.5")
    assert code == 2 and "--alpha must satisfy 0 < alpha < 1, got 1.5" in err
    assert {(r["test"], r["correction"], r["alpha"]) for r in records} == {("sign", "none", 0.05)}


def test_compare_offers_every_test_and_names_it(two_runs, capsys):
    from irnb import cli, stats

    assert set(cli.COMPARE_TESTS) == set(stats.TESTS)
    for test in stats.TESTS:
        code, out, err = _run(capsys, "compare", *two_runs, "-m", "P@1", "--test", test, "--alpha", "0.01")
        assert code == 0, err
        assert out.startswith("# P@1 with Judged@1: ") and out.splitlines()[0].endswith("α = 0.01")
    code, out, err = _run(capsys, "compare", *two_runs, "-m", "P@1", "--test", "tukey", "--format", "csv",
                          "--assessment", "MAA")
    assert code == 0, err
    import io

    import pandas as pd

    table = pd.read_csv(io.StringIO(out))
    assert list(table.columns[-3:]) == ["test", "correction", "alpha"]
    assert set(table["test"]) == {"tukey"} and set(table["correction"]) == {"tukey-hsd"}
    assert table["alpha"].tolist() == [0.05] * 3 and set(table["assessment"]) == {"MAA"}
    code, out, err = _run(capsys, "compare", *two_runs, "-m", "P@1", "--assessment", "Unj")
    assert code == 0, err
    assert out.splitlines()[0].startswith("# P@1 with Unj@1: ")  # a family that needs a depth takes k
    code, _, err = _run(capsys, "compare", *two_runs, "-m", "P@1", "--assessment", "P")
    assert code == 2 and "assessment (an assessment measure family) must be one of 'Judged', " in err


def test_simulate_writes_a_collection_that_evaluates(tmp_path, capsys):
    out = tmp_path / "sim"
    code, text, err = _run(capsys, "simulate", "--seed", "3", "--out", str(out), "--num-topics", "5",
                           "--num-runs", "6", "--num-groups", "3", "--novel-runs", "1",
                           "--keyword-runs", "1")
    assert code == 0, err
    assert (out / "qrels.txt").is_file() and (out / "qrels.truth.txt").is_file()
    from irnb.datasets import simulate

    expected = simulate(3, num_topics=5, num_runs=6, num_groups=3, novel_runs=1, keyword_runs=1)
    assert f"{len(expected.runs)} runs" in text
    runs = sorted(p for p in (out / "runs").iterdir())
    assert [p.name for p in runs] == sorted(expected.runs)
    code, text, err = _run(capsys, "evaluate", str(out / "qrels.truth.txt"), str(runs[0]), "-m", "AP",
                           "--format", "csv")
    truth = irnb_evaluate_truth(expected, runs[0].name)
    assert float(text.strip().splitlines()[-1].split(",")[-1]) == pytest.approx(truth, abs=1e-12)


def irnb_evaluate_truth(collection, run_name):
    from irnb import evaluate

    ev = evaluate(collection.experiment, ["AP"], truth=True)
    return float(ev.aggregate("AP")[collection.experiment.run_names.index(run_name)])


def test_truncated_compressed_inputs_give_a_clear_error(tmp_path, files, capsys):
    import gzip
    import tarfile

    run_gz = tmp_path / "run.gz"
    run_gz.write_bytes(gzip.compress((RUN * 50).encode())[:40])  # cut inside the stream
    code, _, err = _run(capsys, "evaluate", files[0], str(run_gz), "-m", "P_1")
    assert code == 2 and f"{run_gz}: corrupt or truncated gzip data" in err and "Traceback" not in err
    archive = tmp_path / "runs.tar"
    with tarfile.open(archive, "w") as tar:
        tar.add(files[1], arcname="myrun.txt")
    cut = tmp_path / "cut.tar"
    cut.write_bytes(archive.read_bytes()[:700])
    code, _, err = _run(capsys, "evaluate", files[0], str(cut), "-m", "P_1")
    assert code == 2 and f"{cut}: corrupt or truncated archive" in err


def test_json_writes_null_for_missing_interval_bounds(files, capsys):
    code, out, _ = _run(capsys, "evaluate", *files, "-m", "map", "-m", "P_2", "--intervals", "--format", "json")
    assert code == 0
    records = json.loads(out, parse_constant=lambda c: pytest.fail(f"invalid JSON constant {c}"))
    ap = next(r for r in records if r["measure"] == "AP")
    assert ap["lower"] is None and ap["upper"] is None and ap["residual"] is None
    p2 = next(r for r in records if r["measure"] == "P@2")
    assert p2["lower"] == pytest.approx(0.5) and p2["upper"] == pytest.approx(0.5)  # all judged in the top 2


def test_num_q_and_geometric_means_print_only_all_like_trec_eval(files, capsys):
    _, out, _ = _run(capsys, "evaluate", *files, "-m", "num_q", "-m", "gm_map", "-m", "map", "-q")
    rows = [line.split("\t") for line in out.strip().splitlines()]
    assert {(r[1], r[2]) for r in rows if r[1] in ("num_q", "GMAP")} == {("num_q", "all"), ("GMAP", "all")}
    assert {r[2] for r in rows if r[1] == "AP"} == {"1", "2", "all"}
    # GMAP = exp(mean(log AP)) = sqrt(5/6 · 1/2) = 0.6455
    assert next(r[3] for r in rows if r[1] == "GMAP") == f"{(5 / 6 * 0.5) ** 0.5:.4f}"


# --------------------------------------------------------------------------- no traceback reaches a user


def _hide(monkeypatch, package: str) -> None:
    """Make ``package`` (and every submodule already imported) fail to import, as if not installed."""
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")] + [package]:
        monkeypatch.setitem(sys.modules, name, None)


def test_a_missing_optional_package_is_one_line_with_the_fix(monkeypatch, capsys):
    from irnb.lab import install_hint

    _hide(monkeypatch, "sklearn")
    code, out, err = _run(capsys, "reproduce", "buttcher2007-table6", "-o", "fractions=0.05")
    assert (code, out) == (2, "")
    assert err == f"irnb: error: irnb reproduce buttcher2007-table6 needs scikit-learn: {install_hint('predict')}\n"
    _hide(monkeypatch, "matplotlib")  # --figure is checked first, with matplotlib's formats
    code, out, err = _run(capsys, "reproduce", "thesis-fig7.2", "--figure", "x.png")
    assert (code, out) == (2, "")
    assert err == f"irnb: error: irnb reproduce thesis-fig7.2 needs matplotlib: {install_hint('notebook')}\n"


def test_missing_package_names_a_package_outside_irnbs_list():
    from irnb.lab import missing_package

    assert missing_package("nosuchpkg.sub", "irnb report") == ("irnb report needs the package nosuchpkg, which is "
                                                               "not installed (python3 -m pip install nosuchpkg)")


def test_judge_next_bounds_the_cutoff_before_reading_files(two_runs, capsys):
    """A cutoff past 32-bit ranks overflowed inside the interval kernel; it is refused by its declaration,
    before any file is read (the qrels path here does not exist)."""
    code, out, err = _run(capsys, "judge-next", "/no/such/qrels", *two_runs[1:], "-m", "P@10000000000")
    assert (code, out) == (2, "")
    assert err == ("irnb: error: judge-next -m: measurement_depth (k) must be an integer with 1 ≤ measurement_depth "
                   "≤ 2147483647 (interval bounds count ranks in 32-bit integers), got 10000000000\n")
    code, out, err = _run(capsys, "judge-next", *two_runs[:3], "-m", "P@2147483647")  # the bound itself runs
    assert code == 0, err


def test_judge_next_with_one_run_says_it_needs_two(two_runs, capsys):
    code, out, err = _run(capsys, "judge-next", *two_runs[:2])
    assert (code, out) == (2, "")
    assert err == ("irnb: error: judge-next needs at least two runs: it suggests the documents that decide which "
                   "of two runs scores higher, got 1 run (good)\n")


def test_report_bounds_the_resamples(two_runs, capsys):
    code, out, err = _run(capsys, "report", "/no/such/qrels", *two_runs[1:], "-m", "P@1", "--resamples",
                          "1000000000000")
    assert (code, out) == (2, "")
    assert err == ("irnb: error: --resamples must be an integer with 1 ≤ n_resamples ≤ 1000000 (more resamples "
                   "change no printed digit and need runs × resamples numbers in memory), got 1000000000000\n")
    with pytest.raises(SystemExit) as stop:  # not an integer: argparse's own one-line error
        main(["report", *two_runs, "-m", "P@1", "--resamples", "1e12"])
    assert stop.value.code == 2
    assert "argument --resamples: invalid int value: '1e12'" in capsys.readouterr().err


def test_compare_checks_the_seed_before_reading_files(two_runs, capsys):
    code, out, err = _run(capsys, "compare", "/no/such/qrels", *two_runs[1:], "-m", "P@1", "--test", "randomization",
                          "--seed", str(2 ** 64))
    assert (code, out) == (2, "")
    assert err == f"irnb: error: --seed must be an integer with 0 ≤ seed < 2**63, got {2 ** 64}\n"


@pytest.mark.parametrize("figure, message", [
    (".", "--figure: '.' is a folder; name a file in it, e.g. 'figure.png'"),
    ("plots/", "--figure: 'plots/' is a folder; name a file in it, e.g. 'plots/figure.png'"),
    ("no/such/folder/f.png", "--figure: folder 'no/such/folder' does not exist (for 'no/such/folder/f.png')"),
    ("figure", "--figure: the file name must end in one of "),
    ("figure.xyz", "--figure: the file name must end in one of "),
    (".png", "--figure: the file name must end in one of "),
])
def test_reproduce_checks_the_figure_path_before_anything_runs(tmp_path, monkeypatch, capsys, figure, message):
    import irnb.papers

    monkeypatch.chdir(tmp_path)
    (tmp_path / "plots").mkdir()
    ran = []
    monkeypatch.setattr(irnb.papers, "reproduce", lambda *a, **k: ran.append(a))
    code, out, err = _run(capsys, "reproduce", "thesis-fig7.2", "--figure", figure)
    assert (code, out, ran) == (2, "", [])
    assert err.startswith(f"irnb: error: {message}") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plots"]  # nothing written (no hidden .png)


def test_reproduce_takes_one_value_for_an_option_of_several(two_runs, monkeypatch, capsys):
    """``-o pool_depths=10`` is ``pool_depths=(10,)`` (it failed with "'int' object is not iterable");
    an option whose default is one value stays one value."""
    import irnb.papers

    seen = {}

    def fake(id, experiment, *, manual, label, **options):
        seen.update(options)
        raise ValueError("stop")

    monkeypatch.setattr(irnb.papers, "reproduce", fake)
    _run(capsys, "reproduce", "baillie2008-table3", "-o", "pool_depths=10", "-o", "depths=10,30", "-o", "alpha=0.01",
         "-o", "test=t")
    assert seen == {"pool_depths": (10,), "depths": (10, 30), "alpha": 0.01, "test": "t"}
    monkeypatch.undo()
    code, out, err = _run(capsys, "reproduce", "baillie2008-table3", "--qrels", two_runs[0], "--runs", *two_runs[1:],
                          "-o", "pool_depths=1", "-o", "depths=1,2")
    assert code == 0, err
    assert "your data: depth-1 pool of all runs" in out


@pytest.mark.parametrize("measure, status, message", [
    ("P.100,1,100", 2, "-m P.100,1,100: cutoffs must differ (trec_eval: duplicate cutoffs), got '100,1,100'"),
    ("P.0", 2, "-m P.0: cutoffs must be integers ≥ 1 (trec_eval: negative cutoff), got '0'"),
    ("ndcg.1", 2, "-m ndcg.1: expected name=value pairs separated by commas, got '1'"),
    ("utility.1,2", 4, "-m utility.1,2: utility takes 4 coefficients"),
    ("P.", 1, "-m P.: empty parameter list after '.'"),
    ("nosuch", 1, "-m nosuch: illegal measure 'nosuch'"),
])
def test_trec_eval_drop_in_exits_as_trec_eval(files, capsys, measure, status, message):
    """trec_eval 10.0: an unknown measure or an empty parameter list is a usage error (exit 1, from
    mark_measure); a measure's parameters are read when the measure is initialised, after the files
    ("Cannot initialize measure", exit 2); utility counts its coefficients per topic (exit 4)."""
    code, out, err = _run(capsys, "trec_eval", "-m", measure, *files)
    assert (code, out) == (status, "")
    assert err.startswith(f"irnb trec_eval: error: {message}")
