"""What the Büttcher and Ravana reproductions share (irnb.papers._common): the pool depth and
contributors they use, the split of the contributors into manual and automatic runs."""

from __future__ import annotations

import pandas as pd
import pytest

from irnb import Experiment
from irnb.papers import ReproductionNeeds, Source
from irnb.papers._common import manual_split, setting


def test_judged_depth_and_setting_by_hand():
    from irnb.papers import Source
    from irnb.papers._common import setting
    from irnb.pooling import judged_depth

    # a: x, y, u (u unjudged) → judged to depth 2; b: y, x → its whole ranking (2 documents),
    # counted as judged past its end up to the array depth 3; c: u first → depth 0.
    runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 2 + ["c"], "qid": "1",
                         "docno": ["x", "y", "u", "y", "x", "u"], "score": [3, 2, 1, 2, 1, 1]})
    exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]}), contributors=["a", "b"])
    assert judged_depth(exp).tolist() == [2, 3, 0]
    st = setting(Source(exp, "tiny"), None, "test")
    assert st.contributors == ("a", "b") and st.depth == 2  # median of 2 and 3, rounded down
    assert setting(Source(exp, "tiny"), 5, "test").depth == 5


def test_setting_without_contributors_by_hand():
    # the runs of the test above, none marked as contributing: a judged to 2, b to 3, c to 0;
    # depth 2 (more than half of the 3 runs are judged to 2). Büttcher et al.'s rule takes the
    # runs judged to depth 2 on every topic (a, b); irnb's fallback every run; at a given depth
    # 4 no run qualifies, so every run again.
    runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 2 + ["c"], "qid": "1",
                         "docno": ["x", "y", "u", "y", "x", "u"], "score": [3, 2, 1, 2, 1, 1]})
    exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]}), contributors=[])
    source = Source(exp, "tiny")
    covered = setting(source, None, "test", covered=True)
    assert covered.depth == 2 and covered.contributors == ("a", "b")
    assert "the 2 runs whose top 2 the qrels judge on every topic they answer" in covered.notes[0]
    assert setting(source, None, "test").contributors == ("a", "b", "c")
    assert "every run is treated as one (irnb's fallback)" in setting(source, None, "test").notes[0]
    deep = setting(source, 4, "test", covered=True)
    assert deep.contributors == ("a", "b", "c") and "no run's top 4 is judged" in deep.notes[0]


def test_manual_split_by_hand():
    runs = pd.DataFrame({"run": ["a", "b", "c"], "qid": "1", "docno": "x", "score": 1.0})
    exp = Experiment(runs, pd.DataFrame({"qid": "1", "docno": ["x"], "grade": [1]}), contributors=["a", "b"])
    st = setting(Source(exp, "tiny"), 1, "test")
    assert manual_split(Source(exp, "tiny", manual=("b", "c")), st, "test") == (["a"], ["b"])  # c does not contribute
    with pytest.raises(ReproductionNeeds, match=r"test needs manual and automatic runs among the contributing runs; "
                                                r"tiny has 0 manual and 2 automatic contributors"):
        manual_split(Source(exp, "tiny", manual=("c",)), st, "test")
    with pytest.raises(ValueError, match=r"test: manual names runs the data lacks: \['z'\]"):
        manual_split(Source(exp, "tiny", manual=("z",)), st, "test")
