"""A live view's frame draws on matplotlib's and ipympl's own canvases."""

from __future__ import annotations

import ast
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

from irnb.views import frames  # noqa: E402

VIEWS = Path(frames.__file__).parent


@pytest.fixture
def keep_backend():
    """Importing ipympl makes it matplotlib's backend (ipympl/__init__.py): restore Agg."""
    backend = matplotlib.get_backend()
    yield
    matplotlib.use(backend)


def test_the_png_frame_is_matplotlibs_agg_canvas():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    frame = frames.Frame((2.0, 1.0), "png", (1, 2))
    assert type(frame.figure.canvas) is FigureCanvasAgg
    assert frame.figure.get_layout_engine() is not None  # constrained layout on every draw
    frame.render()
    assert bytes(frame.widget.value[:8]) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.filterwarnings("ignore:Passing unrecognized arguments:DeprecationWarning")  # ipympl's Toolbar
def test_the_ipympl_frame_is_ipympls_canvas(keep_backend):
    ipympl = pytest.importorskip("ipympl.backend_nbagg")
    frame = frames.Frame((2.0, 1.0), "ipympl", (1, 1))
    assert type(frame.figure.canvas) is ipympl.Canvas and frame.widget is frame.figure.canvas


def test_the_views_subclass_no_matplotlib_class_and_call_no_private_method():
    """No class of irnb.views derives from a matplotlib or ipympl class, and no attribute the
    views' code reads starts with one underscore on an object that is not irnb's own (self, a
    class of the module), except irnb's own marks (``_irnb…``) and IPython's display protocol
    (``_ipython_display_``, ``_repr_…_``)."""
    found_bases, private = [], []
    for path in sorted(VIEWS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and (node.module or "").startswith(("matplotlib", "ipympl")) for alias in node.names}
        own = {"self", "cls"} | {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found_bases += [(path.name, node.name) for b in node.bases if ast.unparse(b).split(".")[0] in imported]
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and not node.attr.startswith("_irnb") and not node.attr.endswith("_") \
                    and not (isinstance(node.value, ast.Name) and node.value.id in own):
                private.append((path.name, node.lineno, ast.unparse(node)))
    assert found_bases == []
    assert private == []
