"""trec_eval's measure table (irnb.trec_eval.table): how each measure takes its parameters and
how it is printed, read from the family that declares its name."""

from __future__ import annotations

from irnb.trec_eval.table import BY_NAME


def test_kinds_and_defaults():
    assert (BY_NAME["P"].kind, BY_NAME["P"].default) == ("cut_long", (5, 10, 15, 20, 30, 100, 200, 500, 1000))
    assert BY_NAME["iprec_at_recall"].kind == "cut_double"
    assert BY_NAME["iprec_at_recall"].default == tuple(i / 10 for i in range(11))
    assert (BY_NAME["utility"].kind, BY_NAME["utility"].default) == ("params", (1.0, -1.0, 0.0, 0.0))
    assert (BY_NAME["rbp"].kind, BY_NAME["rbp"].pairs) == ("pairs", ("p",))


def test_format_and_summary_follow_the_family():
    assert (BY_NAME["map"].family, BY_NAME["map"].fmt, BY_NAME["map"].summary) == ("AP", "double", "mean")
    assert (BY_NAME["num_ret"].fmt, BY_NAME["num_ret"].summary) == ("long", "sum")  # a count: summed, an integer
    assert (BY_NAME["runid"].family, BY_NAME["runid"].fmt, BY_NAME["runid"].per_topic) == (None, "string", False)
