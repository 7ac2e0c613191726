"""The papers' simulated settings: lookup, caching, seeds, and how a reproduction names them."""

from __future__ import annotations

import pytest

import irnb
from irnb.cli import main
from irnb.datasets import default, paper_setting
from irnb.datasets.settings import SETTINGS, paper_of, setting_for


def test_every_reproduction_has_its_papers_setting():
    papers = {paper_of(id) for id in irnb.reproduction_ids()}
    assert papers == set(SETTINGS)
    for paper in papers:
        assert setting_for(paper).paper == paper


def test_an_id_and_its_paper_give_the_same_collection_and_a_seed_another():
    a = paper_setting("thesis-fig7.1")
    assert a is paper_setting("thesis") is paper_setting("thesis", seed=0)
    b = paper_setting("thesis", seed=1)
    assert b.seed == 1 and a.seed == 0
    assert len(b.topics) == len(a.topics) == setting_for("thesis").params["num_topics"]
    assert not (b.truth.table.column("grade").to_numpy() == a.truth.table.column("grade").to_numpy()).all()


def test_an_unknown_paper_is_named_with_a_suggestion():
    with pytest.raises(ValueError, match=r"no setting for 'buttcher2006-table3'; did you mean 'buttcher2007'"):
        paper_setting("buttcher2006-table3")
    with pytest.raises(TypeError, match="expected a reproduction id or paper key"):
        paper_setting(7)
    with pytest.raises(ValueError, match="seed"):
        paper_setting("thesis", seed=-1)


def test_reproduce_without_data_runs_on_the_papers_setting_and_names_it():
    rep = irnb.reproduce("thesis-fig7.2")
    setting = setting_for("thesis-fig7.2")
    assert rep.notes.startswith(setting.describe())
    assert rep.data == "simulated TREC MedTrack setting (seed 0)"
    again = irnb.reproduce("thesis-fig7.2", seed=1)
    assert again.data == "simulated TREC MedTrack setting (seed 1)"
    assert not again.table.equals(rep.table)


def test_an_explicit_collection_is_used_as_it_is():
    rep = irnb.reproduce("thesis-fig7.2", default())
    assert "Simulated setting:" not in rep.notes and rep.data == "embedded default (seed 0)"


def test_seed_reaches_the_reproductions_own_draws_too():
    c = default()
    a = irnb.reproduce("buttcher2007-fig1", c, fractions=(0.1, 1.0), seed=3)
    b = irnb.reproduce("buttcher2007-fig1", c, fractions=(0.1, 1.0), seed=4)
    assert "seed 3" in a.notes and "seed 4" in b.notes and not a.table.equals(b.table)


def test_the_command_takes_a_seed(capsys):
    assert main(["reproduce", "thesis-fig7.2", "--seed", "1"]) == 0
    assert "simulated TREC MedTrack setting (seed 1)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit:
        main(["reproduce", "thesis-fig7.2", "--seed", "x"])
    assert exit.value.code == 2 and "--seed: invalid int value: 'x'" in capsys.readouterr().err


def test_ravana_setting_is_trec9s_design():
    c = paper_setting("ravana2010")
    reported = setting_for("ravana2010").reported
    info = c.run_info
    assert len(c.topics) == reported["topics"] == 50
    assert len(info) == reported["runs"] == 105
    assert int(info["contributor"].sum()) == reported["contributors"] == 59
    assert c.params["pool_depth"] == reported["pool_depth"] == 100 and c.params["run_depth"] == 1000
