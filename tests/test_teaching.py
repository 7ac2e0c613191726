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


def test_summarize_reproductions_groups_by_verdict(monkeypatch):
    pytest.importorskip("IPython")
    from types import SimpleNamespace

    from irnb.teaching import summarize_reproductions

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))

    def rep(rid, verdict):
        headline = None if verdict is None else SimpleNamespace(verdict=verdict)
        return SimpleNamespace(id=rid, data="toy data", headline=headline)

    summarize_reproductions([rep("a", "agrees"), rep("b", "differs"), None, rep("c", "agrees"), rep("d", None),
                             rep("e", "partly"), rep("f", "depends on the reading")])
    assert shown[0].data == ("Of the 6 reproductions above, on toy data: `a` and `c`: every claim of the paper's "
                             "headline holds; `e`: some claims hold and some do not (see each one's claims); `b`: no "
                             "testable claim holds; `f`: the outcome depends on a definitional reading; `d`: no claim "
                             "this data can test (see the notes).")
    summarize_reproductions([None])
    assert "None of these reproductions" in shown[1].data


def test_show_reproduction_of_an_unknown_id_says_so(monkeypatch):
    pytest.importorskip("IPython")
    from irnb.teaching import show_reproduction

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    assert show_reproduction("nobody2099-table9") is None
    assert shown[0].data == "*`nobody2099-table9`: this version of irnb has no reproduction of it yet.*"
