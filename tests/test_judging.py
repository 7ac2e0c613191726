"""irnb.judging: candidates, the decide-pairs kernel, the baselines, the CLI loop,
the assessor's session and widget, and a smoke run of benchmarks/bench_judge_next.py."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irnb import Experiment
from irnb.cli import main
from irnb.intervals import score_intervals
from irnb.judging import (AssessmentSession, candidates, decided_pairs, judge_next, plan, simulate_judging)

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"

# Two runs, one topic, P@2 (the module docstring's case) plus documents that cannot matter:
#   a: x (judged relevant), u (unjudged), w (rank 3: beyond k = 2)
#   b: y (judged non-relevant), v (unjudged), x
RUNS = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 3, "qid": "1", "docno": ["x", "u", "w", "y", "v", "x"],
                     "score": [3.0, 2.0, 1.0] * 2})
QRELS = pd.DataFrame({"qid": "1", "docno": ["x", "y"], "grade": [1, 0]})


@pytest.fixture(scope="module")
def exp():
    return Experiment(RUNS, QRELS)


def test_candidates_are_the_unjudged_documents_in_the_top_k(exp):
    c = candidates(exp, "P@2")
    assert sorted(c.docno.tolist()) == ["u", "v"]  # w is at rank 3 > k; x, y judged
    # each counts 1/2 in its run's P@2 (one topic): a_a(u) = 0.5, a_b(v) = 0.5
    got = {d: w.tolist() for d, w in zip(c.docno, c.weight, strict=True)}
    assert got == {"u": [0.5, 0.0], "v": [0.0, 0.5]}
    # at k = 3, w counts 1/3 in a; x in b is judged
    c3 = candidates(exp, "P@3")
    got = {d: np.round(w, 4).tolist() for d, w in zip(c3.docno, c3.weight, strict=True)}
    assert got == {"u": [0.3333, 0.0], "v": [0.0, 0.3333], "w": [0.3333, 0.0]}


def test_rbp_weights_by_rank(exp):
    c = candidates(exp, "RBP(p=0.5)")
    got = {d: w.tolist() for d, w in zip(c.docno, c.weight, strict=True)}
    # (1 − p)·p^r: rank 2 → 0.5·0.5 = 0.25; rank 3 → 0.5·0.25 = 0.125
    assert got == {"u": [0.25, 0.0], "v": [0.0, 0.25], "w": [0.125, 0.0]}


def test_a_document_that_cannot_change_an_interval_is_never_suggested(exp):
    for strategy in ("decide-pairs", "depth", "rbp"):
        got = judge_next(exp, measure="P@2", n=10, strategy=strategy, background_rate=0.3)
        assert "w" not in set(got["docno"]), strategy  # beyond k
        assert not {"x", "y"} & set(got["docno"]), strategy  # judged
    # runs=["a"] alone: no pair to decide, nothing to suggest
    assert judge_next(exp, measure="P@2", runs=["a"], background_rate=0.3).empty
    # a judged mask that leaves x unjudged makes x a candidate (rank 1 of a, rank 3 of b)
    mask = np.array([False, True])  # qrels entries in (topic, docno) order: x, y
    assert "x" in set(candidates(exp, "P@2", judged=mask).docno)


def test_decided_pairs_get_no_suggestion():
    # a = (x rel, y rel), b = (u, v) unjudged... and c = (z nonrel, t): a [1, 1] vs c [0, 0.5]: decided;
    # only the pairs with b are open, so t (in c) helps only the pair b–c
    runs = pd.DataFrame({"run": ["a", "a", "b", "b", "c", "c"], "qid": "1",
                         "docno": ["x", "y", "u", "v", "z", "t"], "score": [2.0, 1.0] * 3})
    qrels = pd.DataFrame({"qid": "1", "docno": ["x", "y", "z"], "grade": [1, 1, 0]})
    e = Experiment(runs, qrels)
    assert decided_pairs(e, "P@2")[0, 2] == 1
    got = judge_next(e, measure="P@2", n=10, runs=["a", "c"], background_rate=0.5)
    assert got.empty  # the only pair is decided: no document helps


def test_judging_the_suggestions_shrinks_the_targeted_intervals(exp):
    truth = {"u": 0, "v": 0}
    got = judge_next(exp, measure="P@2", n=1, background_rate=0.1)
    assert got["docno"].tolist() == ["v"] and got["gain"].tolist() == [1.0]
    judged = pd.concat([QRELS, pd.DataFrame({"qid": "1", "docno": got["docno"],
                                             "grade": [truth[d] for d in got["docno"]]})])
    before = score_intervals(exp, "P@2")
    after = score_intervals(Experiment(RUNS, judged), "P@2")
    assert float(before.mean_upper[1]) == 0.5 and float(after.mean_upper[1]) == 0.0  # b: [0, 0.5] → [0, 0]
    assert decided_pairs(Experiment(RUNS, judged), "P@2")[0, 1] == 1


def test_plan_spreads_a_batch_over_pairs():
    # three runs; run 0 is the likely winner against 1 and 2 (gap 0.2 each); candidates: row 0 in
    # run 1, row 1 in run 1 too, row 2 in run 2. π = 0: each lowers its run's T̄ by 0.2, closing a gap.
    weight = np.array([[0.0, 0.2, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 0.2]])
    lower, upper = np.array([0.6, 0.0, 0.0]), np.array([0.9, 0.8, 0.8])
    rows, gain, why = plan(weight, np.zeros(3), lower, upper, 3, names=("r0", "r1", "r2"))
    # pairs (direction: larger expected score; r1 and r2 tie, the first wins): r0 > r1 and r0 > r2 with
    # gap 0.8 − 0.6 = 0.2, r1 > r2 with gap 0.8 − 0 = 0.8. Row 2 (in r2, a loser twice) closes
    # 0.2/0.2 + 0.2/0.8 = 1.25; then row 0 closes r0 > r1 (1.0; r1 wins r1 > r2, π = 0: nothing);
    # r0 > r1 now has gap 0 (T̄_1 = 0.6 = B̄_0: touching is not decided), so row 1 still closes it.
    assert rows.tolist() == [2, 0, 1]
    assert gain.tolist() == pytest.approx([1.25, 1.0, 1.0])
    assert why[0] == "closes 100% of the gap r0 > r2 (and helps 1 more pair)"


def test_depth_and_rbp_baselines_order():
    # a: p, q, r; b: q, s, p (one topic, all unjudged). Best ranks: p 1, q 1, r 3, s 2.
    runs = pd.DataFrame({"run": ["a"] * 3 + ["b"] * 3, "qid": "1", "docno": ["p", "q", "r", "q", "s", "p"],
                         "score": [3.0, 2.0, 1.0] * 2})
    e = Experiment(runs, pd.DataFrame({"qid": ["1"], "docno": ["z"], "grade": [0]}))
    depth = judge_next(e, measure="P@3", n=4, strategy="depth")
    assert depth["docno"].tolist() == ["p", "q", "s", "r"]  # best rank 1 (p, q by docno), then 2, then 3
    # RBP(0.8) weights 0.2·0.8^r: p 0.2 + 0.128 = 0.328, q 0.16 + 0.2 = 0.36, s 0.16, r 0.128
    rbp = judge_next(e, measure="P@3", n=4, strategy="rbp")
    assert rbp["docno"].tolist() == ["q", "p", "s", "r"]
    assert rbp["gain"].round(4).tolist() == [0.6667, 0.6667, 0.3333, 0.3333]  # Σ_s a_s: 1/3 per run


def test_errors_name_the_parameter(exp):
    with pytest.raises(ValueError, match="strategy must be one of 'decide-pairs', 'depth' or 'rbp', got 'deep'"):
        judge_next(exp, strategy="deep")
    with pytest.raises(ValueError, match="n must"):
        judge_next(exp, n=0)
    with pytest.raises(ValueError, match="score intervals exist for P@k"):
        judge_next(exp, measure="AP")
    with pytest.raises(ValueError, match="boolean mask over the Experiment's 2 qrels entries, got dtype bool "
                                         r"with shape \(3,\)"):
        judge_next(exp, judged=np.ones(3, bool), strategy="depth")
    with pytest.raises(ValueError, match="not both"):
        judge_next(exp, background_rate=0.1, probabilities=pd.DataFrame())


def test_probabilities_steer_the_choice(exp):
    # u (in the likely winner a) given π = 1 closes a > b's zero gap by 1·0.5; v keeps E, here the
    # fraction relevant among the judged (x rel, y not: 0.5, the fit has too few points), closing
    # it by 0.5·0.5 = 0.25 < 0.5: u first, and after it the pair is expected decided
    probs = pd.DataFrame({"topic": ["1"], "docno": ["u"], "probability": [1.0]})
    got = judge_next(exp, measure="P@2", n=2, probabilities=probs)
    assert got["docno"].tolist() == ["u"]
    with pytest.raises(ValueError, match=r"probabilities must lie in \[0, 1\]"):
        judge_next(exp, measure="P@2", probabilities=probs.assign(probability=[1.5]))


# ----------------------------------------------------------------------------- the CLI loop
def test_cli_loop_judge_append_ask_again(tmp_path):
    # three runs, two topics; truth known to the test; judge what the CLI prints, append, ask again
    rng = np.random.default_rng(3)
    docs = [f"d{i}" for i in range(12)]
    truth = {(q, d): int(rng.random() < 0.4) for q in ("1", "2") for d in docs}
    lines = []
    for name in ("r1", "r2", "r3"):
        for q in ("1", "2"):
            for rank, d in enumerate(rng.permutation(docs)[:8]):
                lines.append(f"{q} Q0 {d} {rank + 1} {10 - rank} {name}\n")
        (tmp_path / name).write_text("".join(x for x in lines if x.rstrip().endswith(name)))
    qrels = tmp_path / "qrels"
    qrels.write_text(f"1 0 {docs[0]} {truth[('1', docs[0])]}\n2 0 {docs[0]} {truth[('2', docs[0])]}\n")
    runs = [str(tmp_path / n) for n in ("r1", "r2", "r3")]
    seen = set()
    for _ in range(30):
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["judge-next", str(qrels), *runs, "-n", "3", "-m", "P@5", "-E", "0.4"]) == 0
        asked = [tuple(line.split()) for line in out.getvalue().splitlines()]
        if not asked:
            break
        assert all(len(a) == 2 for a in asked) and not seen & set(asked)  # never a judged document again
        seen |= set(asked)
        with qrels.open("a") as f:
            f.writelines(f"{q} 0 {d} {truth[(q, d)]}\n" for q, d in asked)
    else:
        pytest.fail("the loop did not end within 30 rounds")
    # the loop ends when every pair is decided or no document can help: each open pair is then a tie
    e = Experiment(runs, str(qrels))
    iv = score_intervals(e, "P@5")
    m = decided_pairs(e, "P@5")
    for i in range(3):
        for j in range(i + 1, 3):
            if m[i, j] == 0:  # undecided: no unjudged document left in either run's top 5
                assert iv.mean_lower[i] == iv.mean_upper[i] and iv.mean_lower[j] == iv.mean_upper[j]


def test_cli_why_and_errors(tmp_path, capsys):
    (tmp_path / "run").write_text("1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n")
    (tmp_path / "run2").write_text("1 Q0 c 1 2 s\n1 Q0 a 2 1 s\n")
    (tmp_path / "qrels").write_text("1 0 a 1\n")
    assert main(["judge-next", str(tmp_path / "qrels"), str(tmp_path / "run"), str(tmp_path / "run2"),
                 "-n", "5", "-m", "P@2", "--strategy", "depth", "--why"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in out] == ["1 c", "1 b"]  # c at rank 1 of s, b at rank 2 of r
    assert "depth 1 of the pool" in out[0]
    assert main(["judge-next", str(tmp_path / "qrels"), str(tmp_path / "run"), "-m", "AP"]) == 2
    assert "score intervals exist for P@k" in capsys.readouterr().err


# ----------------------------------------------------------------------------- session and widget
def test_session_state_transitions(exp):
    s = AssessmentSession(exp, measure="P@2", background_rate=0.1)
    assert (s.spent, s.decided, s.pairs, s.current["docno"]) == (0, 0, 1, "v")
    s.judge(True)  # v relevant: B̄_b = 0.5, the pair stays open (a [0.5, 1], b [0.5, 0.5])
    assert s.spent == 1 and s.decided == 0
    assert s.intervals().loc["b"].tolist() == [0.5, 0.5]
    assert s.current["docno"] == "u" and s.history[0]["relevant"] is True and s.history[0]["qrels_grade"] is None
    s.judge(True)  # u relevant: a = [1, 1] > b = [0.5, 0.5]
    assert (s.spent, s.decided, s.current) == (2, 1, None)
    assert s.decided_matrix().values.tolist() == [[0, 1], [-1, 0]]
    with pytest.raises(ValueError, match="nothing left to judge"):
        s.judge(False)


def test_assessor_widget_buttons_update_the_counters():
    pytest.importorskip("ipywidgets")
    from irnb.widgets_judge import assessor

    e = Experiment(RUNS, QRELS)
    w = assessor(e, measure="P@2", background_rate=0.1, documents={"v": "text of <v>"})
    assert "document v" in w.document.value and "text of &lt;v&gt;" in w.document.value
    assert "judgments spent: <b>0</b>" in w.counters.value and "pairs decided: <b>0</b> of 1" in w.counters.value
    w.not_relevant_button.click()
    assert "judgments spent: <b>1</b>" in w.counters.value and "pairs decided: <b>1</b> of 1" in w.counters.value
    assert w.relevant_button.disabled and "Nothing left to judge" in w.document.value
    assert "<td>b</td><td>0.000</td><td>0.000</td>" in w.intervals.value
    # a above b: row a (shown first, larger T̄) has ▲ in b's column
    assert w.session.decided_matrix().loc["a", "b"] == 1 and "▲" in w.matrix.value


# ----------------------------------------------------------------------------- simulation and benchmark
@pytest.fixture(scope="module")
def bench_module(request):
    mp = pytest.MonkeyPatch()
    mp.syspath_prepend(str(BENCH))
    import bench_judge_next

    request.addfinalizer(mp.undo)
    return bench_judge_next


def test_benchmark_smoke_on_the_default_collection(bench_module):
    from irnb.datasets import default
    from irnb.judging import complete_experiment

    e = complete_experiment(default())
    table = bench_module.run(e, depth=5, budget=400, round_size=200)
    assert table.groupby("strategy")["judgments"].max().to_dict() == {"decide-pairs": 400, "depth": 400, "rbp": 400}
    assert (table["wrong"] == 0).all()  # intervals are bounds: never decided against the truth
    last = table[table["round"] == 2].set_index("strategy")["decided"]
    assert last["decide-pairs"] >= 2 * max(last["depth"], 1)
    # widths shrink round by round for every strategy
    for _, group in table.groupby("strategy"):
        assert (np.diff(group["width"].to_numpy()) <= 1e-12).all()
    assert "decide-pairs / depth" in bench_module.report("x", table, 0.1)


def test_simulation_judges_only_qrels_entries(exp):
    # the experiment's qrels list only x and y: nothing is judgeable, so nothing is spent
    table = simulate_judging(exp, start=None, budget=2, round_size=1, measure="P@2", background_rate=0.1)
    assert table["judgments"].max() == 0


# ----------------------------------------------------------------------------- the assessor's start and next decision
def test_judgments_to_decide_counts_the_largest_closures(exp):
    """P@2 (module case): a ∈ [0.5, 1], b ∈ [0, 0.5], gap a > b = 0.5 − 0.5 = 0 and v closes it by
    0.5 > 0: one judgment. Judging u not relevant first (a → [0.5, 0.5]) leaves the gap at 0, and
    v still decides it: one."""
    s = AssessmentSession(exp, measure="P@2", background_rate=0.1)
    assert s.judgments_to_decide() == 1
    assert s.current_truth is None  # v is not in the qrels


def test_judgments_to_decide_needs_more_than_a_tie():
    """Two runs over two topics, P@1 (each document weighs 1/2 in a run's mean): a = (x1 judged
    relevant, u2 unjudged) ∈ [0.5, 1], b = (v1, v2 unjudged) ∈ [0, 1]. For a > b the gap is
    T̄_b − B̄_a = 1 − 0.5 = 0.5; one judgment closes at most 0.5, which only ties (B̄_a = T̄_b
    decides nothing), so two are needed; b > a has gap 1 − 0 = 1 and needs three. Answer: 2."""
    run = pd.DataFrame({"run": ["a", "a", "b", "b"], "qid": ["1", "2", "1", "2"],
                        "docno": ["x1", "u2", "v1", "v2"], "score": 1.0})
    qrels = pd.DataFrame({"qid": ["1", "2", "2"], "docno": ["x1", "u2", "v2"], "grade": [1, 1, 0]})
    judged = np.array([True, False, False])  # entries in (topic, docno) order: x1, u2, v2; only x1 judged
    s = AssessmentSession(Experiment(run, qrels), judged=judged, measure="P@1", background_rate=0.5)
    assert (s.lower.tolist(), s.upper.tolist()) == ([0.5, 0.0], [1.0, 1.0])
    assert s.judgments_to_decide() == 2
    s.judge(s.current_truth if s.current_truth is not None else False)
    assert s.decided == 0 and s.judgments_to_decide() == 1  # one judgment made the tie; one more decides


def test_ties_stay_ties_after_rounding_noise():
    """Why the session keeps its bounds on a grid: 0.1 + 0.2 lands an ulp above 0.3, which would
    decide a tied pair by rounding."""
    assert 0.1 + 0.2 > 0.3 and not np.round(0.1 + 0.2, 12) > 0.3
    run = pd.DataFrame({"run": ["a"] * 10 + ["b"] * 10, "qid": "1", "score": 1.0,
                        "docno": [f"a{i}" for i in range(10)] + [f"b{i}" for i in range(10)]})
    qrels = pd.DataFrame({"qid": "1", "docno": ["a0", "a1", "a2"] + [f"b{i}" for i in range(3, 10)],
                          "grade": [1, 1, 1] + [0] * 7})
    judged = np.array([True, True, False] + [True] * 7)  # a: 2 relevant of 10 known; b: 7 non-relevant known
    s = AssessmentSession(Experiment(run, qrels), judged=judged, measure="P@10", background_rate=0.5)
    assert s.lower[0] == 0.2 and s.upper[1] == 0.3  # a ∈ [0.2, 1], b ∈ [0, 0.3]
    assert s.current["docno"].startswith("a")  # the suggestion is one of a's documents
    s.judge(True)  # relevant: B̄_a = 0.2 + 0.1, which floats make 0.30000000000000004 > T̄_b = 0.3
    assert s.lower[0] == 0.3 and s.decided == 0, (repr(s.lower[0]), s.decided)


def test_judgments_to_decide_is_a_lower_bound_on_the_default(truth):
    """Along truthful and random answers from three pools, every count is at most the judgments
    that the next decision took (the rule fails without the tie grid: an ulp decided a tie)."""
    from irnb.pooling import depth_pool

    rng = np.random.default_rng(5)
    checked = 0
    for depth, honest in ((7, True), (8, False), (9, False)):
        s = AssessmentSession(truth, judged=depth_pool(truth, depth=depth))
        counts, base = [], s.decided
        for _ in range(40):
            if s.current is None:
                break
            counts.append(s.judgments_to_decide())
            s.judge(bool(s.current_truth) if honest else bool(rng.random() < 0.5))
            if s.decided > base:
                taken = len(counts)
                assert all(c is not None and c <= taken - i for i, c in enumerate(counts)), (depth, counts)
                checked += len(counts)
                counts, base = [], s.decided
    assert checked >= 20, checked


def test_judgments_to_decide_is_none_when_nothing_can_be_decided(exp):
    s = AssessmentSession(exp, measure="P@2", background_rate=0.1)
    s.judge(False)  # v: the only pair is decided
    assert s.decided == 1 and s.judgments_to_decide() is None


@pytest.fixture(scope="module")
def truth():
    from irnb.datasets import default
    from irnb.judging import complete_experiment

    return complete_experiment(default())


def _truthful_clicks(session: AssessmentSession, limit: int) -> int:
    """Judge with the truth until a new pair is decided; the judgments that took (limit + 1 if none did)."""
    for click in range(1, limit + 1):
        session.judge(bool(session.current_truth))
        if session.decided > session.initial_decided:
            return click
    return limit + 1


def test_assessor_start_lets_ten_truthful_judgments_decide_a_pair(truth):
    from irnb.judging import assessor_start
    from irnb.pooling import depth_pool

    start = assessor_start(truth)
    session = AssessmentSession(truth, judged=start)
    need = session.judgments_to_decide()
    clicks = _truthful_clicks(session, 10)
    assert need is not None and need <= clicks <= 10, (need, clicks)
    assert session.agreements == clicks  # the truth's answers agree with the truth
    # the start is the shallowest such pool: one level shallower, ten truthful judgments decide nothing
    shallower = AssessmentSession(truth, judged=depth_pool(truth, depth=start.depth - 1))
    assert _truthful_clicks(shallower, 10) == 11


def test_assessor_start_says_when_no_depth_is_enough(truth):
    from irnb.judging import assessor_start

    with pytest.raises(ValueError, match=r"from no depth pool of depth 1 to 10 do clicks=1 judgments"):
        assessor_start(truth, clicks=1, runs=list(truth.run_names[:2]))
    with pytest.raises(ValueError, match="clicks"):
        assessor_start(truth, clicks=0)
