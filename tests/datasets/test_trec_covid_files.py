"""irnb.datasets.trec_covid_files: the embedded TREC-COVID round-1 manifest is one well-formed line
per file — a known role, a repository, a 40-hex commit, a path, a size and a sha256 — with one
leaderboard, one qrels and one truth file, and no file listed twice. The check is shown failing
on a made-up manifest."""

from __future__ import annotations

import re

from irnb.datasets.trec_covid_files import ROUND1

ROLES = ("leaderboard", "qrels", "truth", "run")


def manifest_problems(text: str) -> list[str]:
    """What is wrong with a manifest's lines, each named by its line number."""
    problems, seen, roles = [], set(), []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 6:
            problems.append(f"line {number}: {len(fields)} fields, expected 6")
            continue
        role, repository, commit, path, size, sha = fields
        roles.append(role)
        if role not in ROLES:
            problems.append(f"line {number}: role {role!r} is not one of {ROLES}")
        if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository):
            problems.append(f"line {number}: repository {repository!r} is not owner/name")
        if not re.fullmatch(r"[0-9a-f]{40}", commit):
            problems.append(f"line {number}: commit {commit!r} is not 40 hex digits")
        if not size.isdigit() or int(size) == 0:
            problems.append(f"line {number}: size {size!r} is not a positive number of bytes")
        if not re.fullmatch(r"[0-9a-f]{64}", sha):
            problems.append(f"line {number}: sha256 {sha!r} is not 64 hex digits")
        if (repository, path) in seen:
            problems.append(f"line {number}: {repository}/{path} is listed twice")
        seen.add((repository, path))
    problems += [f"{roles.count(role)} {role} files, expected 1" for role in ROLES[:3] if roles.count(role) != 1]
    return problems


def test_the_manifest_is_one_well_formed_line_per_file():
    assert manifest_problems(ROUND1) == []
    lines = ROUND1.splitlines()
    runs = [line.split("\t")[3] for line in lines if line.startswith("run\t")]
    assert len(runs) == len(lines) - 3 and all(path.startswith("round1/runs/") for path in runs)


def test_the_manifest_check_sees_each_kind_of_problem():
    good = "a/b\t" + "0" * 40 + "\tp/{}\t10\t" + "f" * 64
    made_up = "\n".join([
        "leaderboard\t" + good.format("l"),
        "qrels\t" + good.format("q"),
        "run\t" + good.format("r"),
        "run\t" + good.format("r"),                                     # twice
        "runs\t" + good.format("s"),                                    # unknown role
        "run\tnot-a-repo\t" + "0" * 40 + "\tp/t\t10\t" + "f" * 64,
        "run\ta/b\tabc\tp/u\t0\t" + "f" * 63,
        "run\ta/b",
    ])
    assert manifest_problems(made_up) == [
        "line 4: a/b/p/r is listed twice",
        "line 5: role 'runs' is not one of ('leaderboard', 'qrels', 'truth', 'run')",
        "line 6: repository 'not-a-repo' is not owner/name",
        "line 7: commit 'abc' is not 40 hex digits",
        "line 7: size '0' is not a positive number of bytes",
        f"line 7: sha256 '{'f' * 63}' is not 64 hex digits",
        "line 8: 2 fields, expected 6",
        "0 truth files, expected 1",
    ]
