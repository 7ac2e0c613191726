"""Sphinx configuration of irnb's documentation site.

Build it (every notebook is executed; any warning or execution error fails the build)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The notebooks are the jupytext sources in ``notebooks/`` (``docs/notebooks`` is a link to
that folder); myst-nb executes them and caches the results in ``docs/_build/.jupyter_cache``,
so a rebuild re-runs only the notebooks that changed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))                      # autodoc imports this checkout
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
os.environ.pop("MPLBACKEND", None)                 # the kernels use matplotlib's inline backend

import irnb  # noqa: E402

project = "irnb"
author = "the irnb authors"
copyright = "the irnb authors"
release = version = irnb.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "sphinxarg.ext",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "notebooks/*.ipynb", "notebooks/.ipynb_checkpoints", "notebooks/**/.ipynb_checkpoints",
                    "Thumbs.db", ".DS_Store"]

# MyST: $…$ maths in the prose and in the computed sentences (text/markdown outputs).
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "html_image"]
myst_heading_anchors = 3
nb_render_markdown_format = "myst"

# Execute every notebook; an error in any cell (a stale claim included) fails the build.
nb_execution_mode = "cache"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True

autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autosummary_generate = False
napoleon_google_docstring = False
napoleon_numpy_docstring = True

html_theme = "alabaster"
html_theme_options = {"page_width": "1240px", "sidebar_width": "230px"}   # room for the wide tables
html_title = f"irnb {release}"
html_static_path: list[str] = []
