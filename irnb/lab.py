"""``irnb lab``: JupyterLab on a working copy of the teaching notebooks.

The notebooks come from the source checkout's ``notebooks/`` folder or, in an installed
wheel, from the package data ``irnb/_notebooks``. Copying never overwrites a notebook the
user already has in the working folder, so their edits survive a second ``irnb lab``.

The server runs in its own process group and :func:`serve` owns it: when JupyterLab exits
``irnb lab`` exits with its status; Ctrl-C, SIGTERM or SIGHUP sent to ``irnb lab`` stop it
(SIGTERM to the group, which lets Jupyter shut its kernels down; SIGKILL to whatever is
left after ``grace`` seconds), so no server is left running. Options after ``--`` go to
JupyterLab unchanged: ``irnb lab -- --port 9999 --ServerApp.token=secret``.

Binder and Colab: :data:`REPOSITORY` (``owner/name`` on GitHub) is the one setting the Binder
links (:func:`binder_url`) and the "Open in Colab" links (:func:`colab_url`) come from; README's
links are checked against it by the tests.
irnb is installed from its source checkout, not from PyPI: :func:`install_hint`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Sequence

__all__ = ["notebook_source", "copy_notebooks", "open_lab", "lab_command", "serve", "binder_url", "colab_url",
           "colab_requirement", "install_hint", "OPTIONAL_PACKAGES", "missing_package", "FIRST_NOTEBOOK", "DASHBOARD",
           "REPOSITORY"]

FIRST_NOTEBOOK = "00_tour.ipynb"
DASHBOARD = "dashboard.ipynb"
#: The GitHub repository (owner/name) the Binder links point at; a fork changes this line
#: (and README's links, which tests/test_setup_contract.py checks against it).
REPOSITORY = "irnb-project/irnb"


def install_hint(extra: str) -> str:
    """How to install an optional part: irnb is installed from its source checkout.

    >>> install_hint("notebook")
    'python3 -m pip install -e ".[notebook]" (in the irnb source checkout; irnb is not on PyPI)'
    """
    return f'python3 -m pip install -e ".[{extra}]" (in the irnb source checkout; irnb is not on PyPI)'


#: The optional packages irnb imports on demand: import name → (distribution, the extra that installs
#: it). tests/test_install_paths.py checks that each extra holds its distributions.
OPTIONAL_PACKAGES = {
    "sklearn": ("scikit-learn", "predict"),
    "matplotlib": ("matplotlib", "notebook"),
    "seaborn": ("seaborn", "notebook"),
    "ipywidgets": ("ipywidgets", "notebook"),
    "ipympl": ("ipympl", "notebook"),
    "IPython": ("ipython", "notebook"),
    "PIL": ("pillow", "notebook"),
    "jupyterlab": ("jupyterlab", "notebook"),
}


def missing_package(module: str | None, what: str) -> str:
    """One line for ``what`` (a command, a function) that stopped because ``module`` (an
    ImportError's ``name``) is not installed: the distribution and how to install it.

    >>> missing_package("sklearn.svm", "irnb reproduce buttcher2007-table6").split(" (")[0]
    'irnb reproduce buttcher2007-table6 needs scikit-learn: python3 -m pip install -e ".[predict]"'
    """
    top = (module or "").split(".")[0]
    if top in OPTIONAL_PACKAGES:
        distribution, extra = OPTIONAL_PACKAGES[top]
        return f"{what} needs {distribution}: {install_hint(extra)}"
    return f"{what} needs the package {top or '(unnamed)'}, which is not installed (python3 -m pip install {top})"


def binder_url(kind: str = "lab", *, repository: str = REPOSITORY, ref: str = "HEAD") -> str:
    """The Binder link that opens the first notebook in JupyterLab (``kind="lab"``) or the
    dashboard in Voila (``kind="voila"``).

    >>> binder_url("voila", repository="me/irnb")
    'https://mybinder.org/v2/gh/me/irnb/HEAD?urlpath=voila/render/notebooks/dashboard.ipynb'
    """
    from .params import BINDER_KIND  # here: this module alone imports only the standard library

    paths = {"lab": f"lab/tree/notebooks/{FIRST_NOTEBOOK}", "voila": f"voila/render/notebooks/{DASHBOARD}"}
    BINDER_KIND.validate(kind, None)
    _check_repository(repository)
    return f"https://mybinder.org/v2/gh/{repository}/{ref}?urlpath={paths[kind]}"


def colab_url(notebook: str, *, repository: str = REPOSITORY, branch: str = "main") -> str:
    """The "Open in Colab" link of the teaching notebook ``notebook`` (a file name in
    ``notebooks/``): Colab opens the ``.ipynb`` from the repository's ``branch`` on GitHub.

    >>> colab_url("00_tour.ipynb", repository="me/irnb")
    'https://colab.research.google.com/github/me/irnb/blob/main/notebooks/00_tour.ipynb'
    """
    if not isinstance(notebook, str) or not notebook.endswith(".ipynb") or "/" in notebook or "\\" in notebook \
            or notebook == ".ipynb":
        raise ValueError(f"notebook must be the file name of a notebook in notebooks/ such as {FIRST_NOTEBOOK!r}, "
                         f"got {notebook!r}")
    _check_repository(repository)
    _check_branch(branch)
    return f"https://colab.research.google.com/github/{repository}/blob/{branch}/notebooks/{notebook}"


def colab_requirement(*, repository: str = REPOSITORY, branch: str = "main") -> str:
    """What a notebook's first cell asks pip for in Colab: irnb from the repository's ``branch``
    with the ``colab`` extra, which leaves Colab's own widget stack in place.

    >>> colab_requirement(repository="me/irnb")
    'irnb[colab] @ git+https://github.com/me/irnb@main'
    """
    _check_repository(repository)
    _check_branch(branch)
    return f"irnb[colab] @ git+https://github.com/{repository}@{branch}"


def _check_repository(repository: str) -> None:
    if not isinstance(repository, str) or repository.count("/") != 1 or any(not p for p in repository.split("/")):
        raise ValueError(f"repository must be 'owner/name', got {repository!r}")


def _check_branch(branch: str) -> None:
    if not isinstance(branch, str) or not branch or branch.startswith("/") or branch.endswith("/") \
            or any(c.isspace() or c in "@?#" for c in branch):
        raise ValueError(f"branch must be a branch name such as 'main', got {branch!r}")


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


def open_lab(*, target: str | Path | None = None, open_browser: bool = True,
             jupyter_args: Sequence[str] = ()) -> int:
    """Copy the notebooks to ``target`` (default ``./irnb-notebooks``) and run JupyterLab on
    the first one until it exits or is stopped (:func:`serve`); ``jupyter_args`` are passed
    to JupyterLab. Returns JupyterLab's exit status (128 + signal number when stopped)."""
    from .params import OPEN_BROWSER  # here: this module alone imports only the standard library
    open_browser = OPEN_BROWSER.validate(open_browser, "open_lab")
    folder = Path(target) if target is not None else Path.cwd() / "irnb-notebooks"
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        raise OSError(f"JupyterLab is not installed; install it with: {install_hint('notebook')}") from None
    copied = copy_notebooks(folder)
    print(f"irnb: notebooks in {folder} ({len(copied)} copied, existing ones kept)", file=sys.stderr)
    return serve(lab_command(folder, open_browser=open_browser, extra=jupyter_args))


def lab_command(folder: Path, *, open_browser: bool = True, extra: Sequence[str] = ()) -> list[str]:
    """The JupyterLab command line: the working folder, the first notebook; ``--allow-root``
    when running as root (containers, CI machines), where JupyterLab refuses to start without
    it; ``extra`` options (from ``irnb lab -- ...``) before the notebook."""
    from .params import OPEN_BROWSER  # here: this module alone imports only the standard library
    open_browser = OPEN_BROWSER.validate(open_browser, "lab_command")
    command = [sys.executable, "-m", "jupyter", "lab", f"--notebook-dir={folder}"]
    if not open_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    return command + [str(a) for a in extra] + [str(Path(folder) / FIRST_NOTEBOOK)]


class _Stop(Exception):
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


_STOP_SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s)


def serve(command: Sequence[str], *, grace: float = 10.0) -> int:
    """Run ``command`` (a server) in a new process group and wait for it. Ctrl-C
    (KeyboardInterrupt), SIGTERM or SIGHUP stop the whole group: SIGTERM first, SIGKILL to
    what is left after ``grace`` seconds. Returns the command's exit status, or 128 + the
    signal number when it was stopped (130 for Ctrl-C, 143 for SIGTERM)."""
    posix = os.name == "posix"
    process = subprocess.Popen(list(command), start_new_session=posix)
    previous = {}

    def _raise(signum, _frame):
        raise _Stop(signum)

    for sig in _STOP_SIGNALS:
        previous[sig] = signal.signal(sig, _raise)
    try:
        return process.wait()
    except KeyboardInterrupt:
        _stop_group(process, grace)
        return 128 + signal.SIGINT
    except _Stop as stop:
        _stop_group(process, grace)
        return 128 + stop.signum
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if process.poll() is None:  # an unexpected error on the way out: never leave it running
            _stop_group(process, grace)


def _stop_group(process: subprocess.Popen, grace: float) -> None:
    """SIGTERM to the server's process group, then SIGKILL after ``grace`` seconds to the
    group if the server has not exited or members remain."""
    def _signal_group(sig) -> None:
        try:
            if os.name == "posix":
                os.killpg(process.pid, sig)
            else:  # pragma: no cover - no process groups
                process.send_signal(sig)
        except (ProcessLookupError, PermissionError):
            pass

    _signal_group(signal.SIGTERM)
    deadline = time.monotonic() + grace
    try:
        process.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        pass
    while os.name == "posix" and _group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # the server is gone; give its children the rest of the grace period
    _signal_group(getattr(signal, "SIGKILL", signal.SIGTERM))
    process.wait()


def _group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` still runs (zombies, which wait only for a parent
    to collect their status, do not count; read from /proc where there is one)."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    proc = Path("/proc")
    if not proc.is_dir():  # pragma: no cover - not Linux
        return True
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # state ppid pgrp …
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False
