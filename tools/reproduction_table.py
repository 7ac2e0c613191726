"""Writes the documentation site's reproduction table (docs/reproductions.md), every id run live::

    python tools/reproduction_table.py            # each paper's setting + TREC-COVID (if ../shared has it)
    python tools/reproduction_table.py --check    # exit 1 if the page's table is not what the code computes

One row per id (``irnb.reproduction_ids()``, every paper's): what it shows, the paper's
headline, irnb's number in the paper's simulated setting (:func:`irnb.datasets.paper_setting`,
seed 0) and on TREC-COVID round 1, and whether each
agrees, claim by claim. All of it comes from the reproduction's own
:class:`irnb.papers.Headline` (its ``paper`` text and :class:`irnb.papers.Claim` list; the
verdict column is ``Headline.summary()``: which claims hold, which fail); nothing is typed.
A reproduction without a headline shows "–"; one whose data lacks something
(``ReproductionNeeds``) shows "needs …". The table sits between the markers
 ``<!-- reproductions:begin -->`` and ``<!-- reproductions:end -->``.
Run times go to stderr (they vary with the machine, so they stay out of the page).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "reproductions.md"
COVID = REPO.parent / "shared" / "data" / "trec-covid-round1"
BEGIN, END = "<!-- reproductions:begin -->", "<!-- reproductions:end -->"
COLUMNS = ["id", "what it shows", "paper's headline", "irnb: paper's setting", "irnb: TREC-COVID",
           "verdict: paper's setting", "verdict: TREC-COVID"]
COVID_LABEL = "TREC-COVID round 1"


def _package():
    sys.path.insert(0, str(REPO))
    return importlib.import_module("irnb.papers")


def outcome(id: str, experiment=None, *, label: str | None = None, manual=None) -> dict:
    """Run one reproduction; ``{"paper", "irnb", "verdict", "seconds"}`` (texts for the table)."""
    rep_module = _package()
    start = time.perf_counter()
    try:
        rep = rep_module.reproduce(id, experiment, label=label, manual=manual)
    except rep_module.ReproductionNeeds as err:
        said = str(err).removeprefix(f"{id} ")  # "needs which runs are manual (…); TREC-COVID round 1 has none"
        return {"paper": None, "irnb": said, "verdict": "n/a", "seconds": time.perf_counter() - start}
    seconds = time.perf_counter() - start
    if rep.headline is None:
        return {"paper": None, "irnb": "–", "verdict": "–", "seconds": seconds}
    return {"paper": rep.headline.paper, "irnb": rep.headline.irnb, "verdict": rep.headline.summary(),
            "seconds": seconds}


def rows(*, ids=None, covid: Path | None = COVID, log=None) -> pd.DataFrame:
    """The table as a DataFrame (columns :data:`COLUMNS`), computed live; ``covid=None`` (or
    a missing folder) leaves the TREC-COVID column as "not run"."""
    rep_module = _package()
    listing = rep_module.reproductions().set_index("id")
    ids = list(listing.index) if ids is None else list(ids)
    covid_exp = None
    if covid is not None and Path(covid).is_dir():
        from irnb.datasets.real import trec_covid_leaderboard, trec_covid_round1

        covid_exp = trec_covid_round1(covid)
        board = trec_covid_leaderboard(covid)  # the leaderboard's run types say which runs are manual
        covid_manual = [r for r in covid_exp.run_names if board.loc[r, "runtype"] == "manual"]
    out = []
    for id in ids:
        mine = outcome(id)
        theirs = (outcome(id, covid_exp, label=COVID_LABEL, manual=covid_manual) if covid_exp is not None else
                  {"paper": None, "irnb": "not run", "verdict": "–", "seconds": 0.0})
        if log is not None:
            log(f"{id}: paper's setting {mine['seconds']:.2f} s, TREC-COVID {theirs['seconds']:.2f} s")
        paper = mine["paper"] or theirs["paper"] or "–"
        out.append([id, listing.loc[id, "title"], paper, mine["irnb"], theirs["irnb"], mine["verdict"],
                    theirs["verdict"]])
    return pd.DataFrame(out, columns=COLUMNS)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(table: pd.DataFrame) -> str:
    """The markdown table (with the markers)."""
    lines = [BEGIN, "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cell(x) for x in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines + [END])


def parse(text: str) -> pd.DataFrame:
    """The page's table back as a DataFrame (what :func:`render` wrote)."""
    if BEGIN not in text or END not in text:
        raise ValueError(f"{PAGE.name} has no {BEGIN} … {END} block; run python tools/reproduction_table.py")
    block = text.split(BEGIN, 1)[1].split(END, 1)[0].strip().splitlines()[2:]
    cells = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]] for line in block]
    return pd.DataFrame(cells, columns=COLUMNS)


def write(table: pd.DataFrame, readme: Path = PAGE) -> None:
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise ValueError(f"{readme}: add the markers {BEGIN} and {END} where the table goes")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    readme.write_text(head + render(table) + tail, encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the page instead of writing it")
    parser.add_argument("--no-covid", action="store_true", help="leave the TREC-COVID column as 'not run'")
    args = parser.parse_args(argv)
    table = rows(covid=None if args.no_covid else COVID, log=lambda line: print(line, file=sys.stderr))
    if args.check:
        written = parse(PAGE.read_text(encoding="utf-8"))
        if not written.equals(table):
            print(f"{PAGE.name}'s reproduction table is stale; run python tools/reproduction_table.py", file=sys.stderr)
            return 1
        return 0
    write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
