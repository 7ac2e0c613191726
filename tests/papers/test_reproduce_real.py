"""Every reproduction id on the real data of ../shared: on TREC-COVID round 1 each id either
runs or names what the data lacks, and the TREC-COVID column of docs/reproductions.md is what
it computes; on CLEF eHealth 2016 (no manual runs marked, no document texts) exactly
the ids that need those say so, naming every need, and the others run. The Baillie and
thesis ids are run on both collections by tests/papers/test_reproduce.py; this file covers the
Büttcher and Ravana ids there and the page's cells those tests do not check."""

from __future__ import annotations

import pandas as pd
import pytest

import irnb
from irnb.papers import Reproduction, ReproductionNeeds

from test_reproduce import MINE

OTHERS = [i for i in irnb.reproduction_ids() if i not in MINE]  # Büttcher and Ravana ids
# what CLEF eHealth 2016 lacks for each id that cannot run on it (its loader gives the groups)
CLEF_LACKS = {"buttcher2007-table3": ["which runs are manual"], "buttcher2007-table4": ["which runs are manual"],
              "buttcher2007-table5": ["which runs are manual"], "buttcher2007-table6": ["document texts"],
              "buttcher2007-table7": ["document texts"],
              "buttcher2007-table8": ["which runs are manual", "document texts"]}


@pytest.fixture(scope="module")
def page(table_tool) -> pd.DataFrame:
    return table_tool.parse(table_tool.PAGE.read_text(encoding="utf-8")).set_index("id")


def test_other_ids_are_the_buttcher_and_ravana_ones():
    assert [i.split("-")[0] for i in OTHERS] == ["buttcher2007"] * 9 + ["ravana2010"] * 5
    assert set(CLEF_LACKS) < set(OTHERS)


@pytest.mark.shared
def test_every_other_id_on_trec_covid_is_the_pages_cell(covid_dir, table_tool, page):
    """As tools/reproduction_table.py runs them (leaderboard's manual runs): the page's
    TREC-COVID cell and verdict for each Büttcher and Ravana id; those needing document
    texts say so."""
    from irnb.datasets.real import trec_covid_leaderboard, trec_covid_round1

    covid = trec_covid_round1(covid_dir)
    board = trec_covid_leaderboard(covid_dir)
    manual = [r for r in covid.run_names if board.loc[r, "runtype"] == "manual"]
    assert len(manual) == 43
    for id in OTHERS:
        got = table_tool.outcome(id, covid, label=table_tool.COVID_LABEL, manual=manual)
        assert page.loc[id, "irnb: TREC-COVID"] == got["irnb"], id
        assert page.loc[id, "verdict: TREC-COVID"] == got["verdict"], id
        if id in ("buttcher2007-table6", "buttcher2007-table7", "buttcher2007-table8"):
            assert got["irnb"].startswith("needs document texts") and got["verdict"] == "n/a", id
        else:
            # Table 1 summarises the qrels: nothing to agree with
            verdicts = ("n/a",) if id == "buttcher2007-table1" else ("agrees", "partly", "differs",
                                                                     "depends on the reading")
            assert got["paper"] is not None and got["verdict"].split(" — ")[0] in verdicts, id


@pytest.mark.shared
def test_every_other_id_on_clef_2016_runs_or_names_every_need(shared_dir):
    from conftest import shared_path

    from irnb.datasets.real import clef_ehealth_2016_task2

    clef = clef_ehealth_2016_task2(shared_path("data", "clef-ehealth-2016-irtask2"))
    ran = []
    for id in OTHERS:
        try:
            rep = irnb.reproduce(id, clef, label="CLEF eHealth 2016")
        except ReproductionNeeds as why:
            text = str(why)
            assert text.startswith(f"{id} needs ") and text.endswith("CLEF eHealth 2016 has none" if
                                                                      len(CLEF_LACKS[id]) == 1 else
                                                                      "CLEF eHealth 2016 has none of these"), text
            named = [need for need in ("which runs are manual", "document texts", "run groups") if need in text]
            assert named == CLEF_LACKS[id], id
            continue
        assert isinstance(rep, Reproduction) and rep.data == "CLEF eHealth 2016"
        assert isinstance(rep.table, pd.DataFrame) and not rep.table.empty and rep.headline is not None, id
        ran.append(id)
    assert ran == [i for i in OTHERS if i not in CLEF_LACKS]


def test_reproduce_names_every_need_at_once():
    """A reproduction needing two things the data lacks names both (before: only the first)."""
    from irnb.datasets import default

    exp = default().experiment  # plain data: no manual runs named, no texts
    with pytest.raises(ReproductionNeeds, match=r"^buttcher2007-table8 needs which runs are manual \(.*\) and "
                                                r"document texts \(.*\); your data has none of these$"):
        irnb.reproduce("buttcher2007-table8", exp)
    with pytest.raises(ReproductionNeeds, match=r"^buttcher2007-table6 needs document texts \(.*\); "
                                                r"your data has none$"):
        irnb.reproduce("buttcher2007-table6", exp)


# the default column of ids whose own tests run them in a fast setting or not at all with
# their defaults (tests/papers/test_*reproduc*.py check the rest); table6 and table7 (~5 and ~10 s)
# are left to `python tools/reproduction_table.py --check`
DEFAULT_UNCHECKED = ["buttcher2007-fig1", "buttcher2007-table5", "buttcher2007-table8"]


def test_page_default_column_for_ids_checked_nowhere_else(table_tool, page):
    computed = table_tool.rows(ids=DEFAULT_UNCHECKED, covid=None).set_index("id")
    for column in ("paper's headline", "irnb: paper's setting"):
        assert page.loc[DEFAULT_UNCHECKED, column].tolist() == computed[column].tolist(), column
