"""A live view's frame draws on matplotlib's and ipympl's own canvases, with text from bitmaps
(irnb.views.text_cache): the one bespoke part the browser budget needs."""

from __future__ import annotations

import ast
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from irnb.views import frames  # noqa: E402

VIEWS = Path(frames.__file__).parent


def test_the_png_frame_is_matplotlibs_agg_canvas():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from irnb.views.text_cache import text_cache_canvas

    frame = frames.Frame((2.0, 1.0), "png", (1, 2))
    assert type(frame.figure.canvas) is text_cache_canvas(FigureCanvasAgg)
    frame.render()
    assert bytes(frame.widget.value[:8]) == b"\x89PNG\r\n\x1a\n"
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    assert frame.layouts == 1  # laid out once, then frozen
    assert not isinstance(frame.figure.get_layout_engine(), ConstrainedLayoutEngine)
    frame.render()
    assert frame.layouts == 1


def test_the_views_subclass_no_matplotlib_class_and_call_no_private_method():
    """No class of irnb.views but the text cache's renderer derives from a matplotlib or ipympl
    class, and no attribute the
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
    assert found_bases == [("text_cache.py", "TextCacheRendererAgg")]
    assert private == []
