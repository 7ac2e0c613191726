"""``irnb trec_eval`` against the real trec_eval 10.0 binary (built from ../shared's source
tarball by the ``trec_eval_bin`` fixture): standard output byte for byte and the exit
status, on trec_eval's own test files and on the real runs in ../shared, option by option;
``--compat 9`` against pytrec_eval (trec_eval 9.x); start-up imports; and the trec_eval
spellings in ``irnb evaluate``.
"""

from __future__ import annotations

import collections
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import reference_files
from conftest import REPO, shared_path
from irnb.measures import parse_measure, parse_measures
from irnb.trec_eval import main

ref = reference_files.ref  # the fixture of trec_eval's own test files

pytestmark = pytest.mark.shared


def ours(args: list[str], capsysbinary) -> tuple[bytes, int]:
    status = main([str(a) for a in args])
    return capsysbinary.readouterr().out, status


def theirs(binary: Path, args: list[str]) -> tuple[bytes, int]:
    done = subprocess.run([str(binary), *map(str, args)], capture_output=True)
    return done.stdout, done.returncode


def _extract(archive: Path, where: Path) -> list[Path]:
    with tarfile.open(archive) as tar:
        tar.extractall(where, filter="data")
    return sorted(p for p in where.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def covid(tmp_path_factory) -> tuple[Path, list[Path]]:
    folder = shared_path("data", "trec-covid-round1")
    runs = _extract(folder / "runs-round1.tar.xz", tmp_path_factory.mktemp("covid"))
    return folder / "qrels-rnd1.txt", runs


@pytest.fixture(scope="module")
def clef16(tmp_path_factory) -> tuple[Path, list[Path]]:
    folder = shared_path("data", "clef-ehealth-2016-irtask2")
    return folder / "task2.qrels", _extract(folder / "runs-irtask2.tar.xz", tmp_path_factory.mktemp("clef16"))


@pytest.fixture(scope="module")
def clef18(tmp_path_factory) -> tuple[Path, list[Path]]:
    folder = shared_path("data", "clef-ehealth-2018-irtask1")
    return (folder / "CLEF2018_qrel_20180914.txt",
            _extract(folder / "runs-irtask1.tar.xz", tmp_path_factory.mktemp("clef18")))


# ====================================================================== trec_eval's own test files
# QUICKTEST_COMMANDS.txt's commands for TREC qrels and results, and the options they leave out
OWN = [
    ([], "qrels.test", "results.test"),
    ([], "qrels.test.with-comments", "results.test"),
    ([], "qrels.comment.test", "results.comment.test"),
    (["-m", "all_trec"], "qrels.test", "results.test"),
    (["-m", "all_trec", "-q"], "qrels.test", "results.test"),
    (["-m", "all_trec", "-q", "-c"], "qrels.test", "results.trunc"),
    (["-m", "all_trec", "-q", "-c", "-M100"], "qrels.test", "results.trunc"),
    (["-m", "all_trec", "-mrelstring.20", "-q", "-l2"], "qrels.rel_level", "results.test"),
    (["-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000",
      "-m", "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75",
      "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20"], "qrels.test", "results.test"),
    (["-q", "-m", "ndcg.0=1,1=2,-1=0.5", "-J"], "qrels.rel_level", "results.test"),
    (["-q", "-c", "-m", "G.1=3,2=9,4=4.5", "-m", "ndcg_rel.1=0.5,2=0.7", "-m", "Rndcg.0=-1,1=5",
      "-m", "ndcg.-1=0.5,-2=1,1=1"], "qrels.test", "results.trunc"),
    (["-q", "-l", "2", "-m", "G.2=-1,x=3", "-m", "ndcg_rel.1=3,2=9,4=4.5", "-m", "Rndcg.1=3,2=9,4=4.5"],
     "qrels.rel_level", "results.test"),
    # gains that make G's log2 argument negative (C: NaN, printed -nan), gains less than 1 apart
    # (sorted by trec_eval's integer comparison), no positive ideal gain (Rndcg: 0/0), -J with gains
    (["-q", "-m", "G.-1=5", "-m", "ndcg.-1=5"], "qrels.test", "results.test"),
    (["-q", "-m", "Rndcg.1=0,0=2", "-m", "ndcg_rel.2=0.5,1=0.7,0=0.3", "-m", "G.0=0.5,1=0.2"], "qrels.rel_level",
     "results.test"),
    (["-q", "-J", "-m", "ndcg.2=0.5,0=-1", "-m", "Rndcg.-2=4,2=1"], "qrels.rel_level", "results.test"),
    (["-q", "-c", "-m", "all_trec", "-mrelstring.20", "-m", "utility.2,-1,0,0", "-m", "rbp_resid.p=0.5"],
     "qrels.test", "results.trunc"),
    (["-m", "official", "-q"], "qrels.test", "results.test"),
    (["-m", "set", "-q"], "qrels.test", "results.test"),
    (["-m", "all_trec", "-q", "-J"], "qrels.test", "results.test"),
    (["-m", "all_trec", "-c", "-J", "-M", "50"], "qrels.test", "results.trunc"),
    (["-m", "all_trec", "-q", "-n"], "qrels.test", "results.test"),
    (["-m", "ndcg_cut", "-m", "map_cut.5,100", "-m", "map.5", "-q"], "qrels.test", "results.test"),
    (["-m", "rbp.p=0.8", "-m", "rbp_resid.p=0.5", "-m", "set_F.0.25", "-m", "unj.3", "-q"], "qrels.test",
     "results.test"),
    (["-m", "utility.1,-1,0,1", "-N", "100000", "-q"], "qrels.test", "results.test"),
    (["-m", "all_trec", "-q", "-l", "3", "-M", "20"], "qrels.rel_level", "results.test"),
]


@pytest.mark.parametrize("args,qrels,run", OWN, ids=[" ".join(a) + f" {q} {r}" for a, q, r in OWN])
def test_own_test_files_identical(trec_eval_bin, ref, capsysbinary, args, qrels, run):
    files = [ref / qrels, ref / run]
    expected = theirs(trec_eval_bin, args + files)
    assert expected[1] == 0
    assert ours(args + files, capsysbinary) == expected


def test_reference_outputs_identical(ref, capsysbinary):
    """The outputs trec_eval's own test suite ships (no binary needed)."""
    for args, qrels, run, out in [([], "qrels.test", "results.test", "out.test"),
                                  (["-m", "all_trec", "-q", "-c", "-M100"], "qrels.test", "results.trunc",
                                   "out.test.aqcM"),
                                  (["-m", "all_trec", "-mrelstring.20", "-q", "-l2"], "qrels.rel_level",
                                   "results.test", "out.test.aql"),
                                  (["-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m",
                                    "recall.20,2000", "-m", "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m",
                                    "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4",
                                    "-msuccess.2,5,20"], "qrels.test", "results.test", "out.test.meas_params")]:
        assert ours(args + [ref / qrels, ref / run], capsysbinary) == ((ref / out).read_bytes(), 0)


def test_run_from_standard_input(trec_eval_bin, ref):
    run = (ref / "results.test").read_bytes()
    command = [sys.executable, "-m", "irnb", "trec_eval", "-q", "-m", "all_trec", str(ref / "qrels.test"), "-"]
    done = subprocess.run(command, input=run, capture_output=True, cwd=REPO)
    expected = subprocess.run([str(trec_eval_bin), "-q", "-m", "all_trec", str(ref / "qrels.test"), "-"],
                              input=run, capture_output=True)
    assert (done.stdout, done.returncode) == (expected.stdout, 0)


def test_unanswered_qrels_topic_stops_as_trec_eval_10(trec_eval_bin, ref, tmp_path, capsysbinary):
    """trec_eval 10.0 without -c stops at a qrels topic the run does not answer: the per-topic
    rows printed so far, then exit status 4; -c scores it as an empty ranking; 9.x skips it."""
    run = tmp_path / "no302.txt"
    run.write_bytes(b"".join(line for line in (ref / "results.test").read_bytes().splitlines(keepends=True)
                             if not line.startswith(b"302")))
    for args in (["-q"], ["-q", "-c", "-m", "all_trec"], []):
        expected = theirs(trec_eval_bin, args + [ref / "qrels.test", run])
        assert ours(args + [ref / "qrels.test", run], capsysbinary) == expected
    assert expected[1] == 4
    out, status = ours(["--compat", "9", "-m", "num_q", ref / "qrels.test", run], capsysbinary)
    assert (out, status) == (b"num_q                 \tall\t2\n", 0)
    other = tmp_path / "other.txt"
    other.write_bytes(b"999 Q0 a 1 1.0 t\n")
    assert ours(["--compat", "9", ref / "qrels.test", other], capsysbinary) == (b"", 7)
    assert theirs(trec_eval_bin, [ref / "qrels.test", other])[1] == 4  # 10.0 stops at the first qrels topic


def test_repeated_docno_refused_naming_file_and_line(trec_eval_bin, ref, tmp_path, capsysbinary):
    lines = (ref / "results.test").read_bytes().splitlines(keepends=True)
    run = tmp_path / "dup.txt"
    run.write_bytes(b"".join(lines[:3] + [lines[1]] + lines[3:]))
    assert theirs(trec_eval_bin, [ref / "qrels.test", run])[1] == 4
    assert main([str(ref / "qrels.test"), str(run)]) == 4
    out, err = capsysbinary.readouterr()
    assert out == b""
    err = err.decode()
    docno = lines[1].split()[2].decode()
    assert f"{run}:4: docno '{docno}' repeated for topic '301' (first at line 2)" in err


def test_refusals_exit_non_zero_with_a_reason(ref, capsys):
    files = [str(ref / "qrels.test"), str(ref / "results.test")]
    for args, reason, status in [
        (["-m", "P_10"], "trec_eval writes its parameters after a dot, e.g. P.10", 1),
        (["-m", "prefs_simp"], "a preference measure", 1),
        (["-m", "rbp.q=0.5"], "rbp takes p=…, got 'q'", 2),  # a measure's parameters: trec_eval's init, 2
        (["-R", "prefs"], "reads rel_info format 'qrels' only", 1),
        (["-Z", "zscores"], "not supported", 1),
        (["--compat", "9", "-m", "rbp"], "trec_eval 9.x has no measure 'rbp'", 1),
        (["-m", "P.0"], "cutoffs must be integers ≥ 1", 2),  # trec_eval: "Negative cutoff detected", exit 2
        (["-m", "P.100,1,100"], "cutoffs must differ (trec_eval: duplicate cutoffs), got '100,1,100'", 2),
        (["-m", "ndcg.1"], "expected name=value pairs separated by commas, got '1'", 2),
        (["-m", "utility.1,2"], "utility takes 4 coefficients", 4),  # trec_eval: calc_utility fails, exit 4
        (["-m", "P."], "empty parameter list after '.'", 1),  # trec_eval: "improper measure", exit 1
    ]:
        assert main(args + files) == status
        assert reason in capsys.readouterr().err
    assert main([files[0]]) == 1
    assert main([files[0], str(ref / "no-such-run")]) == 2
    assert "no-such-run: cannot read file: No such file or directory (ENOENT)" in capsys.readouterr().err
    assert main([files[0], str(ref)]) == 2
    assert "trec_eval: cannot read file: a directory" in capsys.readouterr().err


# ====================================================================== real runs in ../shared
def _count_identical(binary, runs, qrels, args, capsysbinary) -> int:
    same = 0
    for run in runs:
        expected = theirs(binary, args + [qrels, run])
        got = ours(args + [qrels, run], capsysbinary)
        assert got == expected, f"{' '.join(args)} {run.name}"
        same += 1
    return same


def test_covid_every_run_official(trec_eval_bin, covid, capsysbinary):
    qrels, runs = covid
    assert _count_identical(trec_eval_bin, runs, qrels, [], capsysbinary) == len(runs) == 143


def test_covid_sample_all_trec_per_topic(trec_eval_bin, covid, capsysbinary):
    """The two runs whose values differ between trec_eval 9.x and 10.0 (BERT, tm_lda400),
    every -l 2, -J and -c -M variant on a spread of the others."""
    qrels, runs = covid
    by_name = {r.name: r for r in runs}
    sample = [by_name[n] for n in ("BERT", "tm_lda400", "sab20.1.blind", "udel_fang_run1")]
    assert _count_identical(trec_eval_bin, sample, qrels, ["-m", "all_trec", "-q"], capsysbinary) == 4
    spread = runs[::36]
    for args in (["-m", "all_trec", "-l", "2"], ["-m", "all_trec", "-J", "-q"], ["-m", "all_trec", "-c", "-M", "10"]):
        assert _count_identical(trec_eval_bin, spread, qrels, args, capsysbinary) == len(spread)


def test_clef2016_every_run(trec_eval_bin, clef16, capsysbinary):
    qrels, runs = clef16
    for args in (["-m", "all_trec", "-q"], ["-m", "all_trec", "-q", "-l", "2"]):
        assert _count_identical(trec_eval_bin, runs, qrels, args, capsysbinary) == len(runs) == 16


def test_clef2018_repeated_docnos_refused_as_trec_eval_does(trec_eval_bin, clef18, capsysbinary):
    """9 of the 24 runs repeat a docno within a topic: both refuse them (exit status 4, no
    summary); the others print the same rows."""
    qrels, runs = clef18
    statuses = collections.Counter()
    for run in runs:
        expected = theirs(trec_eval_bin, ["-m", "official", qrels, run])
        assert ours(["-m", "official", qrels, run], capsysbinary) == expected, run.name
        statuses[expected[1]] += 1
    assert statuses == {0: 15, 4: 9}


# ====================================================================== --compat 9 against pytrec_eval
def _pytrec_values(qrels: Path, run: Path, level: int) -> dict:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    judged, ranked = collections.defaultdict(dict), collections.defaultdict(dict)
    for line in qrels.read_text().splitlines():
        p = line.split()
        if p and not p[0].startswith("#"):
            judged[p[0]][p[2]] = int(p[3])
    for line in run.read_text().splitlines():
        p = line.split()
        if p and not p[0].startswith("#"):
            ranked[p[0]][p[2]] = float(p[4])
    measures = set(pytrec_eval.supported_measures) - {"relstring", "runid", "num_q", "gm_map", "gm_bpref"}
    return pytrec_eval.RelevanceEvaluator(dict(judged), measures, relevance_level=level).evaluate(dict(ranked))


def _compare_with_pytrec(qrels: Path, run: Path, level: int, capsysbinary) -> int:
    out, status = ours(["--compat", "9", "-q", "-m", "all_trec", "-l", level, qrels, run], capsysbinary)
    assert status == 0
    reference = _pytrec_values(qrels, run, level)
    compared = 0
    for line in out.decode().splitlines():
        name, topic, value = (cell.strip() for cell in line.split("\t"))
        if topic == "all" or name == "relstring":
            continue
        ref = reference[topic][name]
        assert value == (str(int(ref)) if name.startswith("num_") else f"{ref:6.4f}"), (run.name, name, topic)
        compared += 1
    return compared


def test_compat_9_matches_pytrec_eval_on_own_files(ref, capsysbinary):
    assert _compare_with_pytrec(ref / "qrels.test", ref / "results.test", 1, capsysbinary) == 270
    assert _compare_with_pytrec(ref / "qrels.rel_level", ref / "results.test", 2, capsysbinary) == 270


def test_compat_9_matches_pytrec_eval_where_versions_differ(trec_eval_bin, covid, capsysbinary):
    """BERT and tm_lda400 have scores equal in float32 only: 10.0 ranks them apart, 9.x
    (and pytrec_eval) by docno."""
    qrels, runs = covid
    by_name = {r.name: r for r in runs}
    for name in ("BERT", "tm_lda400"):
        assert _compare_with_pytrec(qrels, by_name[name], 1, capsysbinary) == 30 * 90
        ten = ours(["-q", "-m", "all_trec", qrels, by_name[name]], capsysbinary)[0]
        nine = ours(["--compat", "9", "-q", "-m", "all_trec", qrels, by_name[name]], capsysbinary)[0]
        assert ten == theirs(trec_eval_bin, ["-q", "-m", "all_trec", qrels, by_name[name]])[0]
        changed = {line.split(b"\t")[0].strip() for line in set(ten.splitlines()) - set(nine.splitlines())}
        assert changed - {b"rbp", b"rbp_resid", b"unj_5", b"unj_10", b"unj_20"}, name  # not only 10.0's measures


# ====================================================================== start-up and the irnb command
def test_dropin_and_help_import_no_pandas_scipy_matplotlib(ref):
    code = ("import sys, io\n"
            "from irnb.cli import main, build_parser\n"
            "build_parser()\n"
            "sys.stdout = io.TextIOWrapper(io.BytesIO())\n"
            f"main(['trec_eval', '-m', 'all_trec', {str(ref / 'qrels.test')!r}, {str(ref / 'results.test')!r}])\n"
            "sys.stdout = sys.__stdout__\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'scipy', 'matplotlib', 'pyarrow'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.stdout.strip() == "[]", done.stderr


def test_irnb_evaluate_reads_trec_eval_spellings_as_trec_eval():
    assert [m.name for m in parse_measures("ndcg_cut")] == [f"nDCG@{k}" for k in (5, 10, 15, 20, 30, 100, 200,
                                                                                  500, 1000)]
    assert [m.name for m in parse_measures(["P.5,10,20", "recall.100,1000"])] == ["P@5", "P@10", "P@20", "R@100",
                                                                                  "R@1000"]
    with pytest.raises(ValueError, match=r"'map.5' is not a trec_eval measure: .* 'map_cut_5' or 'AP@5'"):
        parse_measure("map.5")
    with pytest.raises(ValueError, match=r"'ndcg_cut' is trec_eval's list ndcg_cut_5, .*parse_measures"):
        parse_measure("ndcg_cut")


def test_irnb_evaluate_compat_10_matches_trec_eval_10(trec_eval_bin, covid, capsys):
    from irnb.cli import main as irnb_main

    qrels, runs = covid
    run = {r.name: r for r in runs}["BERT"]
    assert irnb_main(["evaluate", "--compat", "10", "-m", "map", "-m", "ndcg_cut.10", str(qrels), str(run)]) == 0
    ours_ = [line.split("\t")[3] for line in capsys.readouterr().out.splitlines()]
    reference = theirs(trec_eval_bin, ["-m", "map", "-m", "ndcg_cut.10", qrels, run])[0].decode().splitlines()
    assert ours_ == [line.split("\t")[2] for line in reference]


def test_import_irnb_is_lazy_and_every_public_name_resolves():
    code = ("import sys, irnb\n"
            "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'scipy', 'pyarrow', 'numpy'})\n"
            "missing = [n for n in irnb.__all__ if getattr(irnb, n, None) is None]\n"
            "from irnb import Experiment, evaluate, reproduce\n"
            "print(heavy, missing, callable(reproduce), sorted(set(irnb.__all__) - set(dir(irnb))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.stdout.strip() == "[] [] True []", done.stderr


def test_experiment_compat_is_validated_and_ranks_as_the_version_says():
    import pandas as pd

    from irnb import Experiment, evaluate

    qrels = pd.DataFrame({"qid": "1", "docno": ["a", "c"], "grade": [1, 0]})
    close = pd.DataFrame({"qid": "1", "docno": ["a", "c"], "score": [1.00000001, 1.0]})  # equal as float32
    # 9.x: a tie, docno descending puts c (non-relevant) first → RR = 1/2; 10.0: a first → RR = 1
    assert float(evaluate(Experiment(close, qrels), "RR").aggregate("RR")[0]) == 0.5
    assert float(evaluate(Experiment(close, qrels, compat=10), "RR").aggregate("RR")[0]) == 1.0
    with pytest.raises(ValueError, match=r"compat \(trec_eval version\) must be one of '9' or '10', got '11'"):
        Experiment(close, qrels, compat="11")


def test_startup_benchmark_runs_and_reports_both_ratios(trec_eval_bin, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    import bench_startup

    assert bench_startup.main(["--runs", "1", "--trec-eval", str(trec_eval_bin)]) == 0
    table = capsys.readouterr().out
    assert "| irnb trec_eval (one topic) |" in table and "| trec_eval 10.0 (C binary) |" in table
    assert "÷ import numpy | ÷ trec_eval binary |" in table


@pytest.mark.parametrize("module", ["irnb.trec_eval", "irnb.measures", "irnb.experiment"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
