"""irnb.teaching: the notebooks' claim, search, listing and folded answers."""

from __future__ import annotations

import pytest

from irnb.teaching import StaleClaim, answer, claim, listing, percent, say, search


def test_a_false_claim_names_the_sentence_and_the_evidence():
    with pytest.raises(StaleClaim, match=r"the text says “x is two”, but the data no longer supports it \(x = 1\)"):
        claim(1 == 2, "x is two", "x = 1")
    claim(True, "never raises")


def test_search_returns_the_first_match_and_counts_what_ruled_the_others_out():
    conditions = [("odd", lambda n: n % 2 == 1), ("above 4", lambda n: n > 4)]
    assert search("number", [(2,), (3,), (5,), (7,)], conditions) == (5,)
    with pytest.raises(StaleClaim, match=r"no number fits the text any more — of 3 candidates, "
                                         r"“odd” ruled out 1; “above 4” ruled out 2"):
        search("number", [(1,), (2,), (3,)], conditions)


def test_listing_and_percent():
    assert listing([10]) == "10"
    assert listing([500, 1000], prefix="@") == "@500 and @1000"
    assert listing(["a", "b", "c"]) == "a, b and c"
    with pytest.raises(ValueError, match="at least one item"):
        listing([])
    assert percent(0.125) == "12 %" and percent(0.125, digits=1) == "12.5 %"   # round half to even


def test_say_and_answer_show_markdown(monkeypatch):
    pytest.importorskip("IPython")
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    say("""
        Two *words*.
    """)
    answer("It is **4**.")
    assert shown[0].data == "Two *words*."
    assert shown[1].data == "<details>\n<summary>Answer</summary>\n\nIt is **4**.\n\n</details>"
