"""irnb.params: each user-facing parameter is declared once, and the API, the command line
and the sliders are built from the declarations."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import numpy as np
import pytest

from irnb import cli, params, stats
from irnb.params import PARAMS, Param

REPO = Path(__file__).resolve().parents[1]
# Modules that may construct Param(...): the registry itself, the simulator's own declarations,
# and the measure families' parameters (STYLE 1: a measure is one declared object).
DECLARING = {"irnb/params.py", "irnb/datasets/params.py", "irnb/measures.py"}


def _param_calls(path: Path) -> list[tuple[int, str]]:
    """(line, declared name) of every ``Param("name", ...)`` call in a source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Param":
            if node.args and isinstance(node.args[0], ast.Constant):
                found.append((node.lineno, node.args[0].value))
    return found


def test_no_module_declares_a_registered_parameter_again():
    again = []
    for path in sorted((REPO / "irnb").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative == "irnb/params.py":
            continue
        again += [f"{relative}:{line}: {name}" for line, name in _param_calls(path) if name in PARAMS]
    assert again == [], "declare these once in irnb.params and import them (Param.renamed / with_default)"


def test_declarations_live_in_the_declaring_modules():
    elsewhere = []
    for path in sorted((REPO / "irnb").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative not in DECLARING and not relative.startswith("irnb/predict"):  # the classifiers' own options
            elsewhere += [f"{relative}:{line}: {name}" for line, name in _param_calls(path)]
    assert elsewhere == []


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_every_default_passes_its_own_declaration(name):
    param = PARAMS[name]
    assert param.name == name and param.doc, name
    if param.default is not None:
        assert param.validate(param.default, "test") == param.default


@pytest.mark.parametrize(
    "param, value, message",
    [
        (params.ALPHA, 1, "f: alpha must be a number with 0 < alpha < 1, got 1"),
        (params.POOL_DEPTH, 0, "f: depth must be an integer ≥ 1, got 0"),
        (params.POOL_DEPTH, True, "f: depth must be an integer ≥ 1, got True"),
        (params.MEASUREMENT_DEPTH, 2.5, "f: measurement_depth (k) must be an integer ≥ 1, got 2.5"),
        (params.SEED, 2 ** 63, "f: seed must be an integer with 0 ≤ seed < 2**63, got 9223372036854775808"),
        (params.TEST, "tukye", "f: test must be one of 't', 'wilcoxon', 'sign', 'randomization', 'anova', "
                               "'tukey', got 'tukye'; did you mean 'tukey'?"),
    ],
)
def test_errors_name_the_parameter_what_is_allowed_and_what_was_passed(param, value, message):
    with pytest.raises(ValueError) as caught:
        param.validate(value, "f")
    assert str(caught.value) == message


def test_numpy_numbers_count_and_are_converted():
    depth = params.POOL_DEPTH.validate(np.int64(7), "f")
    assert depth == 7 and type(depth) is int
    assert params.ALPHA.validate(np.float32(0.25), "f") == 0.25
    assert params.SMOOTHING.validate("auto", "f") == "auto"
    with pytest.raises(ValueError, match="smoothing"):
        params.SMOOTHING.validate("sometimes", "f")


def test_satisfy_wording_and_labels_name_a_flag():
    with pytest.raises(ValueError) as caught:
        params.BACKGROUND_RATE.validate(1.5, None, label="--E (background rate E)", wording="satisfy")
    assert str(caught.value) == "--E (background rate E) must satisfy 0 ≤ E ≤ 1, got 1.5"
    with pytest.raises(ValueError) as caught:
        params.SMOOTHING.convert("2", None, label="--lambda (smoothing λ)", wording="satisfy")
    assert str(caught.value) == "--lambda (smoothing λ) must be 'auto' or satisfy 0 ≤ λ ≤ 1, got 2"


def test_renamed_and_with_default_keep_the_bounds():
    rel = params.RELEVANCE_LEVEL.renamed("rel")
    alpha = params.ALPHA.with_default(0.01)
    assert (rel.name, rel.low, rel.type) == ("rel", 1, int)
    assert (alpha.default, alpha.low, alpha.high, alpha.low_open) == (0.01, 0.0, 1.0, True)


def _option(parser: argparse.ArgumentParser, command: str, flag: str) -> argparse.Action:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return next(a for a in sub._actions if flag in a.option_strings)


@pytest.mark.parametrize(
    "command, flag, param",
    [
        ("compare", "--test", params.TEST),
        ("compare", "--alpha", params.ALPHA),
        ("evaluate", "-l", params.RELEVANCE_LEVEL),
        ("evaluate", "--pool-depth", params.POOL_DEPTH),
        ("evaluate", "--estimator", params.ESTIMATOR),
        ("report", "--test", params.PAIRED_TEST),
        ("report", "--correction", params.CORRECTION),
        ("report", "--confidence", params.CONFIDENCE),
        ("judge-next", "--strategy", params.STRATEGY),
        ("judge-next", "-n", params.SUGGESTIONS),
    ],
)
def test_cli_options_are_built_from_the_declarations(command, flag, param):
    action = _option(cli.build_parser(), command, flag)
    assert action.type is param.type
    assert action.choices == param.choices
    if param.choices is None and action.default is not None:
        assert action.default == param.default


def test_compare_offers_every_test_including_tukey():
    action = _option(cli.build_parser(), "compare", "--test")
    assert "tukey" in action.choices and tuple(action.choices) == stats.TESTS == params.TEST.choices


def test_slider_ranges_come_from_the_declarations():
    assert params.slider_range(params.SMOOTHING) == {"min": 0.0, "max": 1.0, "step": params.SMOOTHING.step}
    assert params.slider_range(params.MEASUREMENT_DEPTH) == {"min": 1, "step": 1}
    wide = Param("x", float, 0.5, low=0.0, high=2.0)
    assert params.slider_range(wide) == {"min": 0.0, "max": 2.0, "step": 0.01}


def test_widget_sliders_read_the_declarations():
    pytest.importorskip("ipywidgets")
    from irnb import widgets
    from irnb.datasets import default

    view = widgets.IntervalsView(default().experiment, standalone=False, active=False)
    smoothing = view.controls["smoothing"]
    assert (smoothing.min, smoothing.max, smoothing.step) == (params.SMOOTHING.low, params.SMOOTHING.high,
                                                              params.SMOOTHING.step)
    k = view.controls["measurement_depth"]
    assert k.min == params.MEASUREMENT_DEPTH.low


def test_report_judged_depth_is_a_deprecated_alias_of_measurement_depth():
    import pandas as pd

    from irnb import Experiment
    from irnb.reporting import report

    qrels = pd.DataFrame({"qid": ["1", "2"], "docno": "d", "grade": 1})
    runs = pd.DataFrame({"run": ["a"] * 4, "qid": ["1", "1", "2", "2"], "docno": ["d", "u", "u", "d"],
                         "score": [2.0, 1.0] * 2})
    exp = Experiment(runs, qrels)
    new = report(exp, ["AP"], measurement_depth=2, n_resamples=20).table
    with pytest.warns(DeprecationWarning, match="measurement_depth"):
        old = report(exp, ["AP"], judged_depth=2, n_resamples=20).table
    pd.testing.assert_frame_equal(new, old)
    assert new["judged_measure"].tolist() == ["Judged@2"] and new["judged"].tolist() == [0.5]  # 1 of the top 2
