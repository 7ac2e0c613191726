"""irnb.datasets.real: the shared data folder is found above the working folder, named directly,
or switched off, and its absence is explained."""

from __future__ import annotations

import pytest




def test_shared_data_finds_the_folder_above_the_working_folder_or_says_none(tmp_path, monkeypatch):
    from irnb.datasets import shared_data, shared_data_missing

    monkeypatch.delenv("IRNB_SHARED_DATA", raising=False)
    (tmp_path / "shared" / "data" / "demo").mkdir(parents=True)
    (tmp_path / "work" / "notebooks").mkdir(parents=True)
    assert shared_data("demo", start=tmp_path / "work" / "notebooks") == tmp_path / "shared" / "data" / "demo"
    assert shared_data("absent", start=tmp_path / "work") is None
    assert "on Binder and in an installed wheel there never is one" in shared_data_missing("absent")
    monkeypatch.setenv("IRNB_SHARED_DATA", "0")           # the embedded default, even where the data is
    assert shared_data("demo", start=tmp_path / "work") is None
    assert "IRNB_SHARED_DATA=0 asks for the embedded default" in shared_data_missing("demo")
    monkeypatch.setenv("IRNB_SHARED_DATA", str(tmp_path / "shared" / "data"))   # a folder named directly
    assert shared_data("demo", start="/") == tmp_path / "shared" / "data" / "demo"
    with pytest.raises(ValueError, match="one collection folder such as 'trec-covid-round1', got '../x'"):
        shared_data("../x")
