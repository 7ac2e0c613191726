"""``irnb lab``: JupyterLab on a working copy of the teaching notebooks.

The notebooks come from the source checkout's ``notebooks/`` folder or, in an installed
wheel, from the package data ``irnb/_notebooks``. Copying never overwrites a notebook the
user already has in the working folder, so their edits survive a second ``irnb lab``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["notebook_source", "copy_notebooks", "open_lab", "lab_command", "FIRST_NOTEBOOK"]

FIRST_NOTEBOOK = "00_tour.ipynb"


def notebook_source() -> Path:
    """Where the shipped notebooks are: the checkout's ``notebooks/`` or the package data."""
    package = Path(__file__).resolve().parent
    for candidate in (package.parent / "notebooks", package / "_notebooks"):
        if (candidate / FIRST_NOTEBOOK).is_file():
            return candidate
    raise FileNotFoundError(
        f"no teaching notebooks found next to irnb (looked in {package.parent / 'notebooks'} "
        f"and {package / '_notebooks'})"
    )


def copy_notebooks(target: str | Path) -> list[Path]:
    """Copy every shipped notebook (and data file) into ``target``; existing files are kept.
    The jupytext sources (``*.md`` paired with an ``.ipynb``) stay behind: the working copy is
    the ``.ipynb`` notebooks. Returns the files copied this time."""
    source = notebook_source()
    target = Path(target)
    target.mkdir(parents=True, exist_ok=True)
    copied = []
    for path in sorted(source.iterdir()):
        if path.name.startswith((".", "_")) or path.is_dir():
            continue
        if path.suffix == ".md" and path.with_suffix(".ipynb").is_file():
            continue  # the teaching source of a paired notebook
        dest = target / path.name
        if not dest.exists():
            shutil.copy2(path, dest)
            copied.append(dest)
    return copied


def open_lab(*, target: str | Path | None = None, open_browser: bool = True) -> int:
    """Copy the notebooks to ``target`` (default ``./irnb-notebooks``) and start JupyterLab on
    the first one. Returns JupyterLab's exit status."""
    folder = Path(target) if target is not None else Path.cwd() / "irnb-notebooks"
    copied = copy_notebooks(folder)
    print(f"irnb: notebooks in {folder} ({len(copied)} copied, existing ones kept)", file=sys.stderr)
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        raise OSError("JupyterLab is not installed; install it with: pip install 'irnb[notebook]'") from None
    return subprocess.call(lab_command(folder, open_browser=open_browser))


def lab_command(folder: Path, *, open_browser: bool = True) -> list[str]:
    """The JupyterLab command line: the working folder, the first notebook; ``--allow-root``
    when running as root (containers, CI machines), where JupyterLab refuses to start without it."""
    command = [sys.executable, "-m", "jupyter", "lab", f"--notebook-dir={folder}"]
    if not open_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return command + [str(Path(folder) / FIRST_NOTEBOOK)]
