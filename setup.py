"""Build hook only (metadata lives in pyproject.toml): a wheel ships the teaching notebooks
``notebooks/*.ipynb`` as package data ``irnb/_notebooks/*.ipynb``, where ``irnb lab`` finds
them when irnb is installed from a wheel (see ``irnb/lab.py``). An editable install needs no
copy: ``irnb lab`` reads the checkout's ``notebooks/`` directly. ``MANIFEST.in`` puts the
notebooks into the sdist, so a wheel built from the sdist ships them too.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"
PACKAGE_DATA_DIR = ("irnb", "_notebooks")


class build_py_with_notebooks(build_py):  # noqa: N801 - setuptools command naming
    """``build_py`` that also copies ``notebooks/*.ipynb`` into ``irnb/_notebooks``."""

    def _notebook_copies(self) -> list[tuple[Path, Path]]:
        if getattr(self, "editable_mode", False):
            return []
        target = Path(self.build_lib).joinpath(*PACKAGE_DATA_DIR)
        return [(source, target / source.name) for source in sorted(NOTEBOOKS.glob("*.ipynb"))]

    def run(self) -> None:
        super().run()
        copies = self._notebook_copies()
        if not getattr(self, "editable_mode", False) and not copies:
            raise FileNotFoundError(f"no notebooks to ship: {NOTEBOOKS} holds no *.ipynb "
                                    "(is MANIFEST.in's 'include notebooks/*.ipynb' missing from the sdist?)")
        for source, target in copies:
            self.mkpath(str(target.parent))
            self.copy_file(str(source), str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return list(super().get_outputs(include_bytecode)) + [str(t) for _, t in self._notebook_copies()]


setup(cmdclass={"build_py": build_py_with_notebooks})
