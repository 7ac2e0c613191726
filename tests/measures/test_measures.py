"""The measures package (irnb.measures): the sets the rest of irnb reads from the declarations,
the consumers that ask them, and a new module in irnb/measures/ as a new family everywhere."""

from __future__ import annotations

import pytest

from irnb.measures import FAMILIES


def test_the_sets_others_use_are_read_from_the_declarations():
    from irnb.measures import ASSESSMENT_FAMILIES, INTERVAL_FAMILIES, SCENARIO_FAMILIES

    assert set(INTERVAL_FAMILIES) == {"P", "RBP", "SDCG"}
    assert set(SCENARIO_FAMILIES) == {"AP", "nDCG", "Bpref"}
    assert ASSESSMENT_FAMILIES == ("Judged", "JudgedRet", "NotUnj", "MAA", "MAAR", "RecallAssessment", "Unj")
    assert {n: f.condensed_of for n, f in FAMILIES.items() if f.condensed_of} == {"Pj": "P", "APj": "AP",
                                                                                    "nDCGj": "nDCG"}
    assert {n for n, f in FAMILIES.items() if f.average_assessment} == {"AP", "APj", "GMAP", "infAP"}
    assert {n: f.symbol for n, f in FAMILIES.items() if f.symbol} == {"Judged": "A_p"}


def test_the_consumers_ask_the_declaration():
    from irnb.decision import assessment_measure
    from irnb.plots.style import measure_label
    from irnb.trec_eval import TREC_MEASURES

    assert measure_label("Judged@20") == "A_p@20" and measure_label("JudgedRet@20") == "JudgedRet@20"
    assert [assessment_measure(m).name for m in ("AP(j)", "infAP", "RR@10")] == ["MAA", "MAA", "Judged@10"]
    rows = {m.name: (m.family, m.summary, m.fmt) for m in TREC_MEASURES}
    assert rows["map_cut"] == ("AP", "mean", "double") and rows["num_ret"] == ("NumRet", "sum", "long")
    assert rows["gm_bpref"] == ("GMBpref", "gmean", "double") and rows["runid"] == (None, "none", "string")
    # every trec_eval row but the two text rows is computed by the family that declares its name
    assert all(FAMILIES[f].trec_name == n or FAMILIES[f].trec_cut_name == n for n, (f, _, _) in rows.items() if f)


# ============================================================================ a new family is one file
def test_families_are_listed_by_declaring_module_then_in_declared_order():
    modules = [f.module for f in FAMILIES.values()]
    assert modules == sorted(modules) and all(m.startswith("irnb.measures.") for m in modules)
    assert list(FAMILIES)[:4] == ["AP", "APj", "GMAP", "infAP"]  # ap.py's own order
    assert FAMILIES["Pj"].module == FAMILIES["P"].module == "irnb.measures.precision"


#: A made-up family in a module of its own. It imports another measure module, so that module's
#: families register before the modules that sort between the two.
TOY_MODULE = '''"""Half precision, a made-up family: P@k / 2."""

from . import precision  # noqa: F401
from .base import Family, register

register(Family("HalfP", "half of P@k", "a made-up family", cutoff="required",
                kernel=lambda view, m: view.at(view.cum_rel, m.cutoff) / m.cutoff / 2))
'''


TOY_SCRIPT = '''
import json, sys
import pandas as pd
import irnb
from irnb import Experiment
from irnb.decision import assessment_measure
from irnb.measures import FAMILIES, parse_measure
from irnb.metrics import evaluate
sys.path.insert(0, sys.argv[1])
import measure_catalogue

exp = Experiment({"r": pd.DataFrame([("1", "a", 3.0), ("1", "b", 2.0), ("1", "c", 1.0)],
                                    columns=["qid", "docno", "score"])},
                 pd.DataFrame([("1", "a", 1), ("1", "c", 1)], columns=["qid", "docno", "grade"]))
ev = evaluate(exp, ["HalfP@2", "P@2"])
print(json.dumps({"package": irnb.__file__, "module": FAMILIES["HalfP"].module,
                  "modules": [f.module for f in FAMILIES.values()], "name": str(parse_measure("HalfP@2")),
                  "values": [float(ev["HalfP@2"][0, 0]), float(ev["P@2"][0, 0])],
                  "assessment": assessment_measure("HalfP@2").name, "page": measure_catalogue.render()}))
'''


@pytest.mark.slow
def test_a_new_module_is_a_new_family_everywhere(tmp_path):
    """A copy of the package with one more file in irnb/measures/: the parser, evaluate, the
    decision matrix, the command line and the definitions page know the family, and the
    families stay in module order although the new module imports another."""
    import json
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    shutil.copytree(repo / "irnb", tmp_path / "irnb", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "irnb" / "measures" / "halfp.py").write_text(TOY_MODULE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", TOY_SCRIPT, str(repo / "docs" / "_ext")], capture_output=True,
                          text=True, cwd=tmp_path, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout)
    assert Path(got["package"]).resolve() == (tmp_path / "irnb" / "__init__.py").resolve()
    assert got["module"] == "irnb.measures.halfp" and got["name"] == "HalfP@2"
    assert got["modules"] == sorted(got["modules"])
    assert got["values"] == [pytest.approx(0.25), pytest.approx(0.5)]  # a then b: P@2 = 1/2
    assert got["assessment"] == "Judged@2"
    assert "**`HalfP@k`** (family `HalfP`): half of P@k." in got["page"]
    assert "Declared in `irnb/measures/halfp.py`." in got["page"]
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 c 1\n", encoding="utf-8")
    (tmp_path / "run").write_text("1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n", encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "irnb", "evaluate", "-m", "HalfP@2", "qrels", "run"],
                         capture_output=True, text=True, cwd=tmp_path, env=env, check=False)
    assert cli.returncode == 0, cli.stderr[-3000:]
    assert cli.stdout.split() == ["run", "HalfP@2", "all", "0.2500"], cli.stdout
