"""The drop-in's command line (irnb.trec_eval.options): trec_eval's flags read into Options,
the measures marked, and usage errors that name the option, what it allows and what was given."""

from __future__ import annotations

import pytest

from irnb.trec_eval.options import Options, UsageError, parse_args


def test_flags_and_measures_are_read():
    options, rest, wanted = parse_args(["-q", "-c", "-l", "2", "-m", "P.5,10", "-m", "map", "qrels", "run"])
    assert options == Options(per_topic=True, complete=True, relevance_level=2,
                              measures={"P": "5,10", "map": None})
    assert (rest, wanted) == (["qrels", "run"], None)
    assert parse_args(["-h", "-v"])[2] == "help"  # help wins over version


def test_without_m_the_official_measures_are_marked():
    measures = parse_args([])[0].measures
    assert list(measures)[:3] == ["runid", "num_q", "num_ret"] and "map" in measures and "P" in measures
    assert set(measures.values()) == {None}  # each with its defaults


@pytest.mark.parametrize(("argv", "message"), [
    (["-l", "x"], "-l (relevance level) must be an integer ≥ 1, got 'x'"),
    (["-l", "0"], "-l (relevance level) must be an integer ≥ 1, got '0'"),
    (["-R", "prefs"], "-R: irnb trec_eval reads rel_info format 'qrels' only, got 'prefs'"),
    (["--compat", "8"], "--compat must be one of '10' or '9' (trec_eval major version), got '8'"),
])
def test_usage_errors_name_the_option(argv, message):
    with pytest.raises(UsageError) as raised:
        parse_args(argv)
    assert str(raised.value) == message
