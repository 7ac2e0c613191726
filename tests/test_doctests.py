"""Every docstring example of the package runs, module by module, as a doctest.

The examples are documentation (STYLE 9, 15): a reader checks their arithmetic by hand,
so an example that no longer prints what it shows is a failing test here.
"""

from __future__ import annotations

import doctest
import importlib
import io
import pkgutil
from pathlib import Path

import pytest

import irnb

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# ``python -m irnb`` runs the command when imported; it holds no examples.
MODULES = sorted(m.name for m in pkgutil.walk_packages(irnb.__path__, "irnb.") if not m.name.endswith("__main__"))


def _source(name: str) -> str:
    module = importlib.import_module(name)
    return Path(module.__file__).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder(exclude_empty=True).find(module, name)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out = io.StringIO()
    for test in sorted(tests, key=lambda t: t.name):
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed:\n{out.getvalue()}"
    if ">>> " in _source(name):  # examples written in the module are found (none hide from the finder)
        assert result.attempted > 0, f"{name} has '>>> ' examples that doctest does not find"


def test_the_package_has_examples():
    """The parametrized test above covers the modules that hold examples; most do."""
    with_examples = [name for name in MODULES if ">>> " in _source(name)]
    assert len(with_examples) >= len(MODULES) // 2, with_examples
