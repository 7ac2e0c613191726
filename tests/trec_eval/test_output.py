"""The drop-in's output (irnb.trec_eval.output): trec_eval's line format and its help page."""

from __future__ import annotations

import io

from irnb.trec_eval.compute import score
from irnb.trec_eval.options import parse_args
from irnb.trec_eval.output import help_text, write
from irnb.trec_eval.table import TREC_MEASURES


def _lines(argv):
    options = parse_args(argv)[0]
    out = io.BytesIO()
    write(score({b"1": {b"a": 1, b"c": 0}}, {b"1": {b"a": 2.0, b"c": 1.0}}, options), b"tag", options, out)
    return out.getvalue().decode()


def test_lines_as_trec_eval_prints_them():
    # name padded to 22, a tab, the topic, a tab, counts as integers and the rest as %6.4f
    assert _lines(["-m", "num_ret", "-m", "map"]) == ("num_ret               \tall\t2\n"
                                                     "map                   \tall\t1.0000\n")
    assert _lines(["-q", "-m", "runid", "-m", "P.5"]) == ("P_5                   \t1\t0.2000\n"
                                                           "runid                 \tall\ttag\n"
                                                           "P_5                   \tall\t0.2000\n")
    assert _lines(["-n", "-m", "map"]) == ""  # -n: no summary, and no -q: nothing


def test_help_lists_every_measure_with_its_defaults():
    text = help_text()
    assert text.startswith("Usage: irnb trec_eval")
    assert all(f"\n  {m.name}" in text for m in TREC_MEASURES)
    assert "\n  P [5,10,15,20,30,100,200,500,1000]: precision" in text
