"""The live views behind :mod:`irnb.widgets`, one module per job.

* :mod:`irnb.views.controls` — the controls, built from the core's declarations, and which
  of them a view locks (with why);
* :mod:`irnb.views.layout` — the figure's size and the controls sidebar beside it;
* :mod:`irnb.views.frames` — a view's figure: made, laid out once, redrawn, shown as PNG or
  on the ipympl canvas;
* :mod:`irnb.views.text_cache` — the canvases' text, drawn from a cache of bitmaps;
* :mod:`irnb.views.base` — :class:`~irnb.views.base.View`, what every tab shares;
* one module per tab: :mod:`irnb.views.intervals`, :mod:`irnb.views.decision`,
  :mod:`irnb.views.bias`, :mod:`irnb.views.unjudged`.

:mod:`irnb.widgets` puts the tabs together (the explorer) and is where notebooks import
them from. Nothing here imports matplotlib or ipywidgets at import time.
"""
