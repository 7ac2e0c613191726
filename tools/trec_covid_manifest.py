"""Write ``irnb/datasets/trec_covid_files.py``: where each TREC-COVID round-1 file that
:func:`irnb.datasets.trec_covid` downloads is published (repository, commit, path) with its size
and sha256, computed from the copies in ``../shared/data/trec-covid-round1``.

That folder's MANIFEST.tsv names each file's origin and its git blob id; a file is listed only
when the bytes read here hash to that blob id (so the sha256 written is the published file's).
The stored copies differ from the published files in form only: the runs are members of
``runs-round1.tar.xz``, the complete qrels are gzipped. The trec-browser metadata (derived, not
published as such) and the topics (no Experiment reads them) are left out.

    python tools/trec_covid_manifest.py          # rewrites the module
    python tools/trec_covid_manifest.py --check  # exits 1 if the module differs from what it would write
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO.parent / "shared" / "data" / "trec-covid-round1"
MODULE = REPO / "irnb" / "datasets" / "trec_covid_files.py"
ROLES = {"leaderboard-round1.csv": "leaderboard", "qrels-rnd1.txt": "qrels", "qrels.covid-complete.txt.gz": "truth"}


def _git_blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def rows() -> list[tuple[str, str, str, str, int, str]]:
    """(role, repository, commit, path, bytes, sha256) of every file to download."""
    with open(FOLDER / "MANIFEST.tsv", encoding="utf-8", newline="") as handle:
        manifest = list(csv.DictReader(handle, delimiter="\t"))
    members = {}
    with tarfile.open(FOLDER / "runs-round1.tar.xz") as tar:
        for member in tar:
            if member.isfile():
                members[member.name.removeprefix("./")] = tar.extractfile(member).read()
    out = []
    for entry in manifest:
        stored = entry["stored"]
        if "::" in stored:
            role, data = "run", members[stored.split("::", 1)[1]]
        elif stored in ROLES:
            role, data = ROLES[stored], (FOLDER / stored).read_bytes()
            if stored.endswith(".gz"):
                data = gzip.decompress(data)
        else:
            continue
        if _git_blob(data) != entry["git_blob"]:
            raise ValueError(f"{FOLDER / stored}: its bytes do not hash to the published blob {entry['git_blob']}")
        out.append((role, entry["source_repo"], entry["source_commit"], entry["source_path"], len(data),
                    hashlib.sha256(data).hexdigest()))
    return sorted(out, key=lambda r: (("leaderboard", "qrels", "truth", "run").index(r[0]), r[3]))


def text() -> str:
    lines = ["\t".join(map(str, r)) for r in rows()]
    return f'''"""Where the TREC-COVID round-1 files are published and what they hash to (written by
tools/trec_covid_manifest.py from the project's shared copies; do not edit by hand).

One line per file: role (leaderboard, qrels, truth, run), repository, commit, path in the
repository, size in bytes, sha256.
"""

ROUND1 = """\\
{chr(10).join(lines)}
"""
'''


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the module instead of writing it")
    args = parser.parse_args(argv)
    wanted = text()
    if args.check:
        same = MODULE.is_file() and MODULE.read_text(encoding="utf-8") == wanted
        print(f"{MODULE}: {'up to date' if same else 'differs from the shared files'}")
        return 0 if same else 1
    MODULE.write_text(wanted, encoding="utf-8")
    print(f"wrote {MODULE}: {wanted.count(chr(10)) - 9} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
