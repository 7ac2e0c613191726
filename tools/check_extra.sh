#!/usr/bin/env bash
# Install one install path in a fresh virtual environment (no system packages) and run every
# teaching notebook there, as a user who followed that path would:
#
#   tools/check_extra.sh notebook          # python3 -m pip install ".[notebook]"
#   tools/check_extra.sh docs              # ".[docs]" (what the documentation site builds with)
#   tools/check_extra.sh binder            # binder/requirements.txt, then irnb with --no-deps
#   tools/check_extra.sh notebook FOLDER   # keep the environment and the executed notebooks in FOLDER
#
# irnb is installed from a wheel built from this checkout (not editable), and the notebooks run
# from a copy in FOLDER/notebooks, so they find no ../shared beside them: notebook 05 takes the
# path of a Binder or Colab user (TREC-COVID downloaded, or the simulated collection offline).
# Prints one line per notebook (status and seconds) and exits non-zero if one fails.
# tests/test_install_paths.py checks the same dependency lists without installing anything.
set -euo pipefail

extra=${1:?usage: tools/check_extra.sh notebook|docs|binder [FOLDER]}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
folder=${2:-$(mktemp -d -t "irnb-check-${extra}-XXXXXX")}
mkdir -p "$folder"
folder=$(cd "$folder" && pwd)
python=${PYTHON:-python3}

echo "check_extra: ${extra} in ${folder}"
"$python" -m venv "$folder/venv"
py="$folder/venv/bin/python"
"$py" -m pip install --quiet --upgrade pip
case "$extra" in
    binder)
        "$py" -m pip install --quiet -r "$repo/binder/requirements.txt"
        "$py" -m pip install --quiet --no-deps "$repo"
        ;;
    *)
        "$py" -m pip install --quiet "${repo}[${extra}]"
        ;;
esac
"$py" -m pip freeze > "$folder/pip-freeze.txt"

rm -rf "$folder/notebooks"
mkdir -p "$folder/notebooks"
cp "$repo"/notebooks/*.ipynb "$folder/notebooks/"
cd "$folder/notebooks"
# nbclient comes with every path (JupyterLab's nbconvert, myst-nb); if not, the path cannot run notebooks
"$py" - <<'EOF'
import sys
import time
from pathlib import Path

try:
    import nbclient
    import nbformat
except ImportError as err:
    sys.exit(f"check_extra: this install path cannot execute notebooks: {err}")

failed = []
for path in sorted(Path.cwd().glob("*.ipynb")):
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    try:
        nbclient.NotebookClient(notebook, timeout=1800, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}}).execute()
        status = "ok"
    except Exception as err:  # noqa: BLE001 - any failure of a lesson is reported, then the next one runs
        status = f"FAILED: {type(err).__name__}: {str(err).strip().splitlines()[-1][:200]}"
        failed.append(path.name)
    nbformat.write(notebook, path)
    print(f"{path.name:36} {time.perf_counter() - start:7.1f} s  {status}", flush=True)
print(f"check_extra: {len(failed)} of {len(list(Path.cwd().glob('*.ipynb')))} notebooks failed"
      + (f": {', '.join(failed)}" if failed else ""))
sys.exit(1 if failed else 0)
EOF
