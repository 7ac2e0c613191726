"""irnb.params: each user-facing parameter is declared once, and the API, the command line
and the sliders are built from the declarations."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from irnb import cli, params, stats
from irnb.params import PARAMS, Param

REPO = Path(__file__).resolve().parents[1]
# Modules that may construct Param(...): the registry itself, the simulator's own declarations,
# and the measure families' parameters, in the modules of irnb/measures/ (STYLE 1: a measure is
# one declared object).
DECLARING = {"irnb/params.py", "irnb/datasets/params.py"}
DECLARING_PACKAGE = "irnb/measures/"


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
        # irnb/predict: the classifiers' own options
        if relative not in DECLARING and not relative.startswith((DECLARING_PACKAGE, "irnb/predict")):
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
        (params.TEST, "tukye", "f: test must be one of 't' (paired t-test), 'wilcoxon' (Wilcoxon signed-rank test), "
                               "'sign' (sign test), 'randomization' (paired randomization test), 'anova' (one-way "
                               "ANOVA + Bonferroni multiple comparisons) or 'tukey' (Tukey HSD), got 'tukye'; did you "
                               "mean 'tukey'?"),
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
    assert params.slider_range(params.SMOOTHING) == {"min": 0.0, "max": 1.0}
    assert params.slider_range(params.MEASUREMENT_DEPTH) == {"min": 1}
    wide = Param("x", float, 0.5, low=0.0, high=2.0)
    assert params.slider_range(wide) == {"min": 0.0, "max": 2.0}


def test_widget_sliders_read_the_declarations():
    pytest.importorskip("ipywidgets")
    from irnb import widgets
    from irnb.datasets import default
    from irnb.views.controls import SMOOTHING_STEP

    view = widgets.IntervalsView(default().experiment, standalone=False, active=False)
    smoothing = view.controls["smoothing"]
    assert (smoothing.min, smoothing.max, smoothing.step) == (params.SMOOTHING.low, params.SMOOTHING.high,
                                                              SMOOTHING_STEP)  # the step is the widget's own
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


# ------------------------------------------------------------------ the declaration kinds beyond one bounded number
def _message(param, value, **kwargs) -> tuple[type, str]:
    with pytest.raises(ValueError) as caught:
        param.validate(value, "f", **kwargs)
    return type(caught.value), str(caught.value)


def test_a_seed_or_a_generator():
    rng = np.random.default_rng(3)
    assert params.RANDOM_STATE.validate(rng, "f") is rng                      # taken as it is
    assert params.RANDOM_STATE.validate(np.int64(5), "f") == 5
    assert params.RANDOM_STATE.validate(2 ** 70, "f") == 2 ** 70               # numpy seeds any size
    # out of bounds: told the bounds and the other type; of no accepted kind: told the kinds
    assert _message(params.RANDOM_STATE, -1) == (
        params.ParameterError, "f: seed must be a non-negative integer or a numpy Generator, got -1")
    assert _message(params.RANDOM_STATE, None, note="pools are reproducible") == (
        params.ParameterError, "f: seed must be an integer or a numpy Generator (pools are reproducible), got None")
    assert _message(params.RANDOM_STATE, 1.5)[1] == "f: seed must be an integer or a numpy Generator, got 1.5"
    assert issubclass(params.ParameterError, TypeError) and issubclass(params.ParameterError, ValueError)
    assert params.random_generator(rng, "f") is rng
    assert params.random_generator(9, "f").integers(1000, size=3).tolist() == \
        np.random.default_rng(9).integers(1000, size=3).tolist()


def test_a_number_or_a_word_with_its_meaning():
    smoothing = params.SMOOTHING
    assert smoothing.validate("auto", "f") == "auto" and smoothing.validate(np.float32(0.25), "f") == 0.25
    assert _message(smoothing, "sometimes") == (
        ValueError, "f: smoothing (λ) must be a number with 0 ≤ smoothing ≤ 1 or 'auto' (λ = 1 − Δ), got 'sometimes'")
    assert _message(smoothing, -0.5)[1] == "f: smoothing (λ) must be a number with 0 ≤ smoothing ≤ 1, got -0.5"
    assert smoothing.parse(" 0.5 ", None) == 0.5 and smoothing.parse("auto", None) == "auto"
    with pytest.raises(ValueError) as caught:
        smoothing.parse("lots", None, label="--lambda")
    assert str(caught.value) == "--lambda must be a number or 'auto', got 'lots'"


def test_other_values_beside_the_bounds():
    n_jobs = params.N_JOBS
    assert n_jobs.validate(None, "f") is None and n_jobs.validate(4, "f") == 4
    minus_one = n_jobs.validate(np.int64(-1), "f")
    assert minus_one == -1 and type(minus_one) is int
    for bad in (0, -2, True, 1.5, "2"):
        assert _message(n_jobs, bad) == (ValueError, f"f: n_jobs must be None, -1 (every core) or an integer ≥ 1, "
                                                     f"got {bad!r}")


def test_a_bound_set_by_the_data():
    budget = params.JUDGMENTS.within(high=7, note="the number of qrels entries")
    assert budget.validate(7, "f") == 7 and params.JUDGMENTS.high is None    # the declaration itself is unchanged
    assert _message(budget, 8)[1] == "f: judgments must be an integer with 1 ≤ judgments ≤ 7 (the number of qrels " \
                                     "entries), got 8"
    assert params.slider_range(budget) == {"min": 1, "max": 7}
    large = params.JUDGMENTS.within(high=np.int64(1_234_567))                 # a count from the data, in full
    assert _message(large, 2_000_000)[1] == "f: judgments must be an integer with 1 ≤ judgments ≤ 1234567, got 2000000"
    comparisons = params.COMPARISONS.within(low=3, note="the number of p-values")
    assert _message(comparisons, 2)[1] == "f: m (number of comparisons) must be an integer ≥ 3 (the number of " \
                                          "p-values), got 2"


def test_a_bound_named_by_another_parameter():
    from irnb.predict.classifiers import RELEVANT_GRADE

    assert RELEVANT_GRADE.validate(3, "f", given={"relevance_level": 2}) == 3
    assert _message(RELEVANT_GRADE, 1, given={"relevance_level": 2})[1] == (
        "f: relevant_grade must be an integer with relevance_level (2) ≤ relevant_grade ≤ 127 "
        "(or None: the relevance level), got 1")
    with pytest.raises(TypeError, match=r"relevant_grade's bound is the value of relevance_level: pass given="):
        RELEVANT_GRADE.validate(3, "f")
    assert params.slider_range(RELEVANT_GRADE, given={"relevance_level": 3}) == {"min": 3, "max": 127}


@pytest.mark.parametrize("values", [[10, 5, 100], [1, 2], [1, 2, 3, 4], [0, 1, 2], [1, 2, 101], [1, 2, "3"], 5,
                                    [1, 2, True]])
def test_three_ordered_values(values):
    levels = params.BUDGET_LEVELS.within(high=100)
    assert levels.validate([1, np.int64(1), 100], "f") == (1, 1, 100)          # equal budgets are allowed
    with pytest.raises(ValueError) as caught:
        levels.validate(values, "f")
    assert str(caught.value) == ("f: budgets must be three increasing numbers of judgments (shallow ≤ medium ≤ "
                                 f"deep) between 1 and 100, got {values!r}")


def test_the_callers_use_the_declarations():
    """The former hand-written checks now answer with the declarations' words."""
    from irnb.corrections import bonferroni
    from irnb.intervals import check_smoothing
    from irnb.sweep import sweep

    with pytest.raises(ValueError) as caught:
        stats.randomization_test([[0.1, 0.2], [0.3, 0.4]], seed=-1)
    assert str(caught.value) == _message(params.RANDOM_STATE, -1)[1].replace("f:", "randomization_test:")
    with pytest.raises(ValueError) as caught:
        bonferroni([0.1, 0.2, 0.3], m=2)
    assert str(caught.value) == ("bonferroni: m (number of comparisons) must be an integer ≥ 3 (the number of "
                                 "p-values), got 2")
    with pytest.raises(ValueError) as caught:
        sweep(print, [], n_jobs=0, owner="g")
    assert str(caught.value) == "g: n_jobs must be None, -1 (every core) or an integer ≥ 1, got 0"
    assert check_smoothing(np.float64(0.5), "g") == 0.5


# ------------------------------------------------------------------ no check by hand outside the declarations
NUMBER_TYPES = {"int", "float", "integer", "Integral", "Real", "Number", "floating"}


def hand_written_checks(source: str, where: str) -> list[str]:
    """``where:line`` of every ``if`` that tests a value's number type (``isinstance(x, (int,
    np.integer))``, ``numbers.Integral``) and raises in either branch: a parameter check
    written by hand instead of declared (a flag checked for ``bool`` alone is not counted)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        branches = node.body + node.orelse if isinstance(node, ast.If) else []
        if not any(isinstance(n, ast.Raise) for b in branches for n in ast.walk(b)):
            continue
        for call in ast.walk(node.test):
            if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "isinstance" and len(call.args) == 2:
                kinds = {getattr(n, "id", getattr(n, "attr", None)) for n in ast.walk(call.args[1])}
                if kinds & NUMBER_TYPES:
                    found.append(f"{where}:{node.lineno}")
                    break
    return found


def test_the_scanner_finds_a_check_written_by_hand():
    source = ("import numpy as np\n"
              "def f(max_groups, flag):\n"
              "    if not isinstance(flag, bool):\n"                      # a flag: not counted
              "        raise TypeError('flag must be True or False')\n"
              "    if isinstance(max_groups, bool) or not isinstance(max_groups, (int, np.integer)) or max_groups<1:\n"
              "        raise ValueError('max_groups must be an integer ≥ 1')\n"
              "    values = [max_groups] if isinstance(max_groups, int) else list(max_groups)\n"  # no raise: a shape
              "    if isinstance(flag, np.random.Generator):\n"
              "        rng = flag\n"
              "    elif isinstance(flag, (int, np.integer)) and flag >= 0:\n"         # raises in its else branch
              "        rng = np.random.default_rng(flag)\n"
              "    else:\n"
              "        raise TypeError('seed must be a non-negative integer or a numpy Generator')\n")
    assert hand_written_checks(source, "made_up.py") == ["made_up.py:5", "made_up.py:10"]


def _scan_package(scanner) -> list[str]:
    """What ``scanner(source, where)`` finds in every irnb module but the declarations' own."""
    found = []
    for path in sorted((REPO / "irnb").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative != "irnb/params.py":
            found += scanner(path.read_text(encoding="utf-8"), relative)
    return found


def test_no_parameter_is_checked_by_hand_outside_the_declarations():
    found = _scan_package(hand_written_checks)
    assert found == [], "declare these in irnb.params (Param, Param.within, ParamList) and validate through them"


# ------------------------------------------------------------------ bounds between parameters, declared
ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _values_read(node: ast.AST) -> set[str]:
    """The values an expression reads: names and constant-keyed subscripts (``out["x"]``
    counts as one value, not as ``out`` too)."""
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
            found.add(ast.unparse(n))
        elif isinstance(n, ast.Name):
            found.add(n.id)
    return {f for f in found if not any(g != f and g.startswith(f + "[") for g in found)}


def _says_must(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and "must be" in n.value
               for n in ast.walk(node))


def hand_written_relations(source: str, where: str) -> list[str]:
    """``where:line`` of every bound written by hand between two values: an ordering
    comparison (``<``, ``≤``, ``>``, ``≥``; not of sets) that reads at least two values
    (``a <= b``, ``a + b < c``, ``a + b <= 0.9``), tested by an ``if`` that raises an error
    saying "must be", or passed to a helper together with such a message
    (``need(a <= b, "a must be ≤ b")``): a relation that belongs in a declaration
    (:class:`irnb.params.Relation`, or a bound :meth:`irnb.params.Param.within`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If):
            raises = [n for b in node.body + node.orelse for n in ast.walk(b) if isinstance(n, ast.Raise)]
            tests = [node.test] if any(_says_must(r) for r in raises) else []
        elif isinstance(node, ast.Call) and any(_says_must(a) for a in node.args[1:]):
            tests = node.args[:1]
        else:
            continue
        for compare in (c for t in tests for c in ast.walk(t) if isinstance(c, ast.Compare)):
            sides = [compare.left, *compare.comparators]
            if not all(isinstance(op, ORDERING) for op in compare.ops) or any(
                    isinstance(s, (ast.Set, ast.SetComp)) or getattr(getattr(s, "func", None), "id", None)
                    in ("set", "frozenset") for s in sides):
                continue
            if len(set().union(*map(_values_read, sides))) >= 2:
                found.append(node.lineno)
                break
    return [f"{where}:{line}" for line in sorted(found)]


def test_the_scanner_finds_a_relation_written_by_hand():
    source = ("def f(out, k, length, cols):\n"
              "    def need(ok, message):\n"
              "        if not ok:\n"
              "            raise ValueError(message)\n"
              "    need(out['a'] <= out['b'], 'a must be ≤ b')\n"                       # 5: a helper
              "    need(out['a'] + out['c'] <= 0.9, 'a + c must be ≤ 0.9')\n"            # 6: a sum, a number
              "    if k > length:\n"                                                      # 7: a bound by hand
              "        raise ValueError(f'k must be ≤ the run length {length}')\n"
              "    if k < 1:\n"                                                           # one value: a Param's
              "        raise ValueError('k must be ≥ 1')\n"
              "    if not {'topic', 'docno'} <= set(cols):\n"                             # sets: columns
              "        raise TypeError('the frame must be a table with columns topic, docno')\n"
              "    if len(out) > k:\n"                                                    # no 'must be': data
              "        raise ValueError('too many')\n")
    assert hand_written_relations(source, "made_up.py") == ["made_up.py:5", "made_up.py:6", "made_up.py:7"]


# Relations that the scanner finds and that are not declared yet, each with why (the test fails
# when one is added, or when a listed one has gone).
NOT_YET_DECLARED: dict[str, str] = {
    "irnb/datasets/model.py:capped_group_sizes": "max_runs_per_group × num_groups ≥ num_runs bounds a product of two "
                                                 "parameters, which a Relation (a sum against one value) cannot state",
}


def _by_function(scanner):
    """``scanner`` reporting ``where:function`` instead of ``where:line`` (lines move; functions stay)."""
    def scan(source: str, where: str) -> list[str]:
        functions = [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        found = []
        for hit in scanner(source, where):
            line = int(hit.rsplit(":", 1)[1])
            inside = [f.name for f in functions if f.lineno <= line <= f.end_lineno]
            found.append(f"{where}:{inside[-1] if inside else '<module>'}")
        return found
    return scan


_relations_by_function = _by_function(hand_written_relations)


def test_no_relation_between_parameters_is_written_by_hand():
    found = set(_scan_package(_relations_by_function))
    assert found == set(NOT_YET_DECLARED), "declare these (irnb.params.Relation, Param.within) and check through them"


def test_trec_eval_integer_options_go_through_the_declarations():
    """-l, -M and -N are checked by RELEVANCE_LEVEL, RUN_DEPTH and NUM_DOCS; the error shows
    the text given (trec_eval's exit status 1), and text that is no integer (1.0) is refused."""
    from irnb.trec_eval import UsageError, parse_args

    assert parse_args(["-l", " 2 ", "-M", "+5", "-N", "0", "q", "r"])[0].relevance_level == 2
    cases = [(["-l", "0"], "-l (relevance level) must be an integer ≥ 1, got '0'"),
             (["-l", "1.0"], "-l (relevance level) must be an integer ≥ 1, got '1.0'"),
             (["-M", "x"], "-M (documents per topic) must be an integer ≥ 1, got 'x'"),
             (["-N", "-1"], "-N (documents in the collection) must be a non-negative integer, got '-1'")]
    for argv, message in cases:
        with pytest.raises(UsageError) as caught:
            parse_args([*argv, "q", "r"])
        assert str(caught.value) == message
    options = parse_args(["-M", "7", "-N", "12", "q", "r"])[0]
    assert (options.max_depth, options.num_docs) == (7, 12)


def test_a_relation_between_parameters():
    from irnb.params import Relation

    popular = Relation(("novel_runs", "keyword_runs"), "num_runs", sign="<", note="at least one run must be 'popular'")
    assert popular.describe() == "novel_runs + keyword_runs < num_runs"
    assert popular.names == ("novel_runs", "keyword_runs", "num_runs")
    popular.check({"novel_runs": 20, "keyword_runs": 19, "num_runs": 40}, "f")        # 39 < 40
    with pytest.raises(ValueError) as caught:
        popular.check({"novel_runs": 20, "keyword_runs": 20, "num_runs": 40}, "f")    # 40 is not < 40
    assert str(caught.value) == ("f: novel_runs + keyword_runs (20 + 20) must be < num_runs (40): at least one run "
                                 "must be 'popular'")
    tenth = Relation(("median_relevant",), "docs_per_topic", divisor=10)
    tenth.check({"median_relevant": 500.0, "docs_per_topic": 5000}, "f")              # ≤ holds at equality
    with pytest.raises(ValueError) as caught:
        tenth.check({"median_relevant": 100.5, "docs_per_topic": 1001}, None)
    assert str(caught.value) == "median_relevant (100.5) must be ≤ docs_per_topic / 10 (100.1)"
    with pytest.raises(ValueError, match="sign must be '≤' or '<'"):
        Relation(("a",), "b", sign=">")
    with pytest.raises(ValueError, match="a divisor divides a parameter"):
        Relation(("a",), 0.9, divisor=2)


# ------------------------------------------------------------------ choices, declared
def _says(node: ast.AST, words: str) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) and words in n.value for n in ast.walk(node))


def _tests_membership(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in n.ops)
               for n in ast.walk(node))


def hand_written_choices(source: str, where: str) -> list[str]:
    """``where:line`` of every choice checked by hand: an ``if`` that tests membership
    (``x not in CHOICES``) and raises an error saying "must be one of", or a helper given a
    membership test with a message saying "one of" (``check("test", t, t in TESTS, f"one of
    {TESTS}")``): a choice that belongs in a declaration (``Param(name, str, ...,
    choices=...)``, :meth:`irnb.params.Param.among` for choices set by the data)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If):
            elif_chain = len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)  # its own if, seen apart
            branches = node.body + ([] if elif_chain else node.orelse)
            raises = [n for b in branches for n in ast.walk(b) if isinstance(n, ast.Raise)]
            if any(_says(r, "must be one of") for r in raises) and _tests_membership(node.test):
                found.append(node.lineno)
        elif isinstance(node, ast.Call) and node.args and any(_says(a, "one of") for a in node.args[1:]):
            if any(_tests_membership(a) for a in node.args if not _says(a, "one of")):
                found.append(node.lineno)
    return [f"{where}:{line}" for line in sorted(found)]


def test_the_scanner_finds_a_choice_checked_by_hand():
    source = ("TESTS = ('t', 'sign')\n"
              "def f(test, kind, name, runs, cache, a, b):\n"
              "    if test not in TESTS:\n"                                                  # 3
              "        raise ValueError(f'test must be one of {TESTS}, got {test!r}')\n"
              "    paths = {'lab': 1, 'voila': 2}\n"
              "    if kind not in paths:\n"                                                  # 6: choices of a dict
              "        raise ValueError(f'f: kind must be one of {tuple(paths)}, got {kind!r}')\n"
              "    check('test', test, test in TESTS, f'one of {TESTS}')\n"                  # 8: a helper
              "    if name not in runs:\n"                                                   # a look-up in the data
              "        raise ValueError(f'unknown run {name!r}')\n"
              "    if name in cache:\n"                                                      # no error
              "        return cache[name]\n"
              "    if a < b:\n"                                                              # a relation, not a choice
              "        raise ValueError('a must be ≥ b')\n"
              "    if kind in ('-h', '--help'):\n"                                           # an elif chain: the
              "        pass\n"                                                                # check is the inner if
              "    elif kind == '--compat':\n"
              "        if name not in ('9', '10'):\n"                                        # 18
              "            raise ValueError(f'--compat must be one of 9, 10, got {name!r}')\n"
              "    TEST.validate(test, None)\n")                                             # declared
    assert hand_written_choices(source, "made_up.py") == ["made_up.py:3", "made_up.py:6", "made_up.py:8",
                                                          "made_up.py:18"]


# Choices that the scanner finds and that are not declared yet, each with why (the test fails
# when one is added, or when a listed one has gone).
CHOICES_NOT_YET_DECLARED: dict[str, str] = {}


def test_no_choice_is_checked_by_hand_outside_the_declarations():
    found = set(_scan_package(_by_function(hand_written_choices)))
    assert found == set(CHOICES_NOT_YET_DECLARED), "declare these (Param(name, str, ..., choices=...), Param.among)"


def test_the_former_hand_written_choices_list_their_choices_one_way():
    """Each declared choice, the former hand-written checks' too, names the parameter, lists
    the choices one way (quoted, the last after "or"), says its note and what was passed,
    and tells a near miss "did you mean"."""
    from irnb import corrections, ordering, stats as stats_module

    cases = [
        (lambda: params.TOPIC_RULE.validate("all", None), "topics must be one of 'pairwise' or 'common', got 'all'"),
        (lambda: corrections.adjust_p_values([0.1], "fdr"),
         "correction must be one of 'bonferroni', 'holm', 'bh' or 'none', got 'fdr'"),
        (lambda: stats_module.wilcoxon_test([[0.1, 0.2, 0.3], [0.2, 0.3, 0.5]], method="exakt"),
         "method must be one of 'auto', 'exact' or 'asymptotic', got 'exakt'; did you mean 'exact'?"),
        (lambda: ordering.check_compat(11), "compat (trec_eval version) must be one of '9' or '10', got 11"),
        (lambda: params.STRATEGY.validate("deep", "judge_next"),
         "judge_next: strategy must be one of 'decide-pairs', 'depth' or 'rbp', got 'deep'; did you mean 'depth'?"),
        (lambda: params.RUN_SET.among({"contributing": 1, "non-contributing": 2}).validate("x", "r"),
         "r: run_set must be one of 'contributing' or 'non-contributing', got 'x'"),
        (lambda: params.CASE_FORM.validate("2009", None),
         "form must be one of '2007' or '2008' (Baillie et al. 2007 Table 1, 2008 Tables 3-4), got '2009'; did you "
         "mean '2008'?"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as caught:
            call()
        assert str(caught.value) == message
    assert _message(params.TEST, "tukye")[1].endswith("; did you mean 'tukey'?")   # the registry's still suggest


@pytest.mark.parametrize("name", sorted(params.CHOICES))
def test_every_choice_is_declared_with_its_default(name):
    choice = params.CHOICES[name]
    assert choice.type is str and choice.doc and choice.default in choice.choices
    assert choice.validate(choice.default, "f") == choice.default


def _every_choice_declaration() -> dict[str, Param]:
    """Every declared word-from-a-list parameter of irnb.params, by its constant's name."""
    return {name: obj for name, obj in vars(params).items()
            if isinstance(obj, Param) and obj.type is str and obj.choices}


@pytest.mark.parametrize("name", sorted(_every_choice_declaration()))
def test_every_choice_error_lists_its_choices_one_way(name):
    """Quoted, separated by commas, the last after "or", a choice's meaning beside it."""
    choice = _every_choice_declaration()[name]
    meanings = dict(choice.meanings)
    quoted = [f"{c!r} ({meanings[c]})" if c in meanings else repr(c) for c in choice.choices]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    message = _message(choice, "\u00a7")[1]                                    # no choice is near '§'
    assert message.startswith(f"f: {choice.label or choice.name} must be one of {listed}")
    assert message.endswith(", got '\u00a7'")


def test_a_near_miss_is_told_did_you_mean_for_every_choice():
    assert _message(params.CORRECTION, "holms")[1].endswith("got 'holms'; did you mean 'holm'?")
    assert _message(params.TOPIC_RULE, "comon")[1].endswith("got 'comon'; did you mean 'common'?")
    assert _message(params.ESTIMATOR_NAME, "smooth")[1].endswith("; did you mean 'smoothed'?")  # a synonym


def test_display_options_are_not_parameters():
    """A view's canvas, its control panel, drawing now, a reproduction's figure: checked by
    the rule of their kind under the caller's name, not registered as parameters."""
    registered = {*params.PARAMS, *params.FLAGS, *params.CHOICES, *params.DERIVED}
    assert not {"canvas", "standalone", "active", "figure"} & registered
    assert not any(hasattr(params, n) for n in ("CANVAS", "STANDALONE", "ACTIVE", "FIGURE"))
    assert _message(params.DISPLAY_FLAG, 1, label="standalone") == (
        params.ParameterError, "f: standalone must be True or False, got 1")
    assert _message(params.DISPLAY_CHOICE.among(("auto", "png")), "svg", label="canvas")[1] == \
        "f: canvas must be one of 'auto' or 'png', got 'svg'"
    assert not any(hasattr(p, "step") for p in vars(params).values() if isinstance(p, Param))


# ------------------------------------------------------------------ every default stated once
def _declared_defaults() -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for obj in vars(params).values():
        if isinstance(obj, Param) and obj.default is not None and not isinstance(obj.default, bool):
            out.setdefault(obj.name, []).append(obj.default)
    return out


def repeated_defaults(source: str, where: str, declared: dict[str, list[Any]]) -> list[str]:
    """``where:function(parameter=literal)`` of every signature that writes a declared
    parameter's default again as a literal (``alpha=0.05``), where the declaration's
    (``alpha=ALPHA.default``) is the one statement. Flags (True/False) are read by the flag
    scanners as they are written and stay literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = node.args
        positional = args.posonlyargs + args.args
        pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True),
                 *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None)]
        for arg, default in pairs:
            if isinstance(default, ast.Constant) and default.value is not None and not isinstance(default.value, bool) \
                    and any(type(d) is type(default.value) and d == default.value for d in declared.get(arg.arg, ())):
                found.append(f"{where}:{node.name}({arg.arg}={default.value!r})")
    return found


def test_the_scanner_finds_a_default_written_again():
    source = ("def f(x, *, alpha=0.05, depth: int = 100, seed=SEED.default, test='t', complete=False):\n"
              "    pass\n"
              "def g(measurement_depth=10, alpha=0.01):\n"                        # 0.01: another default
              "    pass\n")
    declared = {"alpha": [0.05], "depth": [100], "seed": [0], "test": ["anova", "t"], "measurement_depth": [10]}
    assert repeated_defaults(source, "m.py", declared) == [
        "m.py:f(alpha=0.05)", "m.py:f(depth=100)", "m.py:f(test='t')", "m.py:g(measurement_depth=10)"]


# Modules whose signatures still write a declared default again, each with why.
DEFAULTS_NOT_YET_READ: dict[str, str] = {
    "irnb/lab.py": "imports only the standard library at start-up (kind='lab'), so that `irnb lab` starts at once",
}


def test_every_default_is_stated_once():
    declared = _declared_defaults()
    found = {}
    for path in sorted((REPO / "irnb").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if relative == "irnb/params.py" or relative.startswith("irnb/papers/"):  # the papers' own: their settings
            continue
        hits = repeated_defaults(path.read_text(encoding="utf-8"), relative, declared)
        if hits:
            found[relative] = hits
    assert set(found) == set(DEFAULTS_NOT_YET_READ), found


# ------------------------------------------------------------------ flags, declared
def hand_written_flags(source: str, where: str) -> list[str]:
    """``where:line`` of every ``if not isinstance(x, bool)`` (``(bool, np.bool_)``) that
    raises in either branch: a True/False check written by hand instead of a declared flag
    (``Param(name, bool, ...)``). A number check's "never a bool" (the same test also asks
    for a number type) and a shape test (``all(isinstance(c, bool) ...)``) are not flags."""
    def kinds(call: ast.AST) -> set:
        if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "isinstance" and len(call.args) == 2:
            return {getattr(n, "id", getattr(n, "attr", None)) for n in ast.walk(call.args[1])}
        return set()

    found = []
    for node in ast.walk(ast.parse(source)):
        branches = node.body + node.orelse if isinstance(node, ast.If) else []
        if not any(isinstance(n, ast.Raise) for b in branches for n in ast.walk(b)):
            continue
        if any(kinds(n) & NUMBER_TYPES for n in ast.walk(node.test)):
            continue
        if any(isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not) and kinds(n.operand) & {"bool", "bool_"}
               for n in ast.walk(node.test)):
            found.append(node.lineno)
    return [f"{where}:{line}" for line in sorted(found)]


def test_the_scanner_finds_a_flag_checked_by_hand():
    source = ("import numpy as np\n"
              "def f(flag, other, n):\n"
              "    if not isinstance(flag, bool):\n"                                          # 3
              "        raise TypeError('flag must be True or False')\n"
              "    for name, value in (('other', other),):\n"
              "        if not isinstance(value, (bool, np.bool_)):\n"                         # 6
              "            raise TypeError(f'{name} must be True or False')\n"
              "    if isinstance(n, bool) or not isinstance(n, int):\n"                       # a number's check
              "        raise ValueError('n must be an integer')\n"
              "    if all(isinstance(c, bool) for c in other):\n"                             # a shape: a mask
              "        if len(other) != n:\n"
              "            raise ValueError('a mask needs one value per run')\n")
    assert hand_written_flags(source, "made_up.py") == ["made_up.py:3", "made_up.py:6"]


def test_no_flag_is_checked_by_hand_outside_the_declarations():
    found = _scan_package(hand_written_flags)
    assert found == [], "declare these flags in irnb.params (Param(name, bool, ...)) and validate through them"


@pytest.mark.parametrize("name", sorted(params.FLAGS))
def test_every_flag_is_declared_once_and_takes_its_default(name):
    flag = params.FLAGS[name]
    assert flag.type is bool and flag.doc
    assert flag.validate(flag.default, "f") is flag.default if flag.default is not None or flag.sentinels else True
    assert flag.validate(np.True_, "f") is True and flag.validate(False, "f") is False
    for bad in (1, 0, "True", 1.0):
        with pytest.raises(params.ParameterError):
            flag.validate(bad, "f")


def test_a_flag_is_told_true_or_false():
    assert _message(params.COMPLETE, "yes") == (params.ParameterError, "f: complete must be True or False, got 'yes'")
    assert _message(params.PROGRESS, 1) == (params.ParameterError,
                                            "f: progress must be True, False or None (automatic), got 1")
    assert params.PROGRESS.validate(None, "f") is None
    assert _message(params.COMPLETE, None)[1] == "f: complete must be True or False, got None"


def test_the_callers_check_their_flags_through_the_declarations():
    """The former hand-written flag checks answer with the same words, as a TypeError (and
    now also a ValueError: a ParameterError)."""
    import pandas as pd

    from irnb import Experiment
    from irnb.decision import decide
    from irnb.metrics import evaluate
    from irnb.papers.registry import Claim
    from irnb.pooling import leave_one_group_out
    from irnb.sweep import sweep

    qrels = pd.DataFrame({"qid": "1", "docno": ["a", "b"], "grade": [1, 0]})
    runs = pd.DataFrame({"run": ["r", "r"], "qid": "1", "docno": ["a", "b"], "score": [2.0, 1.0]})
    exp = Experiment(runs, qrels)
    with pytest.raises(TypeError) as caught:
        evaluate(exp, ["P@2"], complete=1)
    assert str(caught.value) == "complete must be True or False, got 1"
    with pytest.raises(TypeError) as caught:
        leave_one_group_out(exp, depth=1, keep_unpooled="no")
    assert str(caught.value) == "leave_one_group_out: keep_unpooled must be True or False, got 'no'"
    with pytest.raises(TypeError) as caught:
        sweep(print, [], progress="yes", owner="g")
    assert str(caught.value) == "g: progress must be True, False or None (automatic), got 'yes'"
    tests = stats.pairwise_test([[0.1, 0.2, 0.3], [0.2, 0.3, 0.5]], test="t")
    with pytest.raises(TypeError) as caught:
        decide(tests, tests, assessment_higher_is_better=None)
    assert str(caught.value) == "assessment_higher_is_better must be True or False, got None"
    assert Claim("p", "i", "r", np.True_).holds is True
    with pytest.raises(TypeError) as caught:
        Claim("p", "i", "r", "yes")
    assert str(caught.value) == "Claim.holds must be True, False or None, got 'yes'"


def test_a_flag_option_is_given_or_not():
    parser = argparse.ArgumentParser()
    params.add_option(parser, "-c", "--complete", param=params.COMPLETE, help="every topic")
    assert parser.parse_args([]).complete is False and parser.parse_args(["-c"]).complete is True
    assert params.COMPLETE.validate(parser.parse_args(["-c"]).complete, "f") is True
    with pytest.raises(ValueError, match="progress is a flag that is off unless given; its default must be False"):
        params.add_option(argparse.ArgumentParser(), "--progress", param=params.PROGRESS)
    for command in ("evaluate", "report"):
        action = _option(cli.build_parser(), command, "-c")
        assert (action.dest, action.default, action.nargs, action.const) == ("complete", False, 0, True)


def _public_functions(tree: ast.Module):
    """(name, node) of the module's public functions and its public classes' public methods
    (``__init__`` included: a constructor's options are the class's parameters)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for method in node.body:
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                        method.name == "__init__" or not method.name.startswith("_")):
                    yield f"{node.name}.{method.name}", method


def _flag_parameters(function: ast.FunctionDef) -> list[str]:
    """The parameters with a True/False default or a ``bool`` annotation (``bool | None`` too)."""
    args = function.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    flags = []
    for arg, default in [*zip(positional, defaults, strict=True), *zip(args.kwonlyargs, args.kw_defaults, strict=True)]:
        annotation = ast.unparse(arg.annotation).strip("'\"") if arg.annotation else ""
        if (isinstance(default, ast.Constant) and isinstance(default.value, bool)) or \
                "bool" in (part.strip() for part in annotation.split("|")):
            flags.append(arg.arg)
    return flags


def unvalidated_flags(source: str, where: str) -> list[str]:
    """``where:function:parameter`` of every True/False parameter of a public function that
    the function neither validates through a declaration (``FLAG.validate(parameter, ...)``)
    nor hands on unchanged to a method of its own (``self.topic_rows(..., parameter=parameter)``,
    whose own check then answers): a flag left unchecked, where ``1`` or ``"no"`` would pass as true."""
    found = []
    for name, function in _public_functions(ast.parse(source)):
        calls = [call for call in ast.walk(function) if isinstance(call, ast.Call)]
        validated = {call.args[0].id for call in calls
                     if isinstance(call.func, ast.Attribute) and call.func.attr == "validate"
                     and call.args and isinstance(call.args[0], ast.Name)}
        handed_on = {keyword.arg for call in calls
                     if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                     and call.func.value.id == "self" and not call.func.attr.startswith("_")
                     for keyword in call.keywords
                     if isinstance(keyword.value, ast.Name) and keyword.value.id == keyword.arg}
        validated |= handed_on
        found += [f"{where}:{name}:{flag}" for flag in _flag_parameters(function) if flag not in validated]
    return found


def test_the_scanner_finds_a_flag_left_unchecked():
    source = ("def f(x, *, include_all=True, complete: bool = False, progress: 'bool | None' = None, n=1):\n"
              "    complete = COMPLETE.validate(complete, 'f')\n"                    # validated
              "    return x if include_all else None\n"                              # include_all, progress: not
              "def _helper(flag=False):\n"                                           # private: not counted
              "    return flag\n"
              "class View:\n"
              "    def __init__(self, *, active: bool = True, top: int = 20):\n"     # a constructor's flag
              "        self.active = bool(active)\n"
              "    def rows(self, per_topic=True):\n"
              "        per_topic = PER_TOPIC.validate(per_topic, None)\n"
              "    def table(self, *, per_topic=True, include_all=True):\n"       # handed on to rows: checked
              "        return self.rows(per_topic=per_topic), _helper(flag=include_all)\n"  # a helper: not
              "    def _draw(self, now=False):\n"
              "        pass\n")
    assert unvalidated_flags(source, "made_up.py") == ["made_up.py:f:include_all", "made_up.py:f:progress",
                                                       "made_up.py:View.__init__:active",
                                                       "made_up.py:View.table:include_all"]


def test_every_public_flag_is_validated_through_its_declaration():
    found = []
    for path in sorted((REPO / "irnb").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if not path.name.startswith("_") or path.name == "__init__.py":  # a private module's helpers are not the API
            found += unvalidated_flags(path.read_text(encoding="utf-8"), relative)
    assert found == [], "declare these flags in irnb.params (Param(name, bool, ...)) and validate them first thing"


def test_a_choice_with_synonyms_gives_back_the_choice():
    """An estimator by letter, name or symbol (``estimator_key``)."""
    from irnb.intervals import ESTIMATORS, estimator_key

    assert [params.ESTIMATOR_NAME.validate(w, "f") for w in ("M", "smoothed", "X_M", np.str_("X_S"))] == \
        ["M", "M", "M", "S"]
    assert ESTIMATORS == dict(params.ESTIMATOR_NAME.meanings) and tuple(ESTIMATORS) == params.ESTIMATOR.choices
    for bad in ("Q", "smooth", "x_m", 1, None):
        with pytest.raises(ValueError) as caught:
            estimator_key(bad)
        hint = "; did you mean 'smoothed'?" if bad == "smooth" else ""   # a near miss of a name, too
        assert str(caught.value) == ("estimator must be one of 'S' (simplistic), 'B' (background), 'I' (interpolated) "
                                     f"or 'M' (smoothed), got {bad!r}{hint}")
