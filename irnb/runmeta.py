"""Run metadata: the ``#`` comment lines of a run file and its ir_metadata block.

Rules:

* A comment is a line whose first non-blank character is ``#`` (the lines :mod:`irnb.io`
  skips as data). ``Run.comments`` keeps their text in file order, without the ``#`` and
  without surrounding whitespace, so ``"# bm25, k1=0.9"`` gives ``"bm25, k1=0.9"``.
* An ir_metadata block (Breuer et al., SIGIR 2022; https://www.ir-metadata.org) is the
  comment lines from one reading ``ir_metadata.start`` to one reading ``ir_metadata.end``;
  the lines between are YAML once the ``#`` is removed and the block dedented. It becomes
  ``Run.metadata`` (a dict; empty when there is no block). A block without its end line,
  a second block, or YAML that is not a mapping is a ``ValueError`` naming ``file:line``.

>>> data = (b"# ir_metadata.start\\n# tag: bm25\\n# method:\\n#   retrieval: BM25\\n# ir_metadata.end\\n"
...         b"1 Q0 d 1 2.0 bm25\\n")
>>> comments, meta = read_comments(data, "run.txt")
>>> comments[1], meta
('tag: bm25', {'tag': 'bm25', 'method': {'retrieval': 'BM25'}})
"""

from __future__ import annotations

import re
import textwrap
from typing import Any
from collections.abc import Mapping

__all__ = ["read_comments", "describe_metadata", "START", "END"]

START, END = "ir_metadata.start", "ir_metadata.end"
_COMMENT = re.compile(rb"(?m)^[ \t\x0b\x0c\r]*#([^\n]*)")


def _comment_lines(data: bytes) -> list[tuple[int, str]]:
    """(1-based line number, text after the ``#``) of every comment line."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"#" not in data:
        return []
    out, line, pos = [], 1, 0
    for match in _COMMENT.finditer(data):
        line += data.count(b"\n", pos, match.start())
        pos = match.start()
        out.append((line, match.group(1).decode("utf-8", errors="replace").rstrip("\r")))
    return out


def read_comments(data: bytes, label: str) -> tuple[tuple[str, ...], dict]:
    """The comments of a run file's bytes and its parsed ir_metadata block."""
    lines = _comment_lines(data)
    comments = tuple(text.strip() for _, text in lines)
    starts = [i for i, (_, text) in enumerate(lines) if text.strip() == START]
    if not starts:
        return comments, {}
    if len(starts) > 1:
        raise ValueError(f"{label}:{lines[starts[1]][0]}: a second '{START}'; expected one ir_metadata block "
                         f"(the first starts on line {lines[starts[0]][0]})")
    first = starts[0]
    ends = [i for i, (_, text) in enumerate(lines) if i > first and text.strip() == END]
    if not ends:
        raise ValueError(f"{label}:{lines[first][0]}: '{START}' without a matching '{END}' comment line")
    body = textwrap.dedent("\n".join(text for _, text in lines[first + 1:ends[0]]))
    import yaml  # only when a block is there

    try:
        parsed = yaml.safe_load(body) if body.strip() else {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        inside = mark is not None and first + 1 + mark.line < ends[0]
        where = lines[first + 1 + mark.line][0] if inside else lines[first][0]
        raise ValueError(f"{label}:{where}: the ir_metadata block is not valid YAML: "
                         f"{getattr(err, 'problem', None) or err}") from None
    if not isinstance(parsed, dict):
        raise ValueError(f"{label}:{lines[first][0]}: expected the ir_metadata block to be a YAML mapping "
                         f"(key: value lines), got {type(parsed).__name__}")
    return comments, parsed


def _flatten(mapping: Mapping, prefix: str = "") -> list[tuple[str, Any]]:
    items = []
    for key, value in mapping.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            items.extend(_flatten(value, name + "."))
        else:
            items.append((name, value))
    return items


def describe_metadata(comments: tuple[str, ...], metadata: Mapping, *, width: int = 100) -> str:
    """A one-line description: the ir_metadata entries (``key.sub=value``), else the first
    comment, with how many comment lines there are; ``""`` when there are none.

    >>> describe_metadata(("bm25 baseline", "k1=0.9"), {})
    'bm25 baseline (2 comment lines)'
    >>> describe_metadata((), {"tag": "x", "method": {"retrieval": "BM25"}})
    'tag=x; method.retrieval=BM25'
    """
    if metadata:
        text = "; ".join(f"{k}={v}" for k, v in _flatten(metadata))
    elif comments:
        shown = [c for c in comments if c]
        text = (shown[0] if shown else "") + (f" ({len(comments)} comment lines)" if len(comments) > 1 else "")
    else:
        return ""
    return text if len(text) <= width else text[: width - 1] + "…"
