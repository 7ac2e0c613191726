"""The definitions page's entry for every measure family, written from the declarations.

A family's facts live in its declaration (:class:`irnb.measures.Family`) and its module's
docstring; this extension writes them to ``docs/_generated/measures.md`` when the site is
built (``builder-inited``), and docs/definitions.md includes that file. Nothing here is
typed per measure: a new module in ``irnb/measures/`` gets its entry by being there. The
generated file is not kept in git, so it cannot go stale.

``render()`` returns the Markdown (one section per declaring module: its docstring, then
one entry per family it declares); tests call it without Sphinx.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

#: Where the page's ``{include}`` finds the entries, relative to the docs folder.
GENERATED = Path("_generated") / "measures.md"
#: The depth k that the entries' examples take (any k ≥ 1 would do).
EXAMPLE_DEPTH = 10

_AGGREGATE = {"mean": "averaged over topics", "sum": "summed over topics",
              "gmean": "geometric mean over topics"}
_CODE = re.compile(r"(``.+?``|`[^`]+`)")
_ROLE = re.compile(r":\w+:`~?([^`]+)`")


def markdown(text: str) -> str:
    """Plain docstring text as Markdown: RST literals and roles become code spans, and the
    characters Markdown would read as emphasis or HTML outside them are escaped."""
    text = _ROLE.sub(r"`\1`", " ".join(text.split()))
    parts = _CODE.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"([*_<\[\]\\])", r"\\\1", parts[i])
    for i in range(1, len(parts), 2):
        parts[i] = f"`{parts[i].strip('`')}`"
    return "".join(parts)


def spellings(family) -> list[str]:
    """How the family is written in a measure name: ``AP``, ``AP@k``; ``P@k(j)``;
    ``IPrec@recall``; ``RBP(p=…,gain=…)``."""
    base = family.condensed_of or family.name
    tail = "(j)" if family.condensed_of else ""
    named = [p.name for p in family.params if p.name != family.at_param]
    inner = f"({','.join(f'{n}=…' for n in named)})" if named else ""
    if family.at_param is not None:
        return [f"{base}{inner}@{family.at_param}{tail}"]
    depths = {"none": [""], "optional": ["", "@k"], "required": ["@k"]}[family.cutoff]
    forms = [] if any(p.default is None for p in family.params) else [base + d for d in depths]
    if inner:  # a parameter without a default must be written
        forms.append(base + inner + depths[-1])
    return [f + tail for f in forms]


def example_value(param):
    """A value a required parameter may take, from its declared choices or bounds."""
    if param.default is not None:
        return param.default
    if param.choices:
        return param.choices[0]
    if param.low is None:
        return param.type(1) if param.high is None or param.high >= 1 else param.high
    if param.high is not None:
        return param.type((param.low + param.high) / 2)
    return param.type(param.low + 1)


def examples(family) -> list:
    """The family's measures with default parameters: without a depth and at
    :data:`EXAMPLE_DEPTH`, as far as its ``cutoff`` allows."""
    from irnb.measures import Measure

    params = tuple((p.name, example_value(p)) for p in family.params)
    depths = {"none": [None], "optional": [None, EXAMPLE_DEPTH], "required": [EXAMPLE_DEPTH]}[family.cutoff]
    if family.at_param is not None:
        depths = [None]
    return [Measure(family.name, k, params) for k in depths]


def _parameters(family) -> str:
    from irnb.params import RELEVANCE_LEVEL

    out = []
    if family.at_param is None and family.cutoff != "none":
        out.append("`k`, the measurement depth" + (" (optional: the whole ranking without it)"
                                                   if family.cutoff == "optional" else " (required)"))
    for p in family.params:
        default = ("required" if p.default is None else "default none" if p.default == ()
                   else f"default `{p.default!r}`")
        out.append(f"`{p.name}` ({default}; {markdown(p.describe())}): {markdown(p.doc)}")
    if not family.uses_rel:
        out.append("the relevance level is not used")
    else:
        unused = ", ".join(f"`{k}={v}`" for k, v in family.rel_unused_when)
        out.append(f"`rel`, the relevance level (default {RELEVANCE_LEVEL.default})"
                   + (f"; not used with {unused}" if unused else ""))
    return "; ".join(out)


def _trec_eval(family) -> str:
    names = [f"`{family.trec_name}`"] if family.trec_name else []
    if family.trec_cut_name:
        names.append(f"`{family.trec_cut_name}_k`")
    if not names:
        return "none in trec_eval 10.0"
    defaults = ", ".join(f"`{k}={v}`" for k, v in family.trec_defaults)
    return ", ".join(names) + (f" (meaning {defaults})" if defaults else "")


def _bounds(family, registry) -> str:
    out = []
    if family.interval:
        when = ", ".join(f"`{k}={v}`" for k, v in family.interval_when)
        out.append("score intervals [B, T] (Ravana & Moffat)" + (f" with {when}" if when else ""))
    if family.scenarios:
        out.append("optimistic and pessimistic scenarios")
    if family.condensed_of:
        out.append(f"the condensed-list form of `{family.condensed_of}`")
    condensed = [f"`{spellings(f)[-1]}`" for f in registry.values() if f.condensed_of == family.name]
    if condensed:
        out.append("condensed-list form " + ", ".join(condensed))
    return "; ".join(out) or "none (no score intervals, scenarios or condensed-list form)"


def _decision(family) -> str:
    if family.role == "assessment":
        return "an assessment measure A (how much of a ranking is judged), never a performance measure P"
    from irnb.decision import assessment_measure

    pairs = [f"`{m.name}` with `{assessment_measure(m).name}`" for m in examples(family)]
    return "a performance measure P; the papers' pairing takes " + " and ".join(pairs)


def entry(family, registry) -> str:
    """One family's entry: how it is written, what it is, and what the rest of irnb asks of it."""
    names = ", ".join(f"`{s}`" for s in spellings(family))
    if family.aliases:
        names += " (also " + ", ".join(f"`{a}`" for a in family.aliases) + ")"
    direction = "higher is better" if family.higher_is_better else "lower is better"
    unit = []
    if family.unit_range:
        unit = ["each value in [0, 1]" + (" with the grades as gains (custom gains can take it above 1)"
                                          if any(p.name == "gains" for p in family.params) else "")]
    values = "; ".join([_AGGREGATE[family.aggregate]] + unit + [direction])
    lines = [f"**{names}** (family `{family.name}`): {markdown(family.description)}.", "",
             f"- source: {markdown(family.source)}",
             f"- parameters: {_parameters(family)}",
             f"- trec_eval name: {_trec_eval(family)}",
             f"- unjudged documents: {markdown(family.unjudged)}",
             f"- values: {values}",
             f"- bounds: {_bounds(family, registry)}",
             f"- decision matrix: {_decision(family)}"]
    if family.symbol:
        lines.append(f"- figures write it `{family.symbol}`")
    return "\n".join(lines)


def render() -> str:
    """The Markdown of every family's entry, grouped by the module that declares it."""
    from irnb.measures import FAMILIES

    modules: dict[str, list] = {}
    for family in FAMILIES.values():
        modules.setdefault(family.module, []).append(family)
    out = ["<!-- written by docs/_ext/measure_catalogue.py from irnb.measures; not kept in git -->"]
    for module_name, families in modules.items():
        doc = inspect.getdoc(importlib.import_module(module_name)) or ""
        first, _, rest = doc.partition("\n\n")
        path = module_name.replace(".", "/") + ".py"
        out += ["", f"### {markdown(first).rstrip('.')}", "", f"Declared in `{path}`."]
        if rest.strip():
            out += ["", "```{eval-rst}", f".. currentmodule:: {module_name}", "", rest.strip(), "```"]
        out += [part for family in families for part in ("", entry(family, FAMILIES))]
    return "\n".join(out) + "\n"


def write(srcdir: Path) -> Path:
    """Write :func:`render` to ``srcdir / GENERATED`` (only when it changed, so that Sphinx
    does not read the page again for nothing); returns the path."""
    path = Path(srcdir) / GENERATED
    text = render()
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return path


def setup(app):
    app.connect("builder-inited", lambda app: write(Path(app.srcdir)))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
