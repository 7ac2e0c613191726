"""Static plots of what the core returns, and the figures the live views redraw in place.

Every plot takes the core's plain data (a :class:`~irnb.intervals.ScoreIntervals`, a
decision table, a :class:`~irnb.bias.BiasResult`, a tidy DataFrame …), accepts ``ax=None``
(a new figure is made) and returns the Axes it drew on. Nothing here computes what the core
can: means, cases, rank changes, unjudged counts and fits come from the core; the plots
only select, order and draw them. matplotlib is imported inside the functions, so
``import irnb`` never loads it.

This package re-exports, from the modules that own them:

* :mod:`irnb.plots.live` — the plots the widgets drive, each with an ``update_*`` twin that
  takes the same data and changes the artists already on the Axes in place;
* :mod:`irnb.plots.static` — the figures drawn once (the papers' curves, the per-topic
  comparison);
* :mod:`irnb.plots.style` — colours, markers, the smallest font, plain log axes and the
  labels every figure prints (:func:`measure_label`: A_p@k for ``Judged@k``);
* :mod:`irnb.plots.roles` — the artists by role: :func:`artists` (e.g.
  ``artists(ax)["intervals"]`` is the LineCollection of [B, T] segments);
* :mod:`irnb.plots.legends` — legends outside the data (:func:`set_legend_columns`).

=====================================  ===========================================================
plot                                   source
=====================================  ===========================================================
:func:`intervals_plot`                 per-run [B, T], a point estimate and the true score
                                       (Ravana & Moffat)
:func:`topic_intervals_plot`           the same per topic for one run
:func:`case_matrix_plot`               run × run decision-matrix cases (Baillie et al.)
:func:`case_proportions_plot`          depth × case proportions (Baillie et al., Table 1)
:func:`bias_plot`                      rank / score change of left-out runs, AP versus bpref
                                       (Büttcher et al.)
:func:`tau_depth_plot`                 Kendall's τ against pool depth per measure
:func:`unjudged_plot`                  unjudged documents per topic for two runs, their overlap,
                                       Δ score (thesis Fig. 7.1)
:func:`simulated_precision_plot`       original versus simulated precision (thesis Fig. 7.2)
:func:`depth_curves_plot`              P@k and A_p@k of a pair with confidence intervals
                                       (Baillie et al. Fig. 2 / IP&M Fig. 11)
:func:`ranked_runs_plot`               all runs ranked by a measure with their A_p@k
                                       (IP&M Figs 5–10, 12)
:func:`background_rate_plot`           the E-estimation curve (Ravana & Moffat Fig. 1)
:func:`separability_plot`              separable pairs versus judgments (Ravana & Moffat Fig. 2)
:func:`subsampling_plot`               random-subsampling curves (Büttcher et al. Fig. 1)
:func:`topic_difference_plot`          run minus baseline per topic, sorted (the per-topic
                                       comparison papers draw)
:func:`sampled_scores_plot`            sampled means and intervals beside [B, T] and the
                                       condensed list (Fröbe et al. 2023)
=====================================  ===========================================================
"""

from __future__ import annotations

from .legends import set_legend_columns
from .live import (bias_plot, case_matrix_plot, case_proportions_plot, intervals_plot, simulated_precision_plot,
                   tau_depth_plot, topic_intervals_plot, unjudged_plot, update_bias_plot, update_case_matrix_plot,
                   update_case_proportions_plot, update_intervals_plot, update_simulated_precision_plot,
                   update_tau_depth_plot, update_topic_intervals_plot, update_unjudged_plot)
from .roles import artists
from .static import (background_rate_plot, depth_curves_plot, ranked_runs_plot, sampled_scores_plot, separability_plot,
                     subsampling_plot, topic_difference_plot)
from .style import (CASE_COLOURS, MIN_FONT, PALETTE, estimate_label, measure_label, plain_log_axis,
                    procedure_caption, series_style)

# the look and the helpers a figure is built with, then the plots (as the table above lists them)
__all__ = [
    "PALETTE",
    "MIN_FONT",
    "CASE_COLOURS",
    "series_style",
    "plain_log_axis",
    "measure_label",
    "estimate_label",
    "procedure_caption",
    "artists",
    "set_legend_columns",
    "intervals_plot",
    "update_intervals_plot",
    "topic_intervals_plot",
    "update_topic_intervals_plot",
    "case_matrix_plot",
    "update_case_matrix_plot",
    "case_proportions_plot",
    "update_case_proportions_plot",
    "bias_plot",
    "update_bias_plot",
    "tau_depth_plot",
    "update_tau_depth_plot",
    "unjudged_plot",
    "update_unjudged_plot",
    "simulated_precision_plot",
    "update_simulated_precision_plot",
    "depth_curves_plot",
    "ranked_runs_plot",
    "background_rate_plot",
    "separability_plot",
    "subsampling_plot",
    "topic_difference_plot",
    "sampled_scores_plot",
]
