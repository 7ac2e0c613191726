"""The malformed-input sweep: 99 faulty variants of a real TREC-COVID round-1 run
and its qrels, each given to irnb's Python API (``Experiment`` + ``evaluate(complete=True)``),
to ``irnb evaluate -c -q`` and to trec_eval 10.0 (``-c -q``), then counted:

* **refused, file and line**: irnb raises ValueError naming ``file:line`` (the CLI exits 2
  with the same one-line message);
* **refused, file**: a fault of the whole file (empty, not a file, no topic in common, corrupt
  compression): the message names the file;
* **equal to trec_eval**: irnb's values (API and CLI) equal trec_eval 10.0's, topic by topic,
  on the file as trec_eval reads irnb's documented rules (see ``tests/test_fuzz_inputs.py``);
* **anything else** — a value that differs, an error that names no file, an input modified,
  a traceback — must be 0.

The second sweep gives bad command-line arguments (measures, cutoffs, levels, resample counts,
seeds, tests, reproduction options, figure paths, missing or wrong files, too few runs) to
``irnb report``, ``compare``, ``judge-next``, ``reproduce``, ``evaluate`` and the ``trec_eval``
drop-in, on a small simulated collection, and counts each outcome:

* **refused in one line**: exit status 2 (the drop-in: trec_eval's 1, 2 or 4), nothing on
  standard output, one error line on standard error (argparse's usage lines before its own);
* **ran**: exit status 0 (a value the command takes, e.g. ``-o pool_depths=10``);
* **traceback** — an exception that escapes ``irnb.cli.main`` — and **anything else** (output
  printed before an error, a file written that nobody asked for, a message of several lines)
  must be 0.

    python tools/sweep_malformed.py                      # both sweeps; builds trec_eval 10.0 in a temp folder
    python tools/sweep_malformed.py --trec-eval PATH -v  # a built binary; one line per variant
    python tools/sweep_malformed.py --only arguments -v  # the argument sweep alone (no trec_eval, no ../shared)
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gzip
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from test_fuzz_inputs import MEASURES, _as_trec_eval_reads, _irnb, _trec_eval  # noqa: E402

from irnb.cli import main as irnb_main  # noqa: E402

COVID = SHARED / "data" / "trec-covid-round1"
RUN_NAME = "BBGhelani1"  # a round-1 run: 30 topics, 1,000 documents each


# ------------------------------------------------------------------ the variants


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")


def _join(lines: list[bytes]) -> bytes:
    return b"\n".join(lines) + b"\n"


def _at(k: int, change):
    """Change line k (0-based) with ``change(line) -> bytes``."""
    def apply(data: bytes) -> bytes:
        lines = _lines(data)
        lines[k] = change(lines[k])
        return _join(lines)
    return apply


def _field(k: int, col: int, value: bytes):
    def change(line: bytes) -> bytes:
        fields = line.split()
        fields[col] = value
        return b" ".join(fields)
    return _at(k, change)


def _each(change):
    """Change the fields of every line with ``change(fields) -> fields`` (joined by spaces)."""
    return lambda d: _join([b" ".join(change(line.split())) for line in _lines(d)])


def _topics(keep: set[bytes]):
    return lambda d: _join([line for line in _lines(d) if line.split()[0] in keep])


def _neg_topic(topic: bytes):
    return lambda d: _join([(b" ".join(line.split()[:3] + [b"-1"]) if line.split()[0] == topic else line)
                            for line in _lines(d)])


def variants() -> list[tuple[str, str, object]]:
    """(name, which file, transform bytes → bytes) — 99 of them."""
    v: list[tuple[str, str, object]] = []
    for which in ("run", "qrels"):
        score_col = 4 if which == "run" else 3
        v += [
            (f"{which}: CRLF line ends", which, lambda d: d.replace(b"\n", b"\r\n")),
            (f"{which}: lone CR line ends (old Mac)", which, lambda d: d.replace(b"\n", b"\r")),
            (f"{which}: CR inside line 7", which, _at(6, lambda s: b"\r".join(s.split()))),
            (f"{which}: CRLF on half the lines", which,
             lambda d: _join([s + b"\r" if i % 2 else s for i, s in enumerate(_lines(d))])),
            (f"{which}: no final line end", which, lambda d: d.rstrip(b"\n")),
            (f"{which}: blank lines between", which, lambda d: d.replace(b"\n", b"\n\n")),
            (f"{which}: trailing spaces", which, lambda d: d.replace(b"\n", b"  \n")),
            (f"{which}: leading tab", which, lambda d: _join([b"\t" + s for s in _lines(d)])),
            (f"{which}: tabs as separators", which, _each(lambda f: [b"\t".join(f)])),
            (f"{which}: runs of spaces", which, _each(lambda f: [b"   ".join(f)])),
            (f"{which}: vertical tab separators", which, _each(lambda f: [b"\x0b".join(f)])),
            (f"{which}: form feed separators", which, _each(lambda f: [b"\x0c".join(f)])),
            (f"{which}: UTF-8 byte-order mark", which, lambda d: b"\xef\xbb\xbf" + d),
            (f"{which}: UTF-16 LE", which, lambda d: d.decode().encode("utf-16")),
            (f"{which}: UTF-16 BE without BOM", which, lambda d: d.decode().encode("utf-16-be")),
            (f"{which}: latin-1 byte in a docno, line 9", which, _field(8, 2, b"doc\xe9")),
            (f"{which}: NUL byte in line 12", which, _at(11, lambda s: s[:3] + b"\x00" + s[3:])),
            (f"{which}: ELF header prepended", which, lambda d: b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 56 + d),
            (f"{which}: a column missing on line 5", which, _at(4, lambda s: b" ".join(s.split()[:-1]))),
            (f"{which}: an extra column on line 5", which, _at(4, lambda s: s + b" extra")),
            (f"{which}: one column only on line 3", which, _at(2, lambda s: s.split()[0])),
            (f"{which}: comment lines", which, lambda d: b"# produced by a script\n" + d.replace(b"\n", b"\n# c\n", 3)),
            (f"{which}: two comment lines in a row", which, lambda d: b"# a b c\n# d e f\n" + d),
            (f"{which}: indented comment", which, lambda d: b"   # note 1 2 3\n" + d),
            (f"{which}: empty file", which, lambda d: b""),
            (f"{which}: only comments", which, lambda d: b"# nothing here\n# at all\n"),
            (f"{which}: truncated mid-line", which, lambda d: d[: len(d) // 2]),
            (f"{which}: one line of 20,000 bytes", which, _at(3, lambda s: s + b" " + b"x" * 20_000)),
            (f"{which}: gzip-compressed", which, lambda d: gzip.compress(d)),
            (f"{which}: truncated gzip", which, lambda d: gzip.compress(d)[:200]),
            (f"{which}: first line duplicated", which, lambda d: _lines(d)[0] + b"\n" + d),
        ]
        if which == "run":
            for spelling in [b"+3.5", b"3.5e0", b"3.5E+00", b".5", b"5.", b"0x1p3", b"inf", b"-inf", b"nan",
                             b"1e400", b"1e-400", b"1_0", b"3,5", b"3.5abc", b"\xd9\xa1", b"--1"]:
                v.append((f"run: score {spelling.decode(errors='replace')} on line 10", which,
                          _field(9, score_col, spelling)))
            v += [
                ("run: docno repeated with another score", which,
                 lambda d: d + b" ".join(_lines(d)[0].split()[:4] + [b"0.001", b"x"]) + b"\n"),
                ("run: covers 2 of the 30 topics", which, _topics({b"1", b"2"})),
                ("run: topic '01' for '1'", which, _each(lambda f: [b"01" if f[0] == b"1" else f[0], *f[1:]])),
                ("run: a topic not in the qrels", which, lambda d: d + b"999 Q0 doc 1 1 x\n"),
                ("run: no topic in common", which, _each(lambda f: [b"T" + f[0], *f[1:]])),
                ("run: every score 1 (ties by docno)", which, _each(lambda f: [*f[:4], b"1", *f[5:]])),
                ("run: rank column not numbers", which, _each(lambda f: [*f[:3], b"r", *f[4:]])),
            ]
        else:
            for spelling in [b"1.0", b"0x1", b"+1", b"01", b"-1", b"200", b"999", b"-127", b"127", b"one", b"1e0"]:
                v.append((f"qrels: grade {spelling.decode()} on line 10", which, _field(9, score_col, spelling)))
            v += [
                ("qrels: conflicting duplicate judgment", which,
                 lambda d: d + b" ".join(_lines(d)[0].split()[:3] + [b"0"]) + b"\n"),
                ("qrels: a topic judged all -1", which, _neg_topic(b"3")),
                ("qrels: iteration column 'Q0'", which, _each(lambda f: [f[0], b"Q0", *f[2:]])),
            ]
    return v


# ------------------------------------------------------------------ running one variant


def _cli(qrels: Path, run: Path) -> tuple[int, str, dict]:
    flags = ["-c", "-q", "--format", "csv"] + [arg for name in MEASURES.values() for arg in ("-m", name)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = irnb_main(["evaluate", str(qrels), str(run), *flags])
    values = {}
    if code == 0:
        names = {v: k for k, v in MEASURES.items()}
        for line in out.getvalue().splitlines()[1:]:
            _, topic, measure, value = line.split(",")
            values[(names[measure], topic)] = float(value)
    return code, err.getvalue(), values


def sweep_one(binary: Path, folder: Path, name: str, run_data: bytes, qrels_data: bytes) -> tuple[str, str]:
    run, qrels = folder / "run.txt", folder / "qrels.txt"
    run.write_bytes(run_data)
    qrels.write_bytes(qrels_data)
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in (run, qrels)}
    try:
        got = _irnb(qrels, run)
        error = None
    except ValueError as err:
        got, error = None, str(err)
    except Exception as err:  # noqa: BLE001 - anything else is what the sweep counts
        return "anything else", f"API raised {type(err).__name__}: {str(err)[:200]}"
    code, stderr, cli_values = _cli(qrels, run)
    if any(hashlib.sha256(p.read_bytes()).hexdigest() != h for p, h in before.items()):
        return "anything else", "an input file was modified"
    if error is not None:
        if code != 2 or stderr.strip() != f"irnb: error: {error}":
            return "anything else", f"CLI exit {code}, stderr {stderr[:200]!r} for API error {error[:200]!r}"
        if len(error) > 400:
            return "anything else", f"message of {len(error)} characters"
        if re.match(rf"({re.escape(str(run))}|{re.escape(str(qrels))}):\d+: ", error):
            return "refused, file and line", error
        if error.startswith((str(run), str(qrels))):
            return "refused, file", error
        return "anything else", f"error names no file: {error[:200]}"
    if code != 0 or cli_values.keys() != got.keys() or any(abs(cli_values[k] - got[k]) > 1e-12 for k in got):
        return "anything else", f"CLI (exit {code}) and API disagree: {stderr[:200]}"
    run.write_bytes(_as_trec_eval_reads(run_data, "run"))
    qrels.write_bytes(_as_trec_eval_reads(qrels_data, "qrels"))
    expected = _trec_eval(binary, qrels, run)
    if expected is None:
        return "anything else", "irnb read a file trec_eval 10.0 refuses"
    if expected.keys() != got.keys():
        return "anything else", "topics differ from trec_eval's"
    worst = max(abs(got[k] - expected[k]) for k in expected)
    if worst > 5.01e-5:
        return "anything else", f"values differ from trec_eval's by up to {worst:.4g}"
    return "equal to trec_eval", f"{len(expected)} values"


def build_trec_eval(folder: Path) -> Path:
    tarball = SHARED / "reference" / "trec_eval-10.0.tar.gz"
    with tarfile.open(tarball) as tar:
        tar.extractall(folder, filter="data")
    (src,) = [p for p in folder.iterdir() if p.is_dir()]
    subprocess.run(["make", "-s"], cwd=src, check=True, capture_output=True)
    return src / "trec_eval"


# ------------------------------------------------------------------ bad command-line arguments


def _write_small_collection(folder: Path) -> dict[str, str]:
    """A small simulated collection as TREC files; the paths the argument variants use."""
    from irnb.datasets import simulate, write_collection

    collection = simulate(seed=0, num_topics=5, num_runs=6, num_groups=3, docs_per_topic=300, run_depth=60,
                          pool_depth=10, median_relevant=20, novel_runs=1, keyword_runs=1)
    out = write_collection(collection, folder / "sim")
    runs = sorted(str(p) for p in (out / "runs").iterdir())
    table = (out / "runs.tsv").read_text(encoding="utf-8").splitlines()
    header = table[0].split("\t")
    groups = [dict(zip(header, line.split("\t"), strict=True)) for line in table[1:]]
    (folder / "groups.tsv").write_text("".join(f"{g['run']}\t{g['group']}\n" for g in groups), encoding="utf-8")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    return {"qrels": str(out / "qrels.txt"), "truth": str(out / "qrels.truth.txt"), "run": runs[0],
            "runs": runs, "names": [Path(r).name for r in runs], "groups": str(folder / "groups.tsv"),
            "dir": str(out), "empty": str(folder / "empty.txt"), "missing": str(folder / "no-such-file")}


def argument_variants(f: dict) -> list[tuple[str, list[str]]]:
    """(name, argv) of every bad (or borderline) argument vector."""
    q, runs, run = f["qrels"], f["runs"], f["run"]
    v: list[tuple[str, list[str]]] = []
    measures = ["mapp", "P@0", "P@-1", "P@10000000000", "P@abc", "P@", "RBP(p=2)", "RBP(p=0)", "RBP(q=0.5)",
                "nDCG@1.5", "", "P@10,20", "AP@", "Judged@0", "SDCG@0"]
    for m in measures:
        v.append((f"report -m {m!r}", ["report", q, *runs, "-m", m]))
        v.append((f"compare -m {m!r}", ["compare", q, *runs, "-m", m]))
        v.append((f"judge-next -m {m!r}", ["judge-next", q, *runs, "-m", m]))
        v.append((f"evaluate -m {m!r}", ["evaluate", q, run, "-m", m]))
    v += [("judge-next -m AP (no interval)", ["judge-next", q, *runs, "-m", "AP"]),
          ("judge-next with one run", ["judge-next", q, run]),
          ("compare with one run", ["compare", q, run, "-m", "P@10"])]
    for value in ["0", "-1", "1e12", "1000000000000", "abc", "1.5"]:
        v.append((f"report --resamples {value}", ["report", q, *runs, "-m", "P@10", "--resamples", value]))
    for value in ["0", "1", "-0.1", "1.5", "nan", "inf", "abc"]:
        v.append((f"report --alpha {value}", ["report", q, *runs, "-m", "P@10", "--alpha", value]))
        v.append((f"compare --alpha {value}", ["compare", q, *runs, "-m", "P@10", "--alpha", value]))
        v.append((f"report --confidence {value}", ["report", q, *runs, "-m", "P@10", "--confidence", value]))
        v.append((f"judge-next -E {value}", ["judge-next", q, *runs, "-E", value]))
    for value in ["-1", "18446744073709551616", "abc"]:
        v.append((f"report --seed {value}", ["report", q, *runs, "-m", "P@10", "--seed", value]))
        v.append((f"compare --seed {value}", ["compare", q, *runs, "-m", "P@10", "--test", "randomization",
                                              "--seed", value]))
    v += [("report --baseline unknown", ["report", q, *runs, "-m", "P@10", "--baseline", "nosuchrun"]),
          ("report --test bad", ["report", q, *runs, "-m", "P@10", "--test", "zzz"]),
          ("report --correction bad", ["report", q, *runs, "-m", "P@10", "--correction", "zzz"]),
          ("report --format bad", ["report", q, *runs, "-m", "P@10", "--format", "docx"]),
          ("compare --test bad", ["compare", q, *runs, "-m", "P@10", "--test", "zzz"]),
          ("compare --assessment bad", ["compare", q, *runs, "-m", "P@10", "--assessment", "Judgd"]),
          ("judge-next -n 0", ["judge-next", q, *runs, "-n", "0"]),
          ("judge-next -n -3", ["judge-next", q, *runs, "-n", "-3"]),
          ("judge-next -n 10000000000000", ["judge-next", q, *runs, "-n", "10000000000000"]),
          ("judge-next --strategy bad", ["judge-next", q, *runs, "--strategy", "zzz"])]
    for command in ("report", "compare", "judge-next", "evaluate"):
        extra = ["-m", "P@10"] if command in ("report", "compare") else []
        v += [(f"{command}: qrels missing", [command, f["missing"], *runs, *extra]),
              (f"{command}: qrels is a folder", [command, f["dir"], *runs, *extra]),
              (f"{command}: qrels empty", [command, f["empty"], *runs, *extra]),
              (f"{command}: a run missing", [command, q, f["missing"], *runs[1:], *extra]),
              (f"{command}: a run empty", [command, q, f["empty"], *runs[1:], *extra]),
              (f"{command}: runs given as qrels", [command, run, *runs, *extra])]
    rq = ["--qrels", q, "--runs", *runs]
    v += [("reproduce: unknown id", ["reproduce", "baillie2007-table9"]),
          ("reproduce: no id", ["reproduce"]),
          ("reproduce: --list with an id", ["reproduce", "--list", "baillie2007-table1"]),
          ("reproduce: --qrels without --runs", ["reproduce", "baillie2007-table1", "--qrels", q]),
          ("reproduce: --groups without data", ["reproduce", "buttcher2007-table2", "--groups", f["groups"]]),
          ("reproduce: --groups missing file", ["reproduce", "buttcher2007-table2", *rq, "--groups", f["missing"]]),
          ("reproduce: --groups is the qrels", ["reproduce", "buttcher2007-table2", *rq, "--groups", q]),
          ("reproduce: --manual unknown run", ["reproduce", "buttcher2007-table3", *rq, "--manual", "nosuchrun"]),
          ("reproduce: --truth missing", ["reproduce", "thesis-fig7.2", *rq, "--truth", f["missing"]]),
          ("reproduce: --contributors unknown", ["reproduce", "ravana2010-fig1", *rq, "--contributors", "nosuch"])]
    options = ["noequals", "=1", "pool_depths=10", "pool_depths=0", "pool_depths=abc", "depths=0", "depths=10,5",
               "depths=1e3", "test=zzz", "alpha=5", "alpha=abc", "unknown=1", "pool_depths=10,10"]
    for option in options:
        v.append((f"reproduce baillie2008-table3 -o {option}", ["reproduce", "baillie2008-table3", *rq, "-o", option]))
    for option in ["methods=xyz", "methods=svm", "fractions=0", "fractions=2", "seed=-1", "depth=0"]:
        v.append((f"reproduce buttcher2007-table6 -o {option}", ["reproduce", "buttcher2007-table6", "-o", option]))
    for option in ["budgets=0", "budgets=abc", "background_rate=2", "seed=abc", "run_set=zzz"]:
        v.append((f"reproduce ravana2010-fig2 -o {option}", ["reproduce", "ravana2010-fig2", *rq, "-o", option]))
    for option in ["k=0", "k=10000000000", "pool_depth=0", "run=nosuch", "background_rate=-1"]:
        v.append((f"reproduce thesis-fig7.2 -o {option}", ["reproduce", "thesis-fig7.2", *rq, "-o", option]))
    for figure in [".", "/no/such/folder/f.png", "f.xyz", ".png", "figure", "sim/"]:
        v.append((f"reproduce --figure {figure}", ["reproduce", "thesis-fig7.2", *rq, "--figure", figure]))
    v.append(("reproduce a table --figure", ["reproduce", "baillie2007-table1", *rq, "--figure", "t.png"]))
    for m in ["P.100,1,100", "P.0", "P.", "P.abc", "ndcg.1", "utility.1,2", "nosuch", "iprec_at_recall.0.5,0.5",
              "P.10000000000", "rbp.p=2"]:
        v.append((f"trec_eval -m {m}", ["trec_eval", "-m", m, q, run]))
    v += [("trec_eval one file", ["trec_eval", q]), ("trec_eval run missing", ["trec_eval", q, f["missing"]]),
          ("trec_eval -l 0", ["trec_eval", "-l", "0", q, run]), ("trec_eval -M -1", ["trec_eval", "-M", "-1", q, run])]
    return v


def sweep_argument(argv: list[str], folder: Path) -> tuple[str, str]:
    """The outcome of one argument vector, run in ``folder`` (its files listed before and after)."""
    before = {p for p in folder.rglob("*")}
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()  # the drop-in writes bytes
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            code = irnb_main(argv)
        except SystemExit as stop:  # argparse's own errors
            code = stop.code
        except BaseException as exc:  # noqa: BLE001 - what escapes main is what a user sees as a traceback
            return "traceback", f"{type(exc).__name__}: {str(exc)[:150]}"
    written = sorted(str(p.relative_to(folder)) for p in set(folder.rglob("*")) - before)
    out.flush()
    stdout, lines = out.buffer.getvalue().decode("utf-8", errors="replace"), err.getvalue().strip().splitlines()
    asked = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--figure"]
    if [w for w in written if w not in asked]:
        return "anything else", f"wrote {written}"
    if code == 0:
        return "ran", stdout.strip().splitlines()[-1][:150] if stdout.strip() else "(no output)"
    errors = [line for line in lines if line.startswith(("irnb: error:", "irnb trec_eval: error:"))]
    drop_in = argv[:1] == ["trec_eval"]
    usage = [line for line in lines if not line.startswith(("irnb: error:", "irnb trec_eval: error:", "irnb: warning",
                                                            "irnb: note"))]
    if stdout:
        return "anything else", f"exit {code} after printing {len(stdout.splitlines())} lines: {errors[:1]}"
    if len(errors) != 1 or (usage and not (drop_in or lines[0].startswith("usage:"))):
        return "anything else", f"exit {code}, stderr {err.getvalue()[:200]!r}"
    if code != 2 and not (drop_in and code in (1, 2, 4)):
        return "anything else", f"exit {code}: {errors[0][:150]}"
    return "refused in one line", errors[0][:200]


def sweep_arguments(verbose: bool) -> int:
    """Run every argument variant; print the counts; the number of tracebacks and anything else."""
    counts: collections.Counter = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder, home = Path(tmp), os.getcwd()
        os.chdir(folder)  # a figure path is relative to here; nothing may be written elsewhere
        try:
            files = _write_small_collection(folder)
            found = argument_variants(files)
            for name, argv in found:
                outcome, detail = sweep_argument(argv, folder)
                counts[outcome] += 1
                if verbose or outcome in ("traceback", "anything else"):
                    print(f"{outcome:22} {name:48} {detail.replace(str(folder) + '/', '')[:150]}", flush=True)
        finally:
            os.chdir(home)
    print(f"{len(found)} bad argument vectors (report, compare, judge-next, reproduce, evaluate, trec_eval):")
    for outcome in ("refused in one line", "ran", "traceback", "anything else"):
        print(f"  {outcome}: {counts[outcome]}")
    return counts["traceback"] + counts["anything else"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trec-eval", type=Path, default=None, help="a built trec_eval 10.0 binary")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per variant")
    parser.add_argument("--only", choices=("files", "arguments"), default=None, help="run one of the two sweeps")
    args = parser.parse_args(argv)
    bad = 0
    if args.only != "files":
        bad += sweep_arguments(args.verbose)
    if args.only == "arguments":
        return 1 if bad else 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        binary = args.trec_eval or build_trec_eval(folder / "build")
        with tarfile.open(COVID / "runs-round1.tar.xz") as tar:
            run_data = tar.extractfile(f"./{RUN_NAME}").read()
        qrels_data = (COVID / "qrels-rnd1.txt").read_bytes()
        counts: collections.Counter = collections.Counter()
        found = variants()
        for name, which, change in found:
            run, qrels = (change(run_data), qrels_data) if which == "run" else (run_data, change(qrels_data))
            outcome, detail = sweep_one(binary, folder, name, run, qrels)
            counts[outcome] += 1
            if args.verbose or outcome == "anything else":
                detail = detail.replace(str(folder) + "/", "")
                print(f"{outcome:24} {name:45} {detail[:150]}")
    print(f"{len(found)} variants of {RUN_NAME} and qrels-rnd1.txt (API + CLI against trec_eval 10.0 -c):")
    for outcome in ("refused, file and line", "refused, file", "equal to trec_eval", "anything else"):
        print(f"  {outcome}: {counts[outcome]}")
    return 1 if counts["anything else"] or bad else 0


if __name__ == "__main__":
    sys.exit(main())
