"""The Colab install path: the notebooks run on Colab's widget stack.

Colab keeps its own widgets (ipywidgets 7.7, no ipympl) and preinstalls the scientific stack.
This test builds that in a fresh virtual environment: Colab's side first (``ipywidgets==7.7.*``,
matplotlib, seaborn, scikit-learn, and the kernel tools nbclient, ipykernel, nbformat), then irnb
from a copy of this checkout with the ``colab`` extra, as a notebook's first cell does in Colab.
It checks that the extra leaves ipywidgets 7.7 in place and brings no ipympl, then executes each
notebook's ``.ipynb`` (what Colab opens) in a kernel of that environment, in a folder of its own
(no ``shared/`` data beside it, as in Colab), with matplotlib's inline backend: every cell runs,
and every live view built with ``canvas="auto"`` draws on the PNG canvas.

Skipped when pip cannot reach a package index that offers ipywidgets 7.7 (offline).
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: The widget stack Colab brings itself: the colab extra must not ask for any of it.
COLAB_OWN = ("jupyterlab", "jupyterlab-widgets", "widgetsnbextension", "notebook", "voila", "ipympl")
#: Colab's widget release (major.minor): what its runtime ships.
COLAB_IPYWIDGETS = "7.7"
#: Colab's side of the environment, installed before irnb.
COLAB_SIDE = (f"ipywidgets=={COLAB_IPYWIDGETS}.*", "matplotlib", "seaborn", "scikit-learn", "nbclient", "ipykernel",
              "nbformat")
#: The notebooks run: every one, or those ``IRNB_COLAB_NOTEBOOKS`` names (space-separated), e.g.
#: "00_tour.ipynb dashboard.ipynb 04_pool_bias.ipynb" for a quicker run that still builds every
#: view, the assessor and a reproduction-heavy lesson.
NOTEBOOKS = (tuple(os.environ.get("IRNB_COLAB_NOTEBOOKS", "").split())
             or tuple(sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))))
KERNEL = "irnb-colab-test"
_IGNORE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", "*.pyc", ".hypothesis",
                                 ".pytest_cache", ".ipynb_checkpoints", "irnb-notebooks", "_build", "tests",
                                 "benchmarks", "docs")

# Executed by the environment's own python: runs each notebook with the environment's kernel, adds
# a last cell that reports what the kernel had (its python, ipywidgets, backend, the views' canvases).
RUNNER = r'''
import json, sys, time
import nbclient, nbformat

PROBE = """
import gc, json, sys
import ipywidgets, matplotlib
from irnb.widgets import View
print(json.dumps({"python": sys.executable, "ipywidgets": ipywidgets.__version__,
                  "backend": matplotlib.get_backend(), "ipympl": "ipympl" in sys.modules,
                  "canvases": sorted(o.canvas for o in gc.get_objects() if isinstance(o, View))}))
"""
kernel, folder, names = sys.argv[1], sys.argv[2], sys.argv[3:]
results = {}
for name in names:
    notebook = nbformat.read(f"{folder}/{name}", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name=kernel,
                                     resources={"metadata": {"path": folder}})
    start = time.perf_counter()
    try:
        client.execute()
        error = None
    except nbclient.exceptions.CellExecutionError as err:
        error = str(err)[-3000:]
    seconds = time.perf_counter() - start
    probe = None
    if error is None:
        text = "".join(o.get("text", "") for o in notebook.cells[-1].get("outputs", [])
                       if o.get("output_type") == "stream")
        probe = json.loads(text.strip().splitlines()[-1])
    shown = [o["data"] for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    results[name] = {"seconds": round(seconds, 1), "error": error, "probe": probe,
                     "widgets_shown": len(shown), "with_still": sum("image/png" in d for d in shown)}
print(json.dumps(results))
'''


def _builds_a_view(path: Path) -> bool:
    """Whether a code cell of the notebook at ``path`` calls one of irnb.widgets' view builders."""
    from irnb import widgets

    builders = [n for n in widgets.__all__ if inspect.isfunction(getattr(widgets, n))]
    code = "\n".join("".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
                     if c["cell_type"] == "code")
    return re.search(rf"\b({'|'.join(builders)})\(", code) is not None


def _environment() -> dict[str, str]:
    """This process's environment without what would reach past the new one: no PYTHONPATH (the
    checkout), no MPLBACKEND (the inline backend draws), no shared data (Colab has none)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "MPLBACKEND", "VIRTUAL_ENV", "JUPYTER_PATH")}
    env["IRNB_SHARED_DATA"] = "0"
    return env


def _run(command: list[str], *, cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False,
                          env=_environment())
    assert done.returncode == 0, \
        f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _skip_when_offline(tmp: Path) -> None:
    """Skip unless pip can fetch Colab's ipywidgets release from an index."""
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--timeout", "20", "--retries", "1",
                           "-d", str(tmp), f"ipywidgets=={COLAB_IPYWIDGETS}.*"],
                          capture_output=True, text=True, timeout=300, check=False, env=_environment())
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        pytest.skip(f"pip cannot fetch ipywidgets {COLAB_IPYWIDGETS}.* from a package index (offline?): {last}")


@pytest.fixture(scope="module")
def colab(tmp_path_factory) -> dict:
    """The Colab-like environment, built and used once: install facts, then each notebook's run."""
    tmp = tmp_path_factory.mktemp("colab")
    _skip_when_offline(tmp / "probe")
    timings = {}
    start = time.perf_counter()
    _run([sys.executable, "-m", "venv", str(tmp / "venv")], cwd=tmp, timeout=300)
    python = str(tmp / "venv" / "bin" / "python")
    _run([python, "-m", "pip", "install", "-q", *COLAB_SIDE], cwd=tmp, timeout=1800)
    source = tmp / "src"
    shutil.copytree(REPO, source, ignore=_IGNORE)
    _run([python, "-m", "pip", "install", "-q", f"{source}[colab]"], cwd=tmp, timeout=1800)
    _run([python, "-m", "ipykernel", "install", "--sys-prefix", "--name", KERNEL], cwd=tmp, timeout=300)
    timings["environment"] = time.perf_counter() - start
    facts = json.loads(_run([python, "-c", (
        "import importlib.util, json, ipywidgets, irnb; "
        "print(json.dumps({'ipywidgets': ipywidgets.__version__, 'irnb': irnb.__file__, "
        "'ipympl': importlib.util.find_spec('ipympl') is not None}))")], cwd=tmp, timeout=300).stdout)
    work = tmp / "work"  # the notebooks alone, as Colab opens them
    work.mkdir()
    for name in NOTEBOOKS:
        shutil.copy2(REPO / "notebooks" / name, work / name)
    (tmp / "run.py").write_text(RUNNER, encoding="utf-8")
    start = time.perf_counter()
    runs = json.loads(_run([python, str(tmp / "run.py"), KERNEL, str(work), *NOTEBOOKS], cwd=work,
                           timeout=3600).stdout.strip().splitlines()[-1])
    timings["notebooks"] = time.perf_counter() - start
    print(f"\nColab environment built in {timings['environment']:.0f} s; notebooks ran in "
          f"{timings['notebooks']:.0f} s: " + ", ".join(f"{n} {r['seconds']} s" for n, r in runs.items()))
    return {"facts": facts, "runs": runs, "venv": tmp / "venv"}


#: A Colab form's title line: Colab shows a form's title in place of its code.
COLAB_TITLE = re.compile(r"^#\s*@title\b")


def colab_hides_code(cell: dict) -> bool:
    """Whether Colab shows ``cell`` (a cell of an ``.ipynb`` as JSON) with its code hidden: a
    code cell whose first line is a form title (``# @title …``) and whose metadata says
    ``"cellView": "form"``. Colab ignores JupyterLab's ``jupyter.source_hidden``."""
    source = "".join(cell.get("source", ""))
    first = source.splitlines()[0] if source else ""
    return (cell.get("cell_type") == "code" and cell.get("metadata", {}).get("cellView") == "form"
            and COLAB_TITLE.match(first) is not None)


def test_the_colab_form_rule_refuses_made_up_cells():
    form = {"cell_type": "code", "metadata": {"cellView": "form"}, "source": ["#@title Answer\n", "x = 1\n"]}
    assert colab_hides_code(form)
    assert not colab_hides_code({**form, "metadata": {"jupyter": {"source_hidden": True}}})  # JupyterLab's only
    assert not colab_hides_code({**form, "source": ["x = 1\n", "#@title Answer\n"]})  # the title not first
    assert not colab_hides_code({**form, "source": ["# The answer's code\n"]})  # a comment, not a form title


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb")))
def test_colab_shows_every_answer_folded_as_a_form(name):
    """Every answer cell of the ``.ipynb`` Colab opens hides its code there: a form titled with the
    answer's neutral first line (the notebook rules' ANSWER_FIRST_LINE)."""
    sys.path.insert(0, str(REPO / "tests" / "source"))
    try:
        from test_notebook_sources import ANSWER_FIRST_LINE
    finally:
        sys.path.remove(str(REPO / "tests" / "source"))
    cells = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    answers = [c for c in cells if c["cell_type"] == "code" and "answer(" in "".join(c["source"])]
    for cell in answers:
        assert colab_hides_code(cell), f"{name}: Colab would show this answer's code: {''.join(cell['source'])[:80]}"
        assert "".join(cell["source"]).splitlines()[0] == ANSWER_FIRST_LINE


def test_the_colab_extra_pins_no_widget_stack():
    packaging = pytest.importorskip("packaging.requirements")
    from packaging.utils import canonicalize_name

    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extra = [packaging.Requirement(text) for text in project["optional-dependencies"]["colab"]]
    assert {canonicalize_name(r.name) for r in extra}.isdisjoint(COLAB_OWN), extra
    (widgets,) = [r for r in extra if canonicalize_name(r.name) == "ipywidgets"]
    # Colab's release and the one installed here (the other extras' pin) both satisfy it: pip keeps either
    here = importlib.metadata.version("ipywidgets")
    assert widgets.specifier.contains(f"{COLAB_IPYWIDGETS}.0") and widgets.specifier.contains(here), (widgets, here)


@pytest.mark.slow
def test_the_colab_extra_keeps_colabs_widgets_and_brings_no_ipympl(colab):
    facts = colab["facts"]
    assert facts["ipywidgets"].startswith(COLAB_IPYWIDGETS + "."), \
        f"installing irnb[colab] replaced ipywidgets {COLAB_IPYWIDGETS} with {facts['ipywidgets']}"
    assert facts["ipympl"] is False, "ipympl is importable: the environment is not Colab's"
    assert Path(facts["irnb"]).is_relative_to(colab["venv"]), f"irnb imported from {facts['irnb']}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebook_runs_with_ipywidgets_7_and_png_views(colab, name):
    run = colab["runs"][name]
    assert run["error"] is None, f"{name} failed under ipywidgets {COLAB_IPYWIDGETS}:\n{run['error']}"
    probe = run["probe"]
    assert Path(probe["python"]).is_relative_to(colab["venv"]), f"the kernel ran {probe['python']}"
    assert probe["ipywidgets"].startswith(COLAB_IPYWIDGETS + ".") and not probe["ipympl"], probe
    assert "inline" in probe["backend"], f"matplotlib's backend in the kernel: {probe['backend']}"
    if _builds_a_view(REPO / "notebooks" / name):
        assert probe["canvases"], f"{name} calls a view builder but the kernel holds no live view"
        # shown as widgets, with a still picture beside each view for a page that cannot run them
        assert run["widgets_shown"] >= 1 and run["with_still"] >= 1, run
    assert set(probe["canvases"]) <= {"png"}, f"{name}: canvas='auto' chose {probe['canvases']}, not the PNG canvas"
