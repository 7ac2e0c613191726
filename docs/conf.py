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
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))   # this site's own extensions
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
    "measure_catalogue",                           # definitions.md's entry for every measure family
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_generated", "notebooks/*.ipynb", "notebooks/.ipynb_checkpoints",
                    "notebooks/**/.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]

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
html_theme_options = {"page_width": "1340px", "sidebar_width": "210px"}   # room for the wide tables and figures
html_title = f"irnb {release}"
html_static_path = ["_static"]
html_css_files = ["irnb.css"]

# MathJax (2.7) from the jupyter-server-mathjax package, copied into the site: the pages
# render their maths without network access.
import jupyter_server_mathjax  # noqa: E402

html_static_path.append(str(Path(jupyter_server_mathjax.__file__).parent / "static"))
mathjax_path = "MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
# that package carries the STIX-Web fonts only (as Jupyter configures them); the pages mark
# their body "ignore", so MathJax is told to typeset the maths and the notebooks' outputs
mathjax2_config = {"HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web", "imageFont": None},
                   "SVG": {"font": "STIX-Web"},
                   "tex2jax": {"processClass": "math|output_area|cell_output", "processEscapes": True}}

# A live widget cannot run on a static page: the notebooks' widgets also offer a still
# picture of their figure (irnb.views.layout.still), which the site shows instead; no
# widget manager is loaded from a CDN.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js: dict = {}


def _no_mailto(app, doctree) -> None:
    """docutils reads a measure name such as ``nDCG@20`` in running text as an e-mail
    address; these pages have none, so every mailto: reference becomes its text again."""
    from docutils import nodes

    for ref in list(doctree.findall(nodes.reference)):
        if ref.get("refuri", "").startswith("mailto:"):
            ref.replace_self(nodes.Text(ref.astext()))


def setup(app):
    app.connect("doctree-read", _no_mailto)
