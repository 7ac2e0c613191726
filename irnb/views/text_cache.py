"""Text drawn from a cache of bitmaps: the live views' canvases draw every label in one blit.

A redraw of a live view spends most of its time on text: each label is laid out and
rasterised glyph by glyph with FreeType, yet the same labels (run names, topic ids, tick
values, legend entries) come back on every redraw. :func:`text_cache_canvas` gives an Agg
canvas class whose renderer rasterises each text once and then draws it from the cache.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["TEXT_CACHE_SIZE", "text_cache_canvas"]

#: Text bitmaps a canvas keeps (first in, first out beyond this); a few KB each.
TEXT_CACHE_SIZE = 4096
_TEXT_CLASSES: dict[Any, type] = {}  # base canvas class (or "renderer") → class


def text_cache_canvas(base: type) -> type:
    """``base`` (an Agg canvas class: matplotlib's FigureCanvasAgg or ipympl's Canvas) whose
    renderer draws each text from a cache of coverage bitmaps.

    Why: a redraw spends most of its time on text (each label is laid out and rasterised
    glyph by glyph with FreeType, ~0.5–1 ms), yet the same labels — run names, topic ids,
    tick values, legend entries — come back on every redraw. A text is rasterised once,
    in black on a transparent scratch canvas of its own (matplotlib's own ``draw_text``,
    so fonts, hinting, kerning and rotation are matplotlib's), and its alpha channel
    (coverage) kept under everything that shapes the glyphs: string, font properties,
    size, angle, dpi, hinting, antialiasing, font features and language. Drawing it is
    one ``draw_text_image`` in the text's own colour and alpha, clipped as matplotlib
    clips text. The one difference from matplotlib's own drawing: the text's origin snaps
    to the nearest whole pixel (matplotlib ≤ 3.10 did so too), which makes every later
    drawing of the same text the same pixels. Mathtext and TeX are drawn as usual.
    """
    if base in _TEXT_CLASSES:
        return _TEXT_CLASSES[base]
    renderer_class = _text_cache_renderer()

    def get_renderer(self):
        width, height = self.get_width_height(physical=True)
        key = width, height, self.figure.dpi
        if getattr(self, "_lastKey", None) != key or not isinstance(getattr(self, "renderer", None), renderer_class):
            if not hasattr(self, "_irnb_text_cache"):
                self._irnb_text_cache = {}
            self.renderer = renderer_class(width, height, self.figure.dpi, self._irnb_text_cache)
            self._lastKey = key
        return self.renderer

    cls = type(f"TextCache{base.__name__}", (base,), {"get_renderer": get_renderer, "__module__": __name__})
    _TEXT_CLASSES[base] = cls
    return cls


_GENERIC_FAMILIES = ("serif", "sans-serif", "cursive", "fantasy", "monospace")


def _font_key(prop) -> tuple:
    """What of a FontProperties shapes its glyphs (its own hash follows mutable state),
    with the fonts a generic family ("sans-serif" …) stands for at the time."""
    import matplotlib as mpl

    family = tuple(prop.get_family())
    generic = tuple(tuple(mpl.rcParams[f"font.{f}"]) for f in family if f in _GENERIC_FAMILIES)
    return (family, generic, prop.get_style(), prop.get_variant(), prop.get_weight(), prop.get_stretch(),
            prop.get_size_in_points(), prop.get_file(), prop.get_math_fontfamily())


def _text_cache_renderer() -> type:
    """RendererAgg drawing plain text from a bitmap cache (see :func:`text_cache_canvas`)."""
    if "renderer" in _TEXT_CLASSES:
        return _TEXT_CLASSES["renderer"]
    import math

    import matplotlib as mpl
    from matplotlib.backends.backend_agg import RendererAgg

    class TextCacheRendererAgg(RendererAgg):
        def __init__(self, width, height, dpi, cache: dict):
            super().__init__(width, height, dpi)
            self._irnb_text_cache = cache

        def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
            if ismath:
                return super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
            features = mtext.get_fontfeatures() if hasattr(mtext, "get_fontfeatures") else None
            language = mtext.get_language() if hasattr(mtext, "get_language") else None
            key = (s, _font_key(prop), float(angle), self.dpi, bool(gc.get_antialiased()), mpl.rcParams["text.hinting"],
                   mpl.rcParams["text.hinting_factor"], mpl.rcParams.get("text.kerning_factor"),
                   None if features is None else tuple(features), language)
            cache = self._irnb_text_cache
            entry = cache.get(key)
            if entry is None:
                entry = self._rasterise(s, prop, angle, bool(gc.get_antialiased()), mtext)
                if len(cache) >= TEXT_CACHE_SIZE:
                    del cache[next(iter(cache))]
                cache[key] = entry
            bitmap, left, bottom = entry
            if bitmap is not None:
                self._renderer.draw_text_image(bitmap, math.floor(x + 0.5) + left, math.floor(y + 0.5) + bottom,
                                               0, gc)

        def _get_font_height_metrics(self, prop, *args, **kwargs):
            """(ascent, descent, line gap) in pixels of the font of ``prop``, as
            ``Text._get_layout`` reads them from the font's OS/2 or hhea table on every
            layout of every text (matplotlib ≥ 3.11 asks the renderer first); cached per
            font and size. (None, None, None) makes matplotlib measure as usual."""
            if args or kwargs:  # a signature this code does not know
                return None, None, None
            key = ("height", _font_key(prop), self.dpi)
            cache = self._irnb_text_cache
            if key not in cache:
                from matplotlib.font_manager import fontManager, get_font

                cache[key] = None, None, None
                font = get_font(fontManager._find_fonts_by_props(prop))
                for table_name, gap, ascent, descent in (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                                                          ("hhea", "lineGap", "ascent", "descent")):
                    table = font.get_sfnt_table(table_name)
                    if table is None:
                        continue
                    scale = 1 / font.get_sfnt_table("head")["unitsPerEm"] * prop.get_size_in_points() * self.dpi / 72
                    cache[key] = table[ascent] * scale, -table[descent] * scale, table[gap] * scale
                    break
            return cache[key]

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

    _TEXT_CLASSES["renderer"] = TextCacheRendererAgg
    return TextCacheRendererAgg
