"""irnb.datasets.settings.base: a Setting knows only the design keys a paper reports, and
builds its collection with the parameters it declares."""

from __future__ import annotations

import pytest

from irnb.datasets import paper_setting
from irnb.datasets.settings import SETTINGS, Setting


def test_a_setting_rejects_a_design_key_it_does_not_know():
    with pytest.raises(ValueError, match=r"unknown reported key\(s\) \['pool'\]"):
        Setting(paper="x", name="X", reported={"pool": 5}, where="nowhere", params={})


def test_the_setting_is_built_with_its_declared_parameters():
    for paper, setting in SETTINGS.items():
        params = dict(paper_setting(paper).params)
        for name, value in setting.params.items():
            assert params[name] == value, (paper, name)
