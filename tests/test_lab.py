"""`irnb lab` owns the server it starts: SIGTERM or Ctrl-C stop it and everything in its
process group (no orphan), options after `--` reach JupyterLab, and the install hint names
the way irnb is really installed."""

from __future__ import annotations

import contextlib
import io
import re
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest

from irnb.cli import build_parser, main
from irnb.lab import FIRST_NOTEBOOK, REPOSITORY, colab_requirement, colab_url, install_hint, lab_command

REPO = Path(__file__).resolve().parents[1]
posix_only = pytest.mark.skipif(os.name != "posix", reason="process groups and signals are POSIX")

# A stand-in for a Jupyter server: starts a "kernel" (a child in its group), writes both pids,
# then waits; with "ignore" both ignore SIGTERM (only SIGKILL stops them).
STUB = textwrap.dedent("""\
    import signal, subprocess, sys, time
    pidfile, mode = sys.argv[1], sys.argv[2]
    if mode == "ignore":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    code = ("import signal, time; "
            "signal.signal(signal.SIGTERM, signal.SIG_IGN) if %r == 'ignore' else None; time.sleep(600)" % mode)
    kernel = subprocess.Popen([sys.executable, "-c", code])
    with open(pidfile + ".tmp", "w") as out:
        out.write(f"{__import__('os').getpid()} {kernel.pid}")
    __import__("os").replace(pidfile + ".tmp", pidfile)
    if mode == "exit3":
        kernel.kill(); kernel.wait(); sys.exit(3)
    time.sleep(600)
""")


def _alive(pid: int) -> bool:
    """A running process (a zombie waiting for its parent counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _wait_for(path: Path, timeout: float = 60.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists():
            return path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def _driver(tmp_path: Path, mode: str) -> tuple[subprocess.Popen, list[int]]:
    (tmp_path / "stub.py").write_text(STUB)
    pidfile = tmp_path / "pids"
    # irnb/lab.py alone (it imports only the standard library): no numpy/pandas start-up per test
    code = ("import importlib.util, sys; "
            f"spec = importlib.util.spec_from_file_location('lab', {str(REPO / 'irnb' / 'lab.py')!r}); "
            "lab = importlib.util.module_from_spec(spec); spec.loader.exec_module(lab); "
            f"sys.exit(lab.serve([sys.executable, {str(tmp_path / 'stub.py')!r}, {str(pidfile)!r}, {mode!r}], "
            "grace=1.0))")
    driver = subprocess.Popen([sys.executable, "-c", code])
    pids = [int(x) for x in _wait_for(pidfile).split()]
    return driver, pids


@posix_only
@pytest.mark.parametrize("mode, sig, status", [("obey", signal.SIGTERM, 143), ("ignore", signal.SIGTERM, 143),
                                               ("obey", signal.SIGINT, 130)])
def test_signal_stops_the_server_and_its_children(tmp_path, mode, sig, status):
    driver, (server, kernel) = _driver(tmp_path, mode)
    assert _alive(server) and _alive(kernel)
    driver.send_signal(sig)  # SIGINT = Ctrl-C in the terminal
    assert driver.wait(timeout=30) == status
    deadline = time.monotonic() + 5
    while (_alive(server) or _alive(kernel)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(server) and not _alive(kernel), "a server process was left running"


@posix_only
def test_server_exit_status_is_passed_on(tmp_path):
    driver, _ = _driver(tmp_path, "exit3")
    assert driver.wait(timeout=30) == 3


def test_options_after_double_dash_reach_jupyter(tmp_path):
    args = build_parser().parse_args(["lab", "--dir", str(tmp_path), "--", "--port", "9999", "--ServerApp.token=x"])
    assert args.jupyter_args == ["--port", "9999", "--ServerApp.token=x"]
    command = lab_command(tmp_path, open_browser=False, extra=args.jupyter_args)
    assert command[-4:] == ["--port", "9999", "--ServerApp.token=x", str(tmp_path / FIRST_NOTEBOOK)]


def test_missing_jupyterlab_gives_the_checkout_install_hint(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "jupyterlab", None)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["lab", "--dir", str(tmp_path / "nb")]) == 2
    assert err.getvalue() == f"irnb: error: JupyterLab is not installed; install it with: {install_hint('notebook')}\n"
    assert 'pip install -e ".[notebook]"' in install_hint("notebook")
    assert not (tmp_path / "nb").exists()  # nothing copied when the lab cannot start


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@posix_only
@pytest.mark.slow
def test_real_jupyterlab_starts_and_stops_without_orphans(tmp_path):
    pytest.importorskip("jupyterlab")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO), "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config")}
    lab = subprocess.Popen([sys.executable, "-m", "irnb", "lab", "--dir", str(tmp_path / "nb"), "--no-browser",
                            "--", f"--port={port}", "--ServerApp.port_retries=0", "--ServerApp.token=irnb-test"],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:  # the port option reached Jupyter: it answers there
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=2) as answer:
                    assert b"version" in answer.read()
                break
            except OSError:
                if time.monotonic() > deadline or lab.poll() is not None:
                    raise AssertionError("JupyterLab did not start") from None
                time.sleep(0.5)
        servers = _children(lab.pid)
        assert servers, "irnb lab has no server child"
        assert (tmp_path / "nb" / FIRST_NOTEBOOK).is_file()
        lab.send_signal(signal.SIGTERM)
        assert lab.wait(timeout=60) == 143
        for pid in servers:
            assert not _alive(pid), "the JupyterLab server outlived irnb lab"
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=2)
    finally:
        if lab.poll() is None:
            lab.kill()


def test_colab_links_open_each_notebook_from_the_repository():
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        assert colab_url(path.name) == \
            f"https://colab.research.google.com/github/{REPOSITORY}/blob/main/notebooks/{path.name}"
    assert colab_url("dashboard.ipynb", repository="me/irnb", branch="dev") == \
        "https://colab.research.google.com/github/me/irnb/blob/dev/notebooks/dashboard.ipynb"


@pytest.mark.parametrize("kwargs, message", [
    ({"notebook": "00_tour.md"}, "notebook must be the file name of a notebook in notebooks/ such as "
                                 "'00_tour.ipynb', got '00_tour.md'"),
    ({"notebook": "notebooks/00_tour.ipynb"}, "got 'notebooks/00_tour.ipynb'"),
    ({"notebook": "00_tour.ipynb", "repository": "irnb"}, "repository must be 'owner/name', got 'irnb'"),
    ({"notebook": "00_tour.ipynb", "branch": ""}, "branch must be a branch name such as 'main', got ''"),
])
def test_colab_link_refuses_what_is_not_a_notebook_of_a_repository(kwargs, message):
    notebook = kwargs.pop("notebook")
    with pytest.raises(ValueError, match=re.escape(message)):
        colab_url(notebook, **kwargs)


def test_colab_requirement_installs_the_colab_extra_from_the_repository():
    assert colab_requirement() == f"irnb[colab] @ git+https://github.com/{REPOSITORY}@main"
    assert colab_requirement(repository="me/irnb", branch="dev") == "irnb[colab] @ git+https://github.com/me/irnb@dev"
    with pytest.raises(ValueError, match=re.escape("branch must be a branch name such as 'main', got 'a b'")):
        colab_requirement(branch="a b")
    with pytest.raises(ValueError, match=re.escape("repository must be 'owner/name', got 'a/b/c'")):
        colab_requirement(repository="a/b/c")
