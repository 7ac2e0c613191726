"""irnb.views.text_cache: the views' canvases draw text from a cache of bitmaps, with
matplotlib's ink, layout and colour, through matplotlib's public methods only."""

from __future__ import annotations

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
ipywidgets = pytest.importorskip("ipywidgets")

from view_checks import restored_backend, small_experiment  # noqa: E402

from irnb import widgets  # noqa: E402
from irnb.views import text_cache  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    return small_experiment()


@pytest.fixture
def keep_backend():
    with restored_backend():
        yield


def _ink(pixels: np.ndarray) -> tuple[float, float, float]:
    """Total darkness of an RGBA picture on white and its centroid (x, y) in pixels."""
    dark = 255.0 - pixels[:, :, :3].astype(np.float64).mean(axis=2)
    total = dark.sum()
    ys, xs = np.indices(dark.shape)
    return total, float((xs * dark).sum() / total), float((ys * dark).sum() / total)


@pytest.mark.parametrize("text, options", [
    ("acorn-a1 · P@10", {"fontsize": 9}),
    ("topic 107", {"fontsize": 7, "rotation": 90, "color": "#D55E00"}),
    ("λ = 1 − Δ", {"fontsize": 11, "rotation": 30, "alpha": 0.5}),
    ("$\\alpha^2$", {"fontsize": 10}),  # mathtext: drawn by matplotlib as usual
])
def test_cached_text_is_matplotlibs_text_on_whole_pixels(text, options):
    """The views' canvas draws each text from a bitmap cache: the same ink as matplotlib's
    own drawing (within 3 %), at most half a pixel away (the origin snaps to a whole
    pixel), in the text's colour; drawn again, the very same pixels, with no new
    rasterisation."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    pictures = []
    for canvas in (FigureCanvasAgg, text_cache.text_cache_canvas(FigureCanvasAgg)):
        figure = Figure(figsize=(2.0, 1.2), dpi=80)
        canvas(figure)
        figure.text(0.3, 0.3, text, **options)
        figure.canvas.draw()
        pictures.append(np.asarray(figure.canvas.buffer_rgba()).copy())
    plain, cached = pictures
    (ink_p, x_p, y_p), (ink_c, x_c, y_c) = _ink(plain), _ink(cached)
    assert ink_c == pytest.approx(ink_p, rel=0.03)
    assert abs(x_c - x_p) <= 0.5 and abs(y_c - y_p) <= 0.5
    if "color" in options:  # fully covered pixels are the text's colour in both
        for picture in (plain, cached):
            darkest = picture[np.unravel_index(np.argmin(picture[:, :, :3].sum(axis=2)), picture.shape[:2])]
            assert list(darkest[:3]) == [0xD5, 0x5E, 0x00]
    entries = len(figure.canvas.text_bitmaps)
    assert entries >= (0 if text.startswith("$") else 1)
    figure.canvas.draw()
    np.testing.assert_array_equal(np.asarray(figure.canvas.buffer_rgba()), cached)
    assert len(figure.canvas.text_bitmaps) == entries


def test_a_redraw_with_the_same_labels_rasterises_no_text(experiment):
    view = widgets.intervals_view(experiment)
    cache = view.figure.canvas.text_bitmaps
    first, entries, start = view._canvas_widget.value, len(cache), view.controls["depth"].value
    view.controls["depth"].value = 7
    view.controls["depth"].value = start  # back: every label seen before
    assert len(cache) > entries  # depth 7 had its own title
    entries = len(cache)
    view.refresh()
    assert len(cache) == entries and view._canvas_widget.value == first


@pytest.mark.parametrize("family", ["sans-serif", "serif", "monospace"])
def test_the_text_canvas_lays_text_out_where_matplotlib_does(family):
    """The text canvas leaves text layout to matplotlib: every text's box — titles, tick
    labels, a two-line rotated label, sizes 7 to 14 pt — is where matplotlib's own Agg
    canvas puts it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    boxes = []
    for canvas in (FigureCanvasAgg, text_cache.text_cache_canvas(FigureCanvasAgg)):
        figure = Figure(figsize=(4.0, 3.0), dpi=80)
        canvas(figure)
        ax = figure.add_subplot()
        ax.set_title("depth-20 pool · P@10", fontsize=14, family=family)
        ax.set_yticks(range(3), ["acorn-a1", "birch-m2", "cedar-k3"], fontsize=9, family=family)
        ax.set_ylabel("rank change\n(reduced − full)", fontsize=11, family=family)
        figure.text(0.5, 0.05, "λ = 1 − Δ", fontsize=7, rotation=30, family=family)
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        texts = [t for t in figure.findobj(Text) if t.get_visible() and t.get_text()]
        boxes.append([(t.get_text(), tuple(np.round(t.get_window_extent(renderer).bounds, 6))) for t in texts])
    plain, cached = boxes
    assert len(plain) >= 6 and cached == plain


@pytest.mark.parametrize("base", ["agg", "ipympl"])
def test_the_canvases_use_no_private_matplotlib_method(base, keep_backend):
    """The text canvas and its renderer change matplotlib's drawing only
    through public methods: none of their own single-underscore methods bears a name that
    matplotlib's or ipympl's source uses (the text canvas once answered matplotlib's private
    ``_get_font_height_metrics``, which matplotlib asks a renderer for by name)."""
    import inspect
    from pathlib import Path

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    packages = [matplotlib]
    if base == "ipympl":
        ipympl = pytest.importorskip("ipympl.backend_nbagg")
        packages.append(pytest.importorskip("ipympl"))
        canvas_class = text_cache.text_cache_canvas(ipympl.Canvas)
    else:
        canvas_class = text_cache.text_cache_canvas(FigureCanvasAgg)
    renderer_class = type(text_cache.text_cache_canvas(FigureCanvasAgg)(Figure()).get_renderer())
    ours = [c for c in (*canvas_class.__mro__, *renderer_class.__mro__) if c.__module__.startswith("irnb.")]
    assert len(ours) == 2  # text canvas, text renderer
    names = {name for c in ours for name, value in vars(c).items()
             if inspect.isfunction(value) and name.startswith("_") and not name.startswith("__")}
    assert names  # the renderer's own helper at least: the check below reads something
    source = "\n".join(path.read_text(encoding="utf-8", errors="replace") for package in packages
                       for path in Path(package.__file__).parent.rglob("*.py"))
    assert sorted(name for name in names if name in source) == []
