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


def _text_boxes(figure) -> dict[str, tuple[float, ...]]:
    renderer = figure.canvas.get_renderer()
    out = {}
    for i, ax in enumerate(figure.axes):
        for name, text in (("x", ax.xaxis.label), ("y", ax.yaxis.label), ("title", ax.title)):
            if text.get_text():
                out[f"{i}{name}"] = tuple(round(v, 2) for v in text.get_window_extent(renderer).extents)
    return out


def _figure_with_labels(labels):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.0, 3.0), dpi=80)
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2)
    for ax in (left, right):
        ax.plot(range(len(labels)), range(len(labels)))
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlabel("score")
        ax.set_ylabel("run")
        ax.set_title("[B, T] per run")
    right.xaxis.tick_top()  # a title above tick labels on top
    return figure


def test_pinned_labels_and_titles_stay_where_matplotlib_put_them_and_follow_grown_tick_labels():
    short = ["a", "bb", "ccc"]
    auto = _figure_with_labels(short)
    auto.canvas.draw()
    placed = _text_boxes(auto)
    pinned = _figure_with_labels(short)
    pinned.canvas.draw()
    frames._pin_texts(pinned)
    pinned.canvas.draw()
    assert _text_boxes(pinned) == placed  # pinned where matplotlib placed them

    # a made-up counter-example: the tick labels grow, a pinned label stays and overlaps them
    long = ["a run name much longer than before", "bb", "ccc"]
    for ax in pinned.axes:
        ax.set_yticks(range(3), long)
    pinned.canvas.draw()
    grown = _figure_with_labels(long)
    grown.canvas.draw()
    assert _text_boxes(pinned)["0y"] != _text_boxes(grown)["0y"]
    frames._place_pinned_texts(pinned)  # placed again by the rule: where matplotlib puts them
    pinned.canvas.draw()
    expected = _text_boxes(grown)
    for key, box in _text_boxes(pinned).items():
        assert max(abs(a - b) for a, b in zip(box, expected[key], strict=True)) < 0.5, (key, box, expected[key])


def test_a_redraw_measures_fewer_texts_once_labels_and_titles_are_pinned(monkeypatch):
    """After the layout pass the labels and titles are pinned: a redraw of the frame measures
    fewer texts than matplotlib's own redraw of the same figure with nothing pinned."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    def fill(ax):
        ax.set_yticks(range(5), [f"run-{i}" for i in range(5)])
        ax.set_ylabel("run")
        ax.set_xlabel("score")
        ax.set_title("title")

    frame = frames.Frame((4.0, 2.0), "png", (1, 1))
    fill(frame.figure.axes[0])
    frame.render()
    plain = Figure(figsize=(4.0, 2.0), dpi=frame.figure.dpi)
    FigureCanvasAgg(plain)
    fill(plain.subplots())
    plain.canvas.draw()
    calls = []
    extent = Text.get_window_extent
    monkeypatch.setattr(Text, "get_window_extent", lambda self, *a, **k: calls.append(self) or extent(self, *a, **k))
    frame.render()
    pinned = len(calls)
    calls.clear()
    plain.canvas.draw()
    assert 0 < pinned < len(calls), (pinned, len(calls))
