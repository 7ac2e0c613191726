""""Be the assessor": judge the suggested documents and watch the comparisons get decided.

No maths here: the state is an :class:`irnb.judging.AssessmentSession`; this module shows
it with ipywidgets (imported when a widget is built, never at ``import irnb``). It works in
JupyterLab and in Voila (plain HTML and buttons, no custom front-end code).

The widget shows the topic (its title and description, when ``topics`` gives them), the next
suggested document (docno, why, and its text when ``documents`` maps docnos to text; the
title's words are marked in it, as assessors' tools mark query terms), two buttons
("relevant" / "not relevant"), the runs' mean intervals [B̄, T̄] as bars, the matrix of
decided pairs, and the counters: judgments spent, pairs decided (of all pairs), answers that
agree with the qrels, and how many judgments the next decision needs at least.

Given a simulated :class:`~irnb.datasets.Collection` and nothing else, the widget judges its
complete truth (:func:`irnb.judging.complete_experiment`), compares the runs that contributed
to its official pool, shows the documents' readable text
(:attr:`irnb.datasets.text.Documents.readable`) and the topics' descriptions, and starts from
:func:`irnb.judging.assessor_start`: a student who judges by reading decides a pair within ten
judgments.

>>> from irnb.datasets import default
>>> w = assessor(default())                                                    # doctest: +SKIP
>>> w.widget                                                                   # doctest: +SKIP
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

import pandas as pd

from .judging import AssessmentSession, assessor_start
from .params import ONLY_QRELS
from .views.layout import live_box, still

__all__ = ["AssessorWidget", "assessor"]

_TEXT_CHARS = 1500  # document text shown (the rest is cut with an ellipsis)
_RUNS_SHOWN = 20
_WORD = re.compile(r"\w+")
_MIN_MARKED = 3  # title words shorter than this (articles, "of") are not marked in the text


class AssessorWidget:
    """The widget around an :class:`~irnb.judging.AssessmentSession`.

    ``session`` holds the state; ``relevant()`` / ``not_relevant()`` do what the buttons do
    (and are what the buttons call); ``widget`` is the ipywidgets box to display;
    ``document_html``, ``counters_html``, ``intervals_html`` and ``matrix_html`` are its
    current contents.
    """

    def __init__(self, session: AssessmentSession, *, documents: Mapping[str, str] | None = None,
                 topics: pd.DataFrame | None = None):
        import ipywidgets as w

        self.session = session
        self.documents = documents
        self.topics = _topic_statements(topics)
        self.document = w.HTML()
        self.counters = w.HTML()
        self.intervals = w.HTML()
        self.matrix = w.HTML()
        self.relevant_button = w.Button(description="relevant", button_style="success", icon="check")
        self.not_relevant_button = w.Button(description="not relevant", button_style="danger", icon="times")
        self.relevant_button.on_click(lambda _: self.relevant())
        self.not_relevant_button.on_click(lambda _: self.not_relevant())
        parts = [self.counters, self.document, w.HBox([self.relevant_button, self.not_relevant_button]),
                 w.HBox([self.intervals, self.matrix], layout=w.Layout(flex_flow="row wrap"))]
        self.widget = live_box("VBox", parts, lambda: still(html="".join(
            part.value for part in (self.counters, self.document, self.intervals, self.matrix))))
        # CSS classes name the parts for a page's reader (and the browser tests)
        self.widget.add_class("irnb-assessor")
        for name, part in {"counters": self.counters, "document": self.document, "intervals": self.intervals,
                           "matrix": self.matrix}.items():
            part.add_class(f"irnb-assessor-{name}")
        self.refresh()

    # ------------------------------------------------------------------ actions
    def relevant(self) -> None:
        self.session.judge(True)
        self.refresh()

    def not_relevant(self) -> None:
        self.session.judge(False)
        self.refresh()

    # ------------------------------------------------------------------ views
    @property
    def document_html(self) -> str:
        current = self.session.current
        if current is None:
            return "<b>Nothing left to judge:</b> every pair is decided, or no unjudged document can help."
        title, description = self.topics.get(current["topic"], ("", ""))
        statement = f"<b>Topic {html.escape(current['topic'])}</b>"
        if title:
            statement += f": <b>{html.escape(title)}</b>"
        if description:
            statement += f"<br>{html.escape(description)}"
        text = ""
        if self.documents is not None and current["docno"] in self.documents:
            body = str(self.documents[current["docno"]])
            body = body if len(body) <= _TEXT_CHARS else body[:_TEXT_CHARS] + " …"
            text = ("<div style='max-height:16em;overflow:auto;border:1px solid #ccc;padding:4px'>"
                    f"{_mark(body, title)}</div>")
        return (f"<div class='irnb-assessor-topic'>{statement}</div>"
                f"<b>Is document {html.escape(current['docno'])} relevant to the topic?</b>"
                f"<br><i>{html.escape(current['why'])}</i>{text}")

    @property
    def counters_html(self) -> str:
        s = self.session
        need = s.judgments_to_decide()
        if need is None:
            next_one = "No pair can be decided any more."
        else:
            next_one = (f"The next decision needs at least <b>{need}</b> more judgment{'s' if need > 1 else ''} "
                        "(if every answer goes its way).")
        return (f"judgments spent: <b>{s.spent}</b> · pairs decided: <b>{s.decided}</b> of {s.pairs} "
                f"(at the start: {s.initial_decided}) · answers agreeing with the qrels: {s.agreements}"
                f"<br>{next_one}")

    @property
    def intervals_html(self) -> str:
        frame = self.session.intervals().head(_RUNS_SHOWN)
        rows = []
        for run, lo, up in frame.itertuples():
            left, width = 100 * lo, max(100 * (up - lo), 0.5)
            bar = (f"<div style='position:relative;height:10px;width:300px;background:#eee'>"
                   f"<div style='position:absolute;left:{left * 3:.1f}px;width:{width * 3:.1f}px;height:10px;"
                   f"background:#4477aa'></div></div>")
            rows.append(f"<tr><td>{html.escape(run)}</td><td>{lo:.3f}</td><td>{up:.3f}</td><td>{bar}</td></tr>")
        return (f"<table><tr><th>run</th><th>B̄</th><th>T̄</th><th>{html.escape(self.session.measure.name)} "
                f"interval (0 to 1)</th></tr>{''.join(rows)}</table>")

    @property
    def matrix_html(self) -> str:
        """The decided pairs among the runs shown (▲: the row's interval lies above the
        column's, ▼: below, blank: still open)."""
        runs = self.session.intervals().index[:_RUNS_SHOWN]
        m = self.session.decided_matrix().loc[runs, runs]
        mark = {1: "▲", -1: "▼", 0: ""}
        cell = "text-align:center;width:1.3em;height:1.3em;border:1px solid #ddd;padding:0"  # open pairs keep their box
        head = "".join(f"<th title='{html.escape(r)}'>{i + 1}</th>" for i, r in enumerate(runs))
        body = "".join(f"<tr><th style='text-align:left'>{i + 1} {html.escape(r)}</th>"
                       + "".join(f"<td style='{cell}'>{mark[int(v)]}</td>" for v in m.loc[r]) + "</tr>"
                       for i, r in enumerate(runs))
        total = len(self.session.run_names)
        note = "" if total <= len(runs) else (
            f"<br><small>the {len(runs)} runs with the highest T̄ of {total}: {self.session.decided} pairs are "
            "decided among all runs</small>")
        return (f"<b>pairs decided</b> (a triangle points up where the row's run lies above the column's){note}"
                f"<table style='border-collapse:collapse'><tr><th></th>{head}</tr>{body}</table>")

    def refresh(self) -> None:
        done = self.session.current is None
        self.relevant_button.disabled = self.not_relevant_button.disabled = done
        self.intervals.value = self.intervals_html
        self.matrix.value = self.matrix_html
        self.document.value = self.document_html
        self.counters.value = self.counters_html  # last: a front end showing it has the others too

    def _ipython_display_(self) -> None:  # pragma: no cover - needs a front end
        from IPython.display import display

        display(self.widget)


def _topic_statements(topics: pd.DataFrame | None) -> dict[str, tuple[str, str]]:
    """topic → (title, description) from a frame with columns ``topic, title`` and, optionally,
    ``description``."""
    if topics is None:
        return {}
    if not isinstance(topics, pd.DataFrame) or not {"topic", "title"} <= set(topics.columns):
        got = sorted(topics.columns) if isinstance(topics, pd.DataFrame) else type(topics).__name__
        raise TypeError(f"assessor: topics must be a DataFrame with columns topic, title and optionally "
                        f"description, got {got}")
    descriptions = topics["description"] if "description" in topics.columns else [""] * len(topics)
    return {str(t): (str(title), "" if pd.isna(d) else str(d))
            for t, title, d in zip(topics["topic"], topics["title"], descriptions, strict=True)}


def _mark(text: str, title: str) -> str:
    """``text`` as HTML with the title's words (of at least ``_MIN_MARKED`` characters) marked."""
    words = {w.lower() for w in _WORD.findall(title) if len(w) >= _MIN_MARKED}
    out, last = [], 0
    for found in _WORD.finditer(text):
        if found.group().lower() in words:
            out += [html.escape(text[last:found.start()]), f"<mark>{html.escape(found.group())}</mark>"]
            last = found.end()
    return "".join(out) + html.escape(text[last:])


def assessor(source, *, judged=None, measure: str = "P@10", runs=None, background_rate: float | None = None,
             documents: Mapping[str, str] | None = None, topics: pd.DataFrame | None = None,
             only_qrels: bool = False) -> AssessorWidget:
    """A "be the assessor" widget (see :class:`~irnb.judging.AssessmentSession` for the options).

    ``source`` is an :class:`~irnb.Experiment`, judged from ``judged`` (default: the qrels as
    they are), or a simulated :class:`~irnb.datasets.Collection`: its complete truth, comparing
    the runs that contributed to its official pool unless ``runs`` is given, judged from
    :func:`~irnb.judging.assessor_start` unless ``judged`` is given, with its readable text and
    its topics' descriptions unless ``documents`` or ``topics`` are given.
    ``topics``: a DataFrame with columns ``topic, title`` and optionally ``description``.
    """
    from .datasets import Collection
    from .experiment import Experiment

    only_qrels = ONLY_QRELS.validate(only_qrels, "assessor")
    if isinstance(source, Collection):
        experiment = source.complete_experiment
        if runs is None:  # the official pool's contributors: few enough that every run and pair is on screen
            runs = [run for run, pooled in zip(experiment.run_names, experiment.contributors, strict=True) if pooled]
        if judged is None:
            judged = assessor_start(experiment, measure=measure, runs=runs, background_rate=background_rate)
        if documents is None:
            documents = source.documents.readable
        if topics is None:
            names = [str(t) for t in source.topics["topic"]]
            topics = pd.DataFrame({"topic": names, "title": [source.documents.topic_title(t) for t in names],
                                   "description": [source.documents.topic_description(t) for t in names]})
    elif isinstance(source, Experiment):
        experiment = source
    else:
        raise TypeError(f"assessor: source must be an irnb.Experiment or an irnb.datasets.Collection, "
                        f"got {type(source).__name__}")
    session = AssessmentSession(experiment, judged=judged, measure=measure, runs=runs,
                                background_rate=background_rate, only_qrels=only_qrels)
    return AssessorWidget(session, documents=documents, topics=topics)
