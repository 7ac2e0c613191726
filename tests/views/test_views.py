"""irnb.views as a package: importing it, or any of its modules, loads neither matplotlib nor
ipywidgets (the core and the command line stay light); they load when a view is built."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("ipywidgets")


def _loaded_after(code: str) -> dict[str, bool]:
    """Whether matplotlib and ipywidgets are imported after running ``code`` in a fresh interpreter."""
    probe = code + "\nimport json, sys\nprint(json.dumps({m: m in sys.modules for m in ('matplotlib', 'ipywidgets')}))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_importing_the_views_loads_no_plotting_or_widgets():
    modules = "base, bias, controls, decision, frames, intervals, layout, text_cache, unjudged"
    assert _loaded_after(f"from irnb.views import {modules}") == {"matplotlib": False, "ipywidgets": False}


def test_building_a_view_loads_them():
    # the check above can fail: the same probe sees both once a view is made
    code = ("from irnb.datasets import simulate\nfrom irnb import widgets\n"
            "widgets.intervals_view(simulate(seed=3, num_topics=3, num_runs=6, num_groups=2, docs_per_topic=400, "
            "run_depth=20, pool_depth=5, median_relevant=10, novel_runs=1, keyword_runs=1).experiment)")
    assert _loaded_after(code) == {"matplotlib": True, "ipywidgets": True}
