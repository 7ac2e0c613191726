"""Helpers for the teaching notebooks: computed sentences, checked claims, folded answers.

The notebooks in ``notebooks/`` are their own sources (jupytext MyST Markdown). Every number
their prose quotes is computed in the notebook and written by :func:`say`; every qualitative
word ("most", "falls", "two bands") is checked by :func:`claim`, which raises
:class:`StaleClaim` naming the sentence when the data no longer supports it, so a stale
sentence fails the notebook's execution (in the tests and in the documentation build)
instead of being shown. :func:`answer` shows an exercise's answer folded in a
``<details>`` block, which stays folded after *Run All* in JupyterLab, in Voila and on
the documentation site.

Nothing here is imported by ``import irnb``; IPython is imported only when a sentence is
shown.

>>> claim(2 > 1, "two is more than one")
>>> listing([500, 1000], prefix="@")
'@500 and @1000'
>>> percent(0.123)
'12 %'
"""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from .params import DISPLAY_FLAG

__all__ = ["StaleClaim", "claim", "search", "listing", "percent", "say", "answer", "show_reproduction",
           "summarize_reproductions"]


class StaleClaim(ValueError):
    """A sentence of a notebook that the data no longer supports."""


def claim(ok: Any, statement: str, evidence: str = "") -> None:
    """Raise :class:`StaleClaim` unless ``ok`` is true.

    ``statement`` quotes the sentence (with, in brackets, what exactly is checked) and
    ``evidence`` the numbers that decided it.

    >>> claim(3 > 2, "three beats two")
    >>> claim(1 > 2, "one beats two", "1 against 2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irnb.teaching.StaleClaim: the text says “one beats two”, but the data no longer supports it (1 against 2). ...
    """
    if not bool(ok):
        raise StaleClaim(f"the text says “{statement}”, but the data no longer supports it"
                         + (f" ({evidence})" if evidence else "") + ". Rewrite that sentence in the notebook.")


def search(what: str, candidates: Iterable[tuple], conditions: Sequence[tuple[str, Callable[..., Any]]]) -> tuple:
    """The first candidate (a tuple) for which every ``(statement, test)`` holds.

    The tests run in order and stop at the first that fails; when no candidate fits,
    :class:`StaleClaim` says, per statement, how many candidates it ruled out.

    >>> search("number", [(2,), (3,), (5,)], [("odd", lambda n: n % 2), ("above 4", lambda n: n > 4)])
    (5,)
    """
    ruled_out: Counter = Counter()
    n = 0
    for candidate in candidates:
        n += 1
        for statement, test in conditions:
            if not test(*candidate):
                ruled_out[statement] += 1
                break
        else:
            return candidate
    detail = "; ".join(f"“{statement}” ruled out {ruled_out[statement]}" for statement, _ in conditions)
    raise StaleClaim(f"no {what} fits the text any more — of {n} candidates, {detail}. "
                     "Rewrite those sentences (or relax the search) in the notebook.")


def listing(items: Iterable[Any], *, prefix: str = "") -> str:
    """Join with commas and a final "and": ``[10, 30, 100]`` → ``"10, 30 and 100"``.

    >>> listing(["a", "b", "c"])
    'a, b and c'
    >>> listing([10])
    '10'
    """
    words = [f"{prefix}{item}" for item in items]
    if not words:
        raise ValueError("listing() needs at least one item, got none")
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def percent(share: float, *, digits: int = 0) -> str:
    """A share as a percentage with a thin space, as the notebooks print it.

    >>> percent(0.5), percent(0.0625, digits=1)
    ('50 %', '6.2 %')
    """
    return f"{share * 100:.{digits}f} %"


def _markdown(text: str):
    from IPython.display import Markdown

    return Markdown(textwrap.dedent(text).strip())


def say(text: str) -> None:
    """Show ``text`` (Markdown, usually an f-string of computed numbers) as the cell's output."""
    from IPython.display import display

    display(_markdown(text))


def answer(text: str, *, summary: str = "Answer") -> None:
    """Show an exercise's answer (Markdown) folded in a ``<details>`` block."""
    from IPython.display import display

    body = textwrap.dedent(text).strip()
    display(_markdown(f"<details>\n<summary>{summary}</summary>\n\n{body}\n\n</details>"))


def _side_by_side(left, right, *, titles=("irnb", "paper")) -> str:
    """Two DataFrames as one HTML row (the reproduced numbers beside the paper's), wrapping
    below each other, each scrolling where it is wider or longer than the page allows."""
    cells = "".join(f'<div style="margin-right:2em;max-width:100%;max-height:30em;overflow:auto"><b>{title}</b>'
                    f'{frame.to_html(float_format="{:.4g}".format, na_rep="–")}</div>'
                    for title, frame in zip(titles, (left, right), strict=True) if frame is not None)
    return f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start;max-width:100%">{cells}</div>'


def show_reproduction(reproduction_id: str, *, figure: bool = True, **options):
    """Show a seed paper's table or figure as :func:`irnb.reproduce` gives it: its title and
    source, the paper's headline against irnb's (where the reproduction states one), the
    reproduced numbers beside the paper's printed ones, the reproduction's computed notes and,
    for figures, the figure. ``options`` go to :func:`irnb.reproduce`. Returns the
    :class:`~irnb.papers.Reproduction`, or None (with a note) where this version of irnb
    has no reproduction of that id."""
    figure = DISPLAY_FLAG.validate(figure, "show_reproduction", label="figure")
    from IPython.display import HTML, display

    from . import reproduce, reproduction_ids

    if reproduction_id not in reproduction_ids():
        say(f"*`{reproduction_id}`: this version of irnb has no reproduction of it yet.*")
        return None
    rep = reproduce(reproduction_id, **options)
    lines = [f"**{rep.title}** — {rep.source}; `{rep.id}` on {rep.data}."]
    headline = getattr(rep, "headline", None)
    if headline is not None:
        lines.append(f"The paper: {headline.paper}. Here, claim by claim: **{headline.summary()}**.")
    say("\n\n".join(lines))
    if headline is not None:
        display(HTML(headline.table().to_html(index=False)))
    display(HTML(_side_by_side(rep.table, rep.paper)))
    if rep.notes:
        say(rep.notes)
    if figure and getattr(rep, "draw", None) is not None:
        import matplotlib.pyplot as plt

        drawn = rep.figure()          # an Axes, a Figure, or several Axes (array, list or tuple)
        while isinstance(drawn, (list, tuple)) or hasattr(drawn, "flat"):
            drawn = list(drawn.flat if hasattr(drawn, "flat") else drawn)[0]
        fig = drawn if hasattr(drawn, "savefig") else drawn.figure
        display(fig)
        plt.close(fig)
    return rep


def summarize_reproductions(reproductions) -> None:
    """One computed sentence over the reproductions a notebook showed: which agree with their
    paper's headline, which differ, which cannot say (None entries, ids this version lacks, are
    skipped)."""
    shown = [rep for rep in reproductions if rep is not None]
    if not shown:
        say("*None of these reproductions is in this version of irnb.*")
        return
    from .papers import VERDICTS

    groups: dict[str, list[str]] = {verdict: [] for verdict in VERDICTS}
    for rep in shown:
        headline = getattr(rep, "headline", None)
        groups["n/a" if headline is None else headline.verdict].append(f"`{rep.id}`")
    said = {"agrees": "every claim of the paper's headline holds",
            "partly": "some claims hold and some do not (see each one's claims)",
            "differs": "no testable claim holds",
            "depends on the reading": "the outcome depends on a definitional reading",
            "n/a": "no claim this data can test (see the notes)"}
    parts = [f"{listing(ids)}: {said[verdict]}" for verdict, ids in groups.items() if ids]
    say(f"Of the {len(shown)} reproductions above, on {shown[0].data}: {'; '.join(parts)}.")
