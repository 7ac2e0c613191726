"""Run metadata: ``#`` comments and ir_metadata blocks are kept on the Run, shown by the
Experiment and carried into reports."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from irnb import Experiment, read_run, read_runs, report
from irnb.runmeta import describe_metadata, read_comments

RUN = """\
# ir_metadata.start
# tag: bm25-k1
# method:
#   retrieval:
#     name: BM25
#     k1: 0.9
# actor:
#   team: irnb
# ir_metadata.end
1 Q0 a 1 3.0 bm25-k1
1 Q0 b 2 2.0 bm25-k1
  # a comment between data lines
1 Q0 c#2 3 1.0 bm25-k1
"""
QRELS = pd.DataFrame({"qid": "1", "docno": ["a", "b", "c#2"], "grade": [1, 0, 1]})


def test_comments_and_ir_metadata_are_kept(tmp_path):
    (tmp_path / "bm25.run").write_text(RUN)
    run = read_run(tmp_path / "bm25.run")
    assert run.num_lines == 3  # comments are not data; '#' inside a docno is ordinary text
    assert run.comments[0] == "ir_metadata.start" and run.comments[-1] == "a comment between data lines"
    assert len(run.comments) == 10
    assert run.metadata == {"tag": "bm25-k1", "method": {"retrieval": {"name": "BM25", "k1": 0.9}},
                            "actor": {"team": "irnb"}}


def test_plain_runs_have_no_metadata(tmp_path):
    (tmp_path / "plain.run").write_text("1 Q0 a 1 3.0 t\n1 Q0 b 2 2.0 t\n")  # the fast path
    run = read_run(tmp_path / "plain.run")
    assert run.comments == () and run.metadata == {}
    crlf = read_run_bytes(tmp_path, b"\xef\xbb\xbf# first\r\n1 Q0 a 1 3.0 t\r\n")
    assert crlf.comments == ("first",)


def read_run_bytes(tmp_path, data: bytes):
    (tmp_path / "bytes.run").write_bytes(data)
    return read_run(tmp_path / "bytes.run")


def test_broken_blocks_name_file_and_line(tmp_path):
    with pytest.raises(ValueError, match=re.escape("r:2: 'ir_metadata.start' without a matching 'ir_metadata.end'")):
        read_comments(b"1 Q0 a 1 1 t\n# ir_metadata.start\n# tag: x\n", "r")
    with pytest.raises(ValueError, match=re.escape("r:3: the ir_metadata block is not valid YAML")):
        read_comments(b"# ir_metadata.start\n# tag: x\n# : : [\n# ir_metadata.end\n", "r")
    with pytest.raises(ValueError, match=re.escape("r:1: expected the ir_metadata block to be a YAML mapping")):
        read_comments(b"# ir_metadata.start\n# - a\n# ir_metadata.end\n", "r")
    with pytest.raises(ValueError, match=re.escape("r:3: a second 'ir_metadata.start'")):
        read_comments(b"# ir_metadata.start\n# ir_metadata.end\n# ir_metadata.start\n# ir_metadata.end\n", "r")


def test_experiment_summary_repr_and_report_show_metadata(tmp_path):
    (tmp_path / "bm25.run").write_text(RUN)
    (tmp_path / "plain.run").write_text("# tuned on 2017 topics\n1 Q0 c#2 1 3.0 t\n1 Q0 a 2 2.0 t\n")
    exp = Experiment(read_runs([tmp_path / "bm25.run", tmp_path / "plain.run"]), QRELS)
    summary = exp.summary()
    described = "tag=bm25-k1; method.retrieval.name=BM25; method.retrieval.k1=0.9; actor.team=irnb"
    assert summary.loc["bm25.run", "metadata"] == described
    assert summary.loc["plain.run", "metadata"] == "tuned on 2017 topics"
    assert summary.loc["bm25.run", "documents"] == 3 and summary.loc["plain.run", "topics"] == 1
    assert f"  bm25.run: {described}" in repr(exp) and "  plain.run: tuned on 2017 topics" in repr(exp)
    rep = report(exp, ["P@2"], n_resamples=100)
    markdown = rep.to_markdown()
    assert f"Run metadata:\n\n- bm25.run: {described}\n- plain.run: tuned on 2017 topics\n" in markdown
    assert "Run metadata: bm25.run: tag=bm25-k1" in rep.to_latex().replace("\\_", "_")
    assert "tuned on 2017 topics" in rep.to_html()
    csv = pd.read_csv(__import__("io").StringIO(rep.to_csv()), keep_default_na=False)
    assert csv.set_index("run").loc["plain.run", "metadata"] == "tuned on 2017 topics"


def test_describe_metadata_is_short():
    assert describe_metadata((), {}) == ""
    long = describe_metadata(("x" * 300,), {})
    assert len(long) == 100 and long.endswith("…")
