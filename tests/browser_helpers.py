"""Real-browser plumbing shared by ``tests/test_browser.py`` and ``benchmarks/bench_browser.py``.

- :func:`browser_unavailable` says why a browser test cannot run (no Chromium at
  :data:`CHROMIUM`, no ``playwright`` package, no JupyterLab/Voila) or returns None.
- :class:`Server` starts JupyterLab or Voila as a subprocess on a free loopback port with a
  random token, in a fresh Jupyter config/data/runtime/settings folder, waits (bounded)
  until it answers, and on exit always stops it and the kernels it started.
- :func:`working_copy` is ``irnb lab``'s own copy step (:func:`irnb.lab.copy_notebooks`).
- :func:`chromium` launches Debian's Chromium through Playwright (never a downloaded
  browser) headless, with a fresh user-data dir and the flags needed as root in CI.
- :func:`lab_run_all` opens a notebook in JupyterLab and runs Run ▸ Run All Cells.
- :func:`slider`, :func:`press_on_slider`, :func:`plot_png`, :func:`wait_for_new_plot`:
  the page-side steps (ipywidgets 8 DOM: ``.widget-slider``, noUiSlider's ``.noUi-handle``
  takes arrow keys, ``.widget-readout`` shows the value; a PNG plot is an ``<img>`` whose
  ``src`` is a blob URL that changes on every redraw).
- :func:`artifacts_dir`, :func:`save_failure`: screenshots, page HTML and server logs go to
  ``$IRNB_BROWSER_ARTIFACTS`` (default ``<tmp>/irnb-browser-artifacts``); the path is printed.

Every wait is an explicit condition with a generous bound, never a bare sleep: the tests
must pass on a loaded two-core machine.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterator

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
#: Voila as Binder sets it up (binder/postBuild): the "irnb" template (the lab template without
#: its CDN stylesheets) in a Jupyter data folder, and the settings that choose it.
VOILA_DATA = REPO / "binder" / "share" / "jupyter"
VOILA_CONFIG = REPO / "binder" / "voila.json"
CHROMIUM = Path("/usr/bin/chromium")
#: Chromium flags: headless as root in a container, no network chatter, no GPU.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
#: Upper bounds (seconds) of the waits; generous for a loaded two-core machine.
SERVER_START_TIMEOUT = 90.0
PAGE_TIMEOUT = 120.0
REDRAW_TIMEOUT = 60.0

# JupyterLab user settings written into the fresh settings folder: the notebook's kernel
# starts without a "Select Kernel" dialog, every cell is attached to the DOM (no virtual
# scrolling hides the widget), no news or update checks, no toasts.
_LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none",
                                                                    "autoStartDefaultKernel": True},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True},
}


def browser_unavailable() -> str | None:
    """Why a real-browser test cannot run here, or None when it can."""
    if not CHROMIUM.exists():
        return (f"needs Chromium at {CHROMIUM} (Debian: apt-get install -y chromium chromium-driver; "
                ".ci/run installs it)")
    for module, package in (("playwright.sync_api", "playwright"), ("jupyterlab", "jupyterlab"),
                            ("voila", "voila"), ("ipywidgets", "ipywidgets"), ("matplotlib", "matplotlib")):
        try:
            __import__(module)
        except ImportError:
            return f"needs the Python package {package!r} (pip install -e '.[browser]'; .ci/run installs it)"
    return None


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def artifacts_dir() -> Path:
    """Where screenshots and logs of failed browser runs go (created on demand)."""
    path = Path(os.environ.get("IRNB_BROWSER_ARTIFACTS") or Path(tempfile.gettempdir()) / "irnb-browser-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def working_copy(target: Path, *names: str) -> Path:
    """A user's working copy of the notebooks in ``target``, made as ``irnb lab`` makes it;
    checks that the named notebooks are among them."""
    from irnb.lab import copy_notebooks

    copied = {path.name for path in copy_notebooks(target)}
    missing = sorted(set(names) - copied)
    if missing:
        raise FileNotFoundError(f"irnb.lab.copy_notebooks({target}) did not copy {missing}; it copied {sorted(copied)}")
    return target


# =============================================================================== servers
def _start_time(pid: int) -> str | None:
    """The start time of process ``pid`` (Linux /proc), or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, start time) of every process below ``pid`` (Linux /proc; elsewhere none)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat") if Path("/proc").is_dir() else ():
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.parent.name))
    found, todo = [], list(parents.get(pid, []))
    while todo:
        child = todo.pop()
        started = _start_time(child)
        if started is not None:
            found.append((child, started))
        todo.extend(parents.get(child, []))
    return found


@dataclass
class Server:
    """A JupyterLab or Voila subprocess on loopback. Use as a context manager."""

    kind: str  # "lab" or "voila"
    root: Path  # the folder it serves (kernels start there)
    notebook: str | None = None  # voila: the notebook it renders at "/"
    port: int = field(default_factory=free_port)
    token: str = field(default_factory=lambda: secrets.token_hex(16))
    log_path: Path | None = None
    process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        """``path`` on this server with the token as a query parameter."""
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}{path}{sep}token={self.token}"

    def command(self, home: Path) -> list[str]:
        if self.kind == "lab":
            return [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
                    f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
                    f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
                    f"--LabApp.user_settings_dir={home / 'lab-settings'}",
                    f"--LabApp.workspaces_dir={home / 'lab-workspaces'}",
                    "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=",
                    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                    "--ServerApp.terminals_enabled=False"] + (["--allow-root"] if _is_root() else [])
        if self.kind == "voila":
            if self.notebook is None:
                raise ValueError("Server(kind='voila') needs notebook=<name of the notebook in root>")
            return [sys.executable, "-m", "voila", str(self.root / self.notebook), "--no-browser",
                    "--Voila.ip=127.0.0.1", f"--port={self.port}", "--Voila.port_retries=0",
                    f"--token={self.token}", "--show_tracebacks=True"]
        raise ValueError(f"Server kind must be 'lab' or 'voila', got {self.kind!r}")

    def _environment(self, home: Path) -> dict[str, str]:
        env = dict(os.environ)
        # Kernels should see what a user sees: the notebook's own backend, not CI's Agg.
        env.pop("MPLBACKEND", None)
        env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
                   JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_PLATFORM_DIRS="1",
                   IPYTHONDIR=str(home / "ipython"), PYTHONUNBUFFERED="1")
        # kernels import this checkout's irnb, whatever copy is installed
        repo = str(Path(__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join([repo, *filter(None, [env.get("PYTHONPATH")])])
        env["JUPYTER_PATH"] = os.pathsep.join([str(VOILA_DATA), *filter(None, [env.get("JUPYTER_PATH")])])
        return env

    def __enter__(self) -> Server:
        home = Path(tempfile.mkdtemp(prefix=f"irnb-{self.kind}-home-"))
        self._home = home
        for relative, content in _LAB_SETTINGS.items():
            path = home / "lab-settings" / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(content), encoding="utf-8")
        (home / "config").mkdir(parents=True, exist_ok=True)
        shutil.copy2(VOILA_CONFIG, home / "config" / "voila.json")  # as binder/postBuild installs it
        self.log_path = home / f"{self.kind}.log"
        for attempt in range(2):  # a second try on a new port if another process took the first
            self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in __exit__
            self.process = subprocess.Popen(self.command(home), cwd=self.root, env=self._environment(home),
                                            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            start_new_session=True)
            try:
                self._wait_ready()
                return self
            except RuntimeError:
                if attempt == 0 and "already in use" in self.log():
                    self._log.close()
                    self.port = free_port()
                    continue
                self.__exit__(*sys.exc_info())
                raise
            except BaseException:
                self.__exit__(*sys.exc_info())
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait_ready(self) -> None:
        """Poll until the server answers an authenticated request (bounded)."""
        # JupyterLab: its status API. Voila: a static path (its "/" would run the notebook).
        probe = "/api/status" if self.kind == "lab" else "/voila/static/"
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        last = "no answer yet"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.kind} exited with status {self.process.returncode} before answering; "
                                   f"log:\n{self.log()}")
            try:
                request = urllib.request.Request(self.base_url + probe,
                                                 headers={"Authorization": f"token {self.token}"})
                with urllib.request.urlopen(request, timeout=5) as answer:
                    if answer.status == 200:
                        return
                    last = f"HTTP {answer.status}"
            except urllib.error.HTTPError as err:
                last = f"HTTP {err.code}"
                if err.code in (401, 403, 404, 405):  # up and answering, only the probe path differs
                    return
            except OSError as err:
                last = str(err)
            time.sleep(0.25)  # polling interval of a bounded wait, not a fixed delay
        raise TimeoutError(f"{self.kind} did not answer on {self.base_url} within {SERVER_START_TIMEOUT:.0f} s "
                           f"({last}); log:\n{self.log()}")

    def log(self) -> str:
        """The server's output so far (last 6000 characters)."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-6000:]

    def __exit__(self, *exc) -> None:
        process = self.process
        if process is not None:
            # Kernels get a session of their own (jupyter_client), so note them before the
            # server goes: the server shuts them down on SIGTERM; any left are killed by id.
            children = _descendants(process.pid)
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=20)
            for pid, started in children:
                if _start_time(pid) == started:  # still the same process, not a reused id
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
        if getattr(self, "_log", None) is not None:
            self._log.close()
            self._log = None
        if exc and exc[0] is not None and self.log_path is not None and self.log_path.exists():
            shutil.copy2(self.log_path, artifacts_dir() / self.log_path.name)
        shutil.rmtree(getattr(self, "_home", ""), ignore_errors=True)


# =============================================================================== browser
@contextlib.contextmanager
def chromium(*, width: int = 1400, height: int = 1000) -> Iterator:
    """A Playwright BrowserContext on Debian's Chromium, headless, with a fresh profile."""
    from playwright.sync_api import sync_playwright

    profile = Path(tempfile.mkdtemp(prefix="irnb-chromium-profile-"))
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(profile), executable_path=str(CHROMIUM), headless=True, args=list(CHROMIUM_FLAGS),
                viewport={"width": width, "height": height}, timeout=PAGE_TIMEOUT * 1000)
            context.set_default_timeout(PAGE_TIMEOUT * 1000)
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def save_failure(page, name: str, server: Server | None = None) -> Path:
    """Screenshot + HTML of ``page`` (and the server log) into :func:`artifacts_dir`; prints the path."""
    folder = artifacts_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    shot = folder / f"{name}-{stamp}.png"
    with contextlib.suppress(Exception):
        page.screenshot(path=str(shot), full_page=True, timeout=30_000)
    with contextlib.suppress(Exception):
        (folder / f"{name}-{stamp}.html").write_text(page.content(), encoding="utf-8")
    if server is not None:
        (folder / f"{name}-{stamp}-{server.kind}.log").write_text(server.log(), encoding="utf-8")
    print(f"\nbrowser artifacts for {name}: {shot} (and .html/.log beside it)", file=sys.stderr)
    return shot


def slider(scope, label: str):
    """The ipywidgets slider whose description is ``label`` inside ``scope`` (page or locator)."""
    return scope.locator(".widget-slider", has_text=label).first


def readout(slider_locator) -> str:
    """The value the slider shows next to it."""
    return slider_locator.locator(".widget-readout").inner_text().strip()


def press_on_slider(slider_locator, key: str, *, times: int = 1) -> None:
    """Focus the slider's handle and press ``key`` (e.g. ArrowLeft) ``times`` times."""
    handle = slider_locator.locator(".noUi-handle").first
    handle.focus()
    for _ in range(times):
        handle.press(key)


_FETCH_IMAGE = """async (img) => {
  const answer = await fetch(img.src);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(text);
}"""


def plot_png(image_locator) -> bytes:
    """The bytes of the PNG an ``<img>`` shows right now (fetched from its src in the page)."""
    image_locator.wait_for(state="visible")
    encoded = image_locator.evaluate(_FETCH_IMAGE)
    return base64.b64decode(encoded)


def plot_src(image_locator) -> str:
    return image_locator.get_attribute("src") or ""


def wait_for_new_plot(page, image_locator, old_src: str, *, timeout: float = REDRAW_TIMEOUT) -> None:
    """Wait until the ``<img>`` shows a new picture (its src changed and the image loaded)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    handle = image_locator.element_handle()
    try:
        page.wait_for_function("([img, old]) => img.src && img.src !== old && img.complete && img.naturalWidth > 0",
                               arg=[handle, old_src], timeout=timeout * 1000)
    except PlaywrightTimeout:
        raise AssertionError(f"the plot did not change within {timeout:g} s "
                             f"(its <img> still shows {old_src})") from None


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


# =============================================================================== pages
_KERNEL_READY = """() => {
  const context = window.jupyterapp?.shell?.currentWidget?.sessionContext;
  const kernel = context?.session?.kernel;
  return !!(context && context.isReady && kernel && kernel.connectionStatus === 'connected'
            && kernel.status === 'idle');
}"""


def lab_run_all(page, server: Server, notebook: str, *, code_cells: int, timeout: float = PAGE_TIMEOUT) -> None:
    """Open ``notebook`` in JupyterLab, wait for its kernel, choose Run ▸ Run All Cells and
    wait until every one of its ``code_cells`` shows an execution count."""
    page.goto(server.url(f"/lab/tree/{notebook}"))
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    page.wait_for_function(_KERNEL_READY, timeout=timeout * 1000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel").filter(has_text="Run All Cells").filter(
        has_not_text="Restart").first.click()
    # Done when every code cell's prompt reads [n]: (not [ ]: or [*]:) — Run All stops at an error. A cell
    # whose input is collapsed (jupyter.source_hidden: the notebooks' computed sentences and answers) shows
    # no prompt; it is done once it shows its output (the notebooks are committed without outputs).
    page.wait_for_function(
        """(count) => {
          const cells = [...document.querySelectorAll('.jp-CodeCell')];
          return cells.length === count && cells.every(cell => {
            const prompt = cell.querySelector('.jp-InputArea-prompt');
            if (prompt && !cell.querySelector('.jp-InputPlaceholder')) {
              return /^\\[\\d+\\]:$/.test(prompt.textContent.trim());
            }
            return cell.querySelector('.jp-OutputArea-output') !== null;
          });
        }""", arg=code_cells, timeout=timeout * 1000)


def tracebacks(page) -> list[str]:
    """Text of every output that shows a Python traceback."""
    return [text for text in page.locator(".jp-OutputArea-output").all_inner_texts()
            if "Traceback (most recent call last)" in text]


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; raises ValueError when ``data`` is no PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError(f"expected PNG bytes, got {data[:16]!r}")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@contextlib.contextmanager
def artifacts_on_failure(page, name: str, server: Server | None = None) -> Iterator[None]:
    """Save a screenshot, the page's HTML and the server log when the block raises."""
    try:
        yield
    except BaseException:
        save_failure(page, name, server)
        raise
