"""Text drawn from a cache of bitmaps: the live views' canvases draw a label they drew before as one image.

Why: a redraw of a live view spends most of its time on text (each label is laid out and
rasterised glyph by glyph with FreeType, ~0.5–1 ms), yet the same labels — run names,
topic ids, tick values, legend entries — come back on every redraw, and nearly every
control change moves some of them (the axis limits move the tick labels, a new ranking
reorders the run names), so drawing the unchanged part of the figure once and blitting it
(matplotlib's ``copy_from_bbox`` / ``restore_region``) would still redraw most labels.

How, with matplotlib's public backend API: :func:`text_cache_canvas` gives an Agg
canvas class (matplotlib's ``FigureCanvasAgg`` or ipympl's ``Canvas``) whose
``get_renderer()`` returns a ``RendererAgg`` with its own ``draw_text``. A text is
rasterised once, in black on a transparent scratch ``RendererAgg`` of its own
(``RendererAgg.draw_text``, so fonts, hinting, kerning and rotation are matplotlib's), and
its alpha channel (coverage) kept under everything that shapes the glyphs: string, font
properties, size, angle, dpi, hinting, antialiasing, font features and language. Drawing
it is one ``draw_image`` of that coverage in the text's own colour and alpha, clipped as
matplotlib clips text. The one difference from matplotlib's own drawing: the text's origin
snaps to the nearest whole pixel (matplotlib ≤ 3.10 did so too), which makes every later
drawing of the same text the same pixels. Mathtext and TeX are drawn as usual.

matplotlib is imported when a class is first asked for, never at import.

>>> from matplotlib.backends.backend_agg import FigureCanvasAgg
>>> from matplotlib.figure import Figure
>>> figure = Figure(figsize=(2, 1), dpi=80)
>>> canvas = text_cache_canvas(FigureCanvasAgg)(figure)
>>> _ = figure.text(0.1, 0.5, "acorn-a1")
>>> canvas.draw()
>>> [key[0] for key in canvas.text_bitmaps]          # rasterised once, drawn from here on
['acorn-a1']
"""

from __future__ import annotations

import functools
import math

import numpy as np

__all__ = ["TEXT_CACHE_SIZE", "text_cache_canvas"]

#: Text bitmaps a canvas keeps (first in, first out beyond this); a few KB each.
TEXT_CACHE_SIZE = 4096
_GENERIC_FAMILIES = ("serif", "sans-serif", "cursive", "fantasy", "monospace")


@functools.cache
def text_cache_canvas(base: type) -> type:
    """``base`` (an Agg canvas class: matplotlib's FigureCanvasAgg or ipympl's Canvas) whose
    renderer draws each plain text from a cache of coverage bitmaps (the module's
    docstring says how). The canvas's ``text_bitmaps`` is that cache; one class per
    ``base``."""
    renderer_class = _text_cache_renderer()

    def get_renderer(self):
        width, height = self.get_width_height(physical=True)
        key = width, height, self.figure.dpi
        if getattr(self, "text_bitmaps", None) is None:
            self.text_bitmaps = {}
        if getattr(self, "renderer_key", None) != key or not isinstance(getattr(self, "renderer", None),
                                                                         renderer_class):
            self.renderer = renderer_class(width, height, self.figure.dpi, self.text_bitmaps)
            self.renderer_key = key
        return self.renderer

    return type(f"TextCache{base.__name__}", (base,), {"get_renderer": get_renderer, "__module__": __name__})


def _font_key(prop) -> tuple:
    """What of a FontProperties shapes its glyphs (its own hash follows mutable state),
    with the fonts a generic family ("sans-serif" …) stands for at the time."""
    import matplotlib as mpl

    family = tuple(prop.get_family())
    generic = tuple(tuple(mpl.rcParams[f"font.{f}"]) for f in family if f in _GENERIC_FAMILIES)
    return (family, generic, prop.get_style(), prop.get_variant(), prop.get_weight(), prop.get_stretch(),
            prop.get_size_in_points(), prop.get_file(), prop.get_math_fontfamily())


@functools.cache
def _text_cache_renderer() -> type:
    """RendererAgg drawing plain text from a bitmap cache (see :func:`text_cache_canvas`)."""
    import matplotlib as mpl
    from matplotlib.backends.backend_agg import RendererAgg

    class TextCacheRendererAgg(RendererAgg):
        def __init__(self, width, height, dpi, cache: dict):
            super().__init__(width, height, dpi)
            self.text_bitmaps = cache

        def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
            if ismath:
                return super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
            features = mtext.get_fontfeatures() if hasattr(mtext, "get_fontfeatures") else None
            language = mtext.get_language() if hasattr(mtext, "get_language") else None
            antialiased = bool(gc.get_antialiased())
            key = (s, _font_key(prop), float(angle), self.dpi, antialiased, mpl.rcParams["text.hinting"],
                   mpl.rcParams["text.hinting_factor"], mpl.rcParams.get("text.kerning_factor"),
                   None if features is None else tuple(features), language)
            cache = self.text_bitmaps
            entry = cache.get(key)
            if entry is None:
                entry = _Bitmap(*self._rasterise(s, prop, angle, antialiased, mtext))
                if len(cache) >= TEXT_CACHE_SIZE:
                    del cache[next(iter(cache))]
                cache[key] = entry
            if entry.coverage is None:
                return
            rgba = tuple(gc.get_rgb())  # the text's colour, its alpha included (a forced alpha too)
            if rgba[3] <= 0:
                return
            image = entry.image(rgba)
            left = math.floor(x + 0.5) + entry.left
            bottom = self.height - (math.floor(y + 0.5) + entry.bottom)  # from the canvas's bottom edge
            self.draw_image(gc, left, bottom, image)

        def _rasterise(self, s, prop, angle, antialiased, mtext):
            """(coverage bitmap, left, bottom): the text drawn at a whole-pixel origin; the
            bitmap's left column and its bottom edge (one past its last row), in pixels
            from the origin (y down). (None, 0, 0) for a text with no ink."""
            width, height, descent = self.get_text_width_height_descent(s, prop, False)
            theta = math.radians(angle)
            cos, sin = math.cos(theta), math.sin(theta)
            corners = [(0.0, -descent), (width, -descent), (width, height - descent), (0.0, height - descent)]
            xs = [cx * cos - cy * sin for cx, cy in corners]  # y up
            ys = [cx * sin + cy * cos for cx, cy in corners]
            pad = max(4, math.ceil(prop.get_size_in_points() * self.dpi / 72.0 * 0.5))
            for _ in range(3):  # grow the margin if glyphs reach the scratch canvas's edge
                ox, oy = pad + math.ceil(-min(xs)), pad + math.ceil(max(ys))
                scratch = RendererAgg(ox + math.ceil(max(xs)) + pad, oy + math.ceil(-min(ys)) + pad, self.dpi)
                gc = scratch.new_gc()
                gc.set_foreground((0.0, 0.0, 0.0))
                gc.set_antialiased(antialiased)
                RendererAgg.draw_text(scratch, gc, ox, oy, s, prop, angle, ismath=False, mtext=mtext)
                gc.restore()
                alpha = np.asarray(scratch.buffer_rgba())[:, :, 3]
                if not (alpha[0].any() or alpha[-1].any() or alpha[:, 0].any() or alpha[:, -1].any()):
                    break
                pad *= 4
            rows, cols = np.flatnonzero(alpha.any(axis=1)), np.flatnonzero(alpha.any(axis=0))
            if rows.size == 0:
                return None, 0, 0
            bitmap = np.ascontiguousarray(alpha[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1])
            return bitmap, int(cols[0]) - ox, int(rows[-1]) + 1 - oy

    return TextCacheRendererAgg


class _Bitmap:
    """A rasterised text: its coverage (rows top first), where it sits from the text's
    origin, and its RGBA images by colour (a label keeps its colour from draw to draw)."""

    __slots__ = ("coverage", "left", "bottom", "_images")

    def __init__(self, coverage: np.ndarray | None, left: int, bottom: int):
        self.coverage, self.left, self.bottom = coverage, left, bottom
        self._images: dict[tuple[float, ...], np.ndarray] = {}

    def image(self, rgba: tuple[float, float, float, float]) -> np.ndarray:
        """The text in colour ``rgba`` as an (rows, columns, 4) uint8 image, bottom row first
        (as ``draw_image`` takes it), its alpha the coverage times the colour's alpha."""
        found = self._images.get(rgba)
        if found is None:
            coverage = self.coverage[::-1]
            found = np.empty(coverage.shape + (4,), dtype=np.uint8)
            found[:, :, :3] = np.rint(np.asarray(rgba[:3]) * 255)
            found[:, :, 3] = np.rint(coverage * rgba[3]) if rgba[3] < 1 else coverage
            if len(self._images) >= 4:
                self._images.clear()
            self._images[rgba] = found
        return found
