"""``irnb trec_eval``: a drop-in for trec_eval 10.0 that prints what it prints, line for line.

``irnb trec_eval [options] QRELS RUN`` takes trec_eval's options for TREC qrels and results
(``-q``, ``-m name[.params]``, ``-c``, ``-n``, ``-l N``, ``-M N``, ``-J``, ``-N N``,
``-R qrels``, ``-T trec_results``, ``-v``, ``-h``; RUN ``-`` reads standard input) and
writes trec_eval's rows (``runid``, ``num_q``, ``num_ret`` … ``map``, ``P_5`` …) in its
order and format (``%-22s\\t%s\\t%6.4f``). ``--compat 9`` follows trec_eval 9.x instead.

Measures are trec_eval's table (:data:`TREC_MEASURES`, in its print order), each mapped to
an irnb :class:`~irnb.measures.Measure` whose kernel (:mod:`irnb.kernels`) computes it;
the nicknames ``official``, ``set`` and ``all_trec`` expand as in trec_eval. Measures
outside ``all_trec`` (preference measures, ``qrels_jg``, ``yaap``, ``dcg``) are refused
with a message saying so; gain parameters (``ndcg.1=3,2=9``) are computed as trec_eval does.

Rules where trec_eval 10.0 and 9.x differ (``--compat 9``):

* Scores: 10.0 compares them as doubles, 9.x as 32-bit floats (so do pytrec_eval and
  ir_measures): scores equal in float32 tie and are ordered by docno.
* ``iprec_at_recall`` and ``11pt_avg`` find the c-th relevant document with
  c = round(x·R) in 10.0, c = floor(x·R + 0.9) in 9.x.
* ``all_trec`` holds ``unj``, ``rbp`` and ``rbp_resid`` in 10.0 only (9.x has no such
  measures).
* A qrels topic the run does not answer stops trec_eval 10.0 without ``-c`` (exit status 4,
  after the per-topic rows printed so far); 9.x skips it. With ``-c`` both score it as an
  empty ranking; 10.0 prints its per-topic rows with ``-q``, 9.x does not.

One job per module: :mod:`~irnb.trec_eval.options` (the command line),
:mod:`~irnb.trec_eval.table` (trec_eval's measure table and nicknames),
:mod:`~irnb.trec_eval.reading` (the two files, by :mod:`irnb.sources` and the line rules of
:mod:`irnb.lines`, without pyarrow so that a call starts in about the time numpy takes to
import), :mod:`~irnb.trec_eval.compute` (the values, through :mod:`irnb.kernels`, in
trec_eval's ranking order, :func:`irnb.ranking.trec_ranking`; gains given on the command line,
``-m ndcg.1=3,2=9``, are the measure's ``gains`` parameter, ``nDCG(gains=1:3,2:9)``) and
:mod:`~irnb.trec_eval.output` (trec_eval's lines).
Errors name file and line and go to standard error.

>>> import io
>>> out = io.BytesIO()
>>> qrels = read_qrels(b"1 0 d1 1\\n1 0 d2 0\\n", "q.txt")
>>> run, runid = read_run(b"1 Q0 d2 1 2.0 r1\\n1 Q0 d1 2 1.0 r1\\n", "r.txt")
>>> evaluate(qrels, run, runid, parse_args(["-m", "P.1,2", "q.txt", "r.txt"])[0], out)
0
>>> out.getvalue().decode().splitlines()
['P_1                   \\tall\\t0.0000', 'P_2                   \\tall\\t0.5000']
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .compute import MeasureInitError, MissingTopic, NoTopics, score
from .options import USAGE, VERSIONS, Options, UsageError, parse_args
from .output import help_text, write
from .reading import RepeatedDocno, read_bytes, read_qrels, read_run
from .table import NICKNAMES, TREC_MEASURES

__all__ = ["TREC_MEASURES", "NICKNAMES", "VERSIONS", "UsageError", "parse_args", "evaluate", "main"]

_EXIT_USAGE, _EXIT_INPUT, _EXIT_MISSING_TOPIC, _EXIT_NO_TOPICS = 1, 2, 4, 7  # trec_eval's (4 also: duplicate docs)


def evaluate(qrels, run, runid: bytes, options: Options, out) -> int:
    """Write trec_eval's lines for a run to ``out`` (a binary stream); the exit status 0, or
    :class:`~irnb.trec_eval.compute.MissingTopic` after the per-topic lines where trec_eval
    10.0 stops."""
    scores = score(qrels, run, options)
    write(scores, runid, options, out)
    if scores.stop is not None:
        raise MissingTopic(scores.topics[scores.stop].decode("utf-8"))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``irnb trec_eval ARGS``: the exit status (0, or trec_eval's: 1 usage, 2 input, 4 a
    qrels topic without results or a docno repeated within a topic, 7 no topic in common)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        options, rest, wanted = parse_args(argv)
        if wanted == "help":
            sys.stdout.write(help_text())
            return 0
        if wanted == "version":
            print(f"irnb trec_eval: trec_eval version {options.compat}.0 compatible", file=sys.stderr)
            return 0
        if len(rest) != 2:
            raise UsageError(f"expected rel_info_file and results_file, got {len(rest)} argument(s)")
        qrels_path, run_path = rest
        qrels = read_qrels(read_bytes(qrels_path), qrels_path)
        label = "<stdin>" if run_path == "-" else run_path
        run, runid = read_run(read_bytes(run_path), label)
        return evaluate(qrels, run, runid, options, sys.stdout.buffer)
    except UsageError as err:
        sys.stderr.write(f"irnb trec_eval: error: {err}\n{USAGE}")
        return _EXIT_USAGE
    except MeasureInitError as err:
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return err.status
    except NoTopics as err:
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return _EXIT_NO_TOPICS
    except RepeatedDocno as err:  # trec_eval: "duplicate docs", exit status 4
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return _EXIT_MISSING_TOPIC
    except MissingTopic as err:
        print(f"irnb trec_eval: error: qrels topic {err.args[0]!r} has no results in the run; trec_eval 10.0 "
              "stops here (exit status 4). Use -c to score it as an empty ranking, or --compat 9 to skip it",
              file=sys.stderr)
        return _EXIT_MISSING_TOPIC
    except (ValueError, OSError) as err:
        print(f"irnb trec_eval: error: {err}", file=sys.stderr)
        return _EXIT_INPUT
