"""The glossary fixes the words the code uses (judged, assessed, pooled, unjudged; the three
depths), and the declared parameters use them in those senses."""

from __future__ import annotations

import re
from pathlib import Path

from irnb import params

REPO = Path(__file__).resolve().parents[1]
TERMS = ("judged", "assessed", "pooled", "unjudged", "pool depth", "measurement depth", "run depth")


def _defined_terms() -> dict[str, str]:
    """{term: its definition} from the ```{glossary} blocks of docs/glossary.md."""
    text = (REPO / "docs" / "glossary.md").read_text(encoding="utf-8")
    terms: dict[str, str] = {}
    for block in re.findall(r"```\{glossary\}\n(.*?)```", text, re.S):
        term = None
        for line in block.splitlines():
            if line and not line.startswith(" "):
                term = line.strip()
                terms[term] = ""
            elif term is not None:
                terms[term] += " " + line.strip()
    return terms


def test_the_glossary_defines_every_fixed_word():
    terms = _defined_terms()
    missing = [t for t in TERMS if t not in terms]
    assert missing == [], f"docs/glossary.md does not define {missing}"
    assert all(len(terms[t].split()) >= 8 for t in TERMS), "each definition says what the word means"


def test_the_three_depths_are_declared_with_their_glossary_words():
    assert params.POOL_DEPTH.doc.startswith("pool depth d")
    assert params.MEASUREMENT_DEPTH.doc.startswith("measurement depth k")
    assert params.RUN_DEPTH.doc.startswith("run depth")
    assert params.POOL_DEPTH.symbol == "d" and params.MEASUREMENT_DEPTH.symbol == "k"


def test_the_glossary_page_is_in_the_toctree():
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    assert re.search(r"^glossary$", index, re.M)


def test_judged_view_names_the_run_depth_max_depth_and_keeps_depth_as_a_deprecated_alias():
    import pandas as pd
    import pytest

    from irnb import Experiment
    from irnb.metrics import judged_view

    qrels = pd.DataFrame({"qid": "1", "docno": ["a", "b"], "grade": [1, 0]})
    runs = pd.DataFrame({"run": "r", "qid": "1", "docno": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    exp = Experiment(runs, qrels)
    new = judged_view(exp, max_depth=2)
    with pytest.warns(DeprecationWarning, match="max_depth"):
        old = judged_view(exp, depth=2)
    assert new.length.tolist() == old.length.tolist() == [[2]]
    assert (new.grade == old.grade).all()
