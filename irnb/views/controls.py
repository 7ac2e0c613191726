"""The live views' controls: built from the core's declarations, locked when they cannot matter.

Sliders take their bounds from the declarations the core validates against
(:data:`irnb.pooling.POOL_PARAMS`, :data:`irnb.intervals.INTERVAL_PARAMS`) and carry the
papers' symbols: "pool depth d", "measurement depth k", "E (background rate)",
"λ (smoothing)" with the "λ = 1 − Δ" toggle. A declared bound that is open-ended (d, k) ends
at the Experiment's depth. A control that cannot change the view shown (one the view does
not use, E with X_S, λ with X_B, X_I or while λ = 1 − Δ) is locked, with the reason as its
tooltip and on a line beside it (:func:`locked_controls`, :func:`sync_controls`).

ipywidgets is imported when a control is built, never at import.

>>> from irnb.views.controls import SLIDER_LABELS, background_rates
>>> SLIDER_LABELS["measurement_depth"]
'measurement depth k'
>>> from irnb.intervals import INTERVAL_PARAMS
>>> background_rates(INTERVAL_PARAMS["background_rate"])[:4]   # a 1-2-5 scale from 0.01
[0.0, 0.01, 0.02, 0.05]
"""

from __future__ import annotations

import functools
import html
from typing import Any
from collections.abc import Mapping, Sequence

from ..experiment import Experiment
from ..intervals import ESTIMATORS, INTERVAL_PARAMS
from ..papers.registry import pool_depth_rule
from ..params import slider_range
from ..pooling import POOL_PARAMS

__all__ = ["MEASURES", "SLIDER_LABELS", "SLIDER_PARAMS", "SMOOTHING_STEP", "ALL_CONTROLS", "build_controls",
           "background_rates", "locked_controls", "sync_controls", "control_help", "help_text", "tooltip_trait",
           "ipywidgets_major", "reason_line", "locked_html", "locked_list_html"]

#: Measure choices; "@k" takes the measurement-depth slider's value.
MEASURES = ("P@k", "SDCG@k", "RBP(p=0.8)@k", "RBP(p=0.95)@k", "AP@k")
#: Slider labels: the papers' symbols (the one-line descriptions come from the declarations).
SLIDER_LABELS = {"depth": "pool depth d", "measurement_depth": "measurement depth k",
                 "background_rate": "E (background rate)", "smoothing": "λ (smoothing)"}
#: Slider → the declared parameter it sets (bounds, default and description).
SLIDER_PARAMS = {"depth": POOL_PARAMS["depth"], "measurement_depth": INTERVAL_PARAMS["measurement_depth"],
                 "background_rate": INTERVAL_PARAMS["background_rate"], "smoothing": INTERVAL_PARAMS["smoothing"]}
#: The λ slider's step: a hundredth of its range [0, 1].
SMOOTHING_STEP = 0.01

#: Every control the explorer builds, in the sidebar's order.
ALL_CONTROLS = ("depth", "measurement_depth", "background_rate", "smoothing", "auto_smoothing", "measure",
                "estimator", "contributors", "groups", "run", "run_a", "run_b")


def _doc(param) -> str:
    """The one-line description of a declared parameter, without its symbol prefix."""
    text = param.doc
    return text.split(":", 1)[1].strip() if ":" in text else text


def build_controls(experiment: Experiment, names: Sequence[str], *, collection=None) -> dict[str, Any]:
    """The named controls, bounds from the core's declarations. The pool depth starts at the
    data's own (:func:`irnb.papers.registry.pool_depth_rule`; ``collection``: the simulated
    collection ``experiment`` comes from, whose pools are judged from its truth)."""
    import ipywidgets as w

    depth = experiment.shape[2]
    rule = pool_depth_rule(experiment, collection=collection)
    own_depth = min(rule.depth or 1, depth)
    from_truth = collection is not None
    # a pool deeper than the qrels' own judges nothing new: marked, unless the truth judges it
    deepest = None if from_truth else own_depth
    style = {"description_width": "initial"}
    d_param, k_param, e_param, l_param = (SLIDER_PARAMS[n] for n in ("depth", "measurement_depth",
                                                                      "background_rate", "smoothing"))
    contributors = [n for n, c in zip(experiment.run_names, experiment.contributors, strict=True) if c]
    groups = list(dict.fromkeys(experiment.groups))
    # default pair (the thesis's baseline versus a new system): a contributing run, a run that did not contribute
    non_contributing = [n for n, c in zip(experiment.run_names, experiment.contributors, strict=True) if not c]
    run_a = contributors[0] if contributors else experiment.run_names[0]
    others = [n for n in (non_contributing or experiment.run_names) if n != run_a]
    run_b = others[0] if others else run_a
    make = {
        "depth": lambda: DepthSlider(depths=pool_depths(_to_depth(d_param, depth), own_depth), value=own_depth,
                                     deepest=deepest, description=SLIDER_LABELS["depth"], style=style,
                                     continuous_update=False),
        "measurement_depth": lambda: w.IntSlider(value=min(k_param.default, depth),
                                                 **slider_range(_to_depth(k_param, depth)),
                                                 description=SLIDER_LABELS["measurement_depth"], style=style,
                                                 continuous_update=False),
        "background_rate": lambda: w.SelectionSlider(options=background_rates(e_param), value=e_param.default,
                                                     style=style, continuous_update=False,
                                                     description=SLIDER_LABELS["background_rate"]),
        "smoothing": lambda: w.FloatSlider(value=0.5, step=SMOOTHING_STEP, **slider_range(l_param),
                                           description=SLIDER_LABELS["smoothing"], style=style,
                                           continuous_update=False, disabled=True),
        "auto_smoothing": lambda: w.Checkbox(value=l_param.default == "auto", description="λ = 1 − Δ",
                                             indent=False),
        "measure": lambda: w.Dropdown(options=list(MEASURES), value=MEASURES[0], description="measure"),
        "estimator": lambda: w.Dropdown(options=[(f"X_{k} ({v})", k) for k, v in ESTIMATORS.items()], value="M",
                                        description="estimator"),
        "contributors": lambda: w.SelectMultiple(options=list(experiment.run_names), value=contributors, rows=6,
                                                 description="contributors"),
        "groups": lambda: w.SelectMultiple(options=groups, value=groups, rows=6, description="groups"),
        "run": lambda: w.Dropdown(options=list(experiment.run_names), value=experiment.run_names[0],
                                  description="run"),
        "run_a": lambda: w.Dropdown(options=list(experiment.run_names), value=run_a, description="run a"),
        "run_b": lambda: w.Dropdown(options=list(experiment.run_names), value=run_b, description="run b"),
    }
    # what each control does (a locked one says why instead: sync_controls)
    tooltips = {"depth": d_param.doc, "measurement_depth": k_param.doc, "background_rate": e_param.doc,
                "smoothing": l_param.doc, "auto_smoothing": "λ = 1 − Δ per topic (X_M = B(1 + Δ) + Δ²E)",
                "measure": "the measure; @k takes the measurement depth k",
                "estimator": "point estimator inside [B, T]",
                "contributors": "runs whose top d documents form the pool", "groups": "groups whose runs are shown",
                "run": "the run whose topics are shown", "run_a": "the baseline run",
                "run_b": "the run compared with run a"}
    notes = {"depth": f"{_doc(d_param)}. This data's own pool depth: {own_depth} ({rule.basis})"
                      + ("; * marks deeper pools, which judge nothing new (the qrels hold no deeper judgments)"
                         if deepest is not None and deepest < depth else ""),
             "contributors": _contributors_note(from_truth, experiment.truth is not None)}
    trait = tooltip_trait()
    controls = {name: make[name]() for name in names}
    for name, control in controls.items():
        setattr(control, trait, tooltips[name])
        control._irnb_tooltip = tooltips[name]
        control._irnb_reason = reason_line()
        text = notes.get(name, help_text(name))
        control._irnb_help = None if text is None else help_html(text)
    return controls


def _contributors_note(from_truth: bool, has_truth: bool) -> str:
    """What adding or removing a contributing run can do on this data."""
    if from_truth:
        return ("The collection's complete truth is known: a run added here has its top d documents judged "
                "from it; a run taken out leaves the documents only it pooled unjudged.")
    if has_truth:
        return ("Pools judge from the official qrels only: adding a run judges none of its documents the "
                "qrels lack (give explorer() the Collection to judge them from its truth); taking one out "
                "leaves the documents only it pooled unjudged.")
    return ("Real data: only the official judgments exist. Adding a run cannot judge documents the "
            "assessors never saw; taking one out leaves the documents only it pooled unjudged.")


def help_html(text: str) -> str:
    """A control's one-line help as the sidebar shows it."""
    return f"<div style='color:#555;font-size:12px;line-height:1.2'>{html.escape(text)}</div>"


def pool_depths(param, own: int) -> list[int]:
    """The depths the pool-depth slider offers: every depth to :data:`EVERY_DEPTH_TO`, then
    a 1-2-5-like scale (so 1–20 take about half the track), with the data's own depth and
    the deepest the runs allow, within the declared bounds."""
    high = int(param.high)
    scale = set(range(int(param.low), EVERY_DEPTH_TO + 1)) | set(_DEPTH_SCALE) | {own, high}
    return sorted(d for d in scale if param.low <= d <= high)


#: The pool-depth slider offers every depth up to this one, then the steps of :data:`_DEPTH_SCALE`.
EVERY_DEPTH_TO = 30
_DEPTH_SCALE = (40, 50, 60, 80, 100, 120, 150, 200, 300, 500, 1000, 2000, 5000, 10000)


@functools.cache
def _depth_slider_class():
    import ipywidgets as w

    class DepthSlider(w.SelectionSlider):
        """A pool-depth slider on a log-like scale (:func:`pool_depths`): ``value`` is the depth;
        ``min`` and ``max`` the shallowest and deepest; depths beyond ``deepest`` (the qrels'
        own pool depth, when no truth judges deeper) read with a * ."""

        def __init__(self, *, depths: Sequence[int], deepest: int | None = None, **kwargs):
            options = [(f"{d}*" if deepest is not None and d > deepest else str(d), d) for d in depths]
            super().__init__(options=options, **kwargs)

        @property
        def min(self) -> int:
            return self.options[0][1]

        @property
        def max(self) -> int:
            return self.options[-1][1]

    return DepthSlider


def DepthSlider(**kwargs):  # noqa: N802 - builds the class when ipywidgets is first needed
    """A :class:`DepthSlider` widget (see ``_depth_slider_class``)."""
    return _depth_slider_class()(**kwargs)


def reason_line():
    """The line beside a control that says why it is locked (hidden while it is not): a
    tooltip alone is not enough, as ipywidgets 8's pickers and tick boxes with a description
    show none."""
    import ipywidgets as w

    line = w.HTML(layout=w.Layout(display="none", width="100%"))
    line.add_class("irnb-locked-reason")  # the browser tests find the reasons by it
    return line


def tooltip_trait(ipywidgets_version: str | None = None) -> str:
    """The name of a control's tooltip under ipywidgets ``ipywidgets_version`` (default: the
    installed release): ``tooltip`` from ipywidgets 8 on; ``description_tooltip`` in
    ipywidgets 7 (Colab's widget stack), whose sliders and pickers have no ``tooltip``.

    >>> tooltip_trait("7.7.1"), tooltip_trait("8.1.5")
    ('description_tooltip', 'tooltip')
    """
    return "tooltip" if ipywidgets_major(ipywidgets_version) >= 8 else "description_tooltip"


def ipywidgets_major(version: str | None = None) -> int:
    """The major release of ipywidgets ``version`` (default: the installed one), which decides
    the spelling of what ipywidgets 7 (Colab's) and 8 name differently.

    >>> ipywidgets_major("7.7.1")
    7
    """
    if version is None:
        import ipywidgets

        version = ipywidgets.__version__
    return int(version.split(".", 1)[0])


def _to_depth(param, depth: int):
    """``param`` (a depth: d or k, neither declares an upper bound) bounded above by the
    Experiment's depth (its longest ranking)."""
    return param.within(high=depth, note="the depth of the Experiment's runs")


#: E on a 1-2-5 scale from 0.01: one step changes X_B = B + ΔE and X_M by at least a third (from 0: to 0.01),
#: so the estimates move visibly; a fixed step of 0.001 moved them less than a pixel.
_BACKGROUND_RATES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


def background_rates(param) -> list[float]:
    """The E values the slider offers: the 1-2-5 scale from 0.01 within the declared bounds,
    with the declared default."""
    rates = {r for r in _BACKGROUND_RATES if param.low <= r <= param.high} | {float(param.default)}
    return sorted(rates)


# =============================================================================== which controls apply
#: Why a view ignores a control it does not declare in ``uses`` (shown as the locked control's tooltip).
_NOT_USED = {
    "intervals": {
        "run_a": "the intervals view shows one run's topics: pick it with 'run' (run a and b are for the "
                 "unjudged-documents view)",
        "run_b": "the intervals view shows one run's topics: pick it with 'run' (run a and b are for the "
                 "unjudged-documents view)",
    },
    "decision matrix": {
        "background_rate": "the decision matrix compares the runs' measured scores (unjudged = non-relevant): "
                           "E applies to the interval estimates only",
        "smoothing": "the decision matrix compares the runs' measured scores: λ applies to the interval "
                     "estimate X_M only",
        "auto_smoothing": "the decision matrix compares the runs' measured scores: λ applies to the interval "
                          "estimate X_M only",
        "estimator": "the decision matrix compares the runs' measured scores, not a point estimate",
        "run": "the decision matrix shows every pair of the runs shown (choose them with 'groups')",
        "run_a": "the decision matrix shows every pair of the runs shown (choose them with 'groups')",
        "run_b": "the decision matrix shows every pair of the runs shown (choose them with 'groups')",
    },
    "bias": {
        "measurement_depth": "the bias view scores AP and bpref over each run's whole ranking: k does not apply",
        "background_rate": "the bias view compares measured scores: E applies to the interval estimates only",
        "smoothing": "the bias view compares measured scores: λ applies to the interval estimate X_M only",
        "auto_smoothing": "the bias view compares measured scores: λ applies to the interval estimate X_M only",
        "measure": "the bias view always compares AP (falls for left-out runs) with bpref (does not)",
        "estimator": "the bias view compares measured scores, not a point estimate",
        "groups": "every group with a contributing run is left out in turn, so the group selector does not apply",
        "run": "the bias view shows every left-out run",
        "run_a": "the bias view shows every left-out run",
        "run_b": "the bias view shows every left-out run",
    },
    "unjudged documents": {
        "measure": "the thesis's Figs 7.1 and 7.2 are drawn for P@k",
        "groups": "the unjudged-documents view compares two runs: pick them with 'run a' and 'run b'",
        "run": "the unjudged-documents view compares two runs: pick them with 'run a' and 'run b'",
    },
}


def _locked_by_values(controls: Mapping[str, Any]) -> dict[str, str]:
    """Controls that cannot change the picture given the other controls' values, with why:
    E and λ enter some estimators only; λ = 1 − Δ locks the λ slider."""
    locked: dict[str, str] = {}
    estimator = controls["estimator"].value if "estimator" in controls else None
    if estimator == "S":
        why = "X_S (simplistic) counts unjudged documents as non-relevant: choose X_B, X_I or X_M to use {}"
        locked.update(background_rate=why.format("E"), smoothing=why.format("λ"), auto_smoothing=why.format("λ"))
    elif estimator in ("B", "I"):
        why = f"λ weighs X_I against X_B in X_M only: choose X_M (smoothed) to use λ (X_{estimator} is shown)"
        locked.update(smoothing=why, auto_smoothing=why)
    if "smoothing" in controls and "smoothing" not in locked and controls.get("auto_smoothing") is not None \
            and controls["auto_smoothing"].value:
        locked["smoothing"] = ("λ = 1 − Δ per topic (the 'λ = 1 − Δ' box is ticked: X_M = B(1 + Δ) + Δ²E); "
                               "untick it to set λ yourself")
    return locked


def locked_controls(view: str, uses: Sequence[str], controls: Mapping[str, Any]) -> dict[str, str]:
    """The controls (of ``controls``) that cannot change the view named ``view``, which reads
    the controls ``uses``, each with the reason: those it does not use, E and λ with an
    estimator that ignores them, λ while λ = 1 − Δ."""
    reasons = _NOT_USED.get(view, {})
    locked = {n: reasons.get(n, f"the {view} view does not use this control") for n in controls if n not in uses}
    for n, reason in _locked_by_values(controls).items():
        if n in controls:
            locked.setdefault(n, reason)
    return locked


def sync_controls(controls: Mapping[str, Any], locked: Mapping[str, str]) -> None:
    """Lock (disable) the controls in ``locked``, with the reason as their tooltip and on the
    line beside them (:func:`reason_line`); unlock the others. A locked slider hides its
    readout: its number is not used."""
    trait = tooltip_trait()
    for name, control in controls.items():
        reason = locked.get(name)
        control.disabled = reason is not None
        original = getattr(control, "_irnb_tooltip", getattr(control, trait))
        setattr(control, trait, f"locked: {reason}" if reason is not None else original)
        if control.has_trait("readout"):
            control.readout = reason is None
        line = getattr(control, "_irnb_reason", None)
        if line is not None:
            line.value = "" if reason is None else locked_html(reason)
            line.layout.display = "none" if reason is None else ""


def locked_html(reason: str) -> str:
    """A locked control's reason as the line beside it shows it."""
    return (f"<div style='color:#7a4b00;font-size:12px;line-height:1.25;margin:-2px 0 4px 0'>"
            f"<b>locked here:</b> {html.escape(reason)}</div>")


def locked_list_html(locked: Mapping[str, str], controls: Mapping[str, Any]) -> str:
    """The locked controls (name → reason) as a list for a page that cannot run the
    controls (a still), each by its control's description."""
    if not locked:
        return ""
    items = "".join(f"<li><b>{html.escape(getattr(controls.get(n), 'description', n) or n)}</b>: {html.escape(r)}</li>"
                    for n, r in locked.items())
    return f"<p>Controls this view does not use now, and why:</p><ul>{items}</ul>"


#: A slider's help where the declaration's words name an option the page shows otherwise
#: (λ's declared value 'auto' is the "λ = 1 − Δ" tick box here).
_HELP = {"smoothing": "weight of X_I against X_B in X_M; ticking 'λ = 1 − Δ' sets λ per topic instead"}


def help_text(control_name: str) -> str | None:
    """The one-line description shown beside a slider (None: a control without one)."""
    param = SLIDER_PARAMS.get(control_name)
    if param is None:
        return None
    return _HELP.get(control_name, _doc(param))


def control_help(control_name: str):
    """The one-line description shown beside a slider, as a widget."""
    import ipywidgets as w

    text = help_text(control_name)
    if text is None:
        return None
    return w.HTML(help_html(text))
