"""Which pool irnb's Arrow calls allocate from (irnb.arrow_pool): small inputs read, an
Experiment built and evaluated without touching Arrow's default pool; large texts in it."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pyarrow as pa
import pytest

import irnb
from irnb import io as irnb_io
from irnb.arrow_pool import allocating_from, arrow_pool

pytestmark = pytest.mark.skipif(pa.default_memory_pool().backend_name == "system",
                                reason="Arrow's default pool is the C allocator here: nothing to tell apart")


def test_the_choice_is_the_blocks_and_the_threads_own():
    system = pa.system_memory_pool()
    seen = []
    with allocating_from(system):
        thread = threading.Thread(target=lambda: seen.append(arrow_pool()))
        thread.start()
        thread.join()
        with allocating_from(None):
            seen.append(arrow_pool())
        seen.append(arrow_pool())
    seen.append(arrow_pool())
    assert seen == [None, None, system, None]  # another thread keeps Arrow's default; blocks nest


def test_a_small_read_built_and_evaluated_never_touches_arrows_default_pool(tmp_path):
    """Runs read alone and in a batch, with topics out of name order, interleaved topics,
    score ties and a repeated docno kept first; qrels out of order; the Experiment built
    (with a depth cut, so its docnos are gathered) and evaluated: Arrow's default pool
    (mimalloc) has handed out nothing. (Run in a fresh process: other tests use the pool.)"""
    for i in range(3):
        (tmp_path / f"r{i}").write_text("10 Q0 b 1 1 t\n10 Q0 c 2 1 t\n9 Q0 a 1 2 t\n9 Q0 d 2 3 t\n9 Q0 e 3 0 t\n")
    mixed = tmp_path.parent / f"{tmp_path.name}.mixed"
    mixed.write_text("9 Q0 a 1 2 t\n10 Q0 b 1 1 t\n9 Q0 d 2 2 t\n10 Q0 b 2 1 t\n10 Q0 c 3 1 t\n")
    qrels = tmp_path.parent / f"{tmp_path.name}.qrels"  # beside the runs' folder, not in it
    qrels.write_text("9 0 d 1\n10 0 c 2\n9 0 a 0\n10 0 x 1\n")
    code = ("import sys, irnb, pyarrow as pa; runs = irnb.read_runs(sys.argv[1]); "
            "runs['mixed'] = irnb.read_run(sys.argv[3], on_duplicate='keep_first'); "
            "ev = irnb.evaluate(irnb.Experiment(runs, irnb.read_qrels(sys.argv[2]), max_depth=2), ['P@2', 'AP']); "
            "print(pa.default_memory_pool().total_bytes_allocated(), "
            "pa.system_memory_pool().total_bytes_allocated() > 0, ev['AP'].shape)")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path), str(qrels), str(mixed)], capture_output=True,
                         text=True, check=True, env=env)
    assert out.stdout.split() == ["0", "True", "(4,", "2)"]  # 4 runs × 2 topics


def _grew(read):
    """Whether Arrow's default pool and the C allocator's handed out memory during ``read()``."""
    default, system = pa.default_memory_pool(), pa.system_memory_pool()
    before = default.total_bytes_allocated(), system.total_bytes_allocated()
    out = read()
    return out, (default.total_bytes_allocated() > before[0], system.total_bytes_allocated() > before[1])


def _files(tmp_path):
    runs = []
    for name in ("r", "s"):
        runs.append(tmp_path / name)
        runs[-1].write_text("".join(f"{t} Q0 d{t}-{i} {i + 1} {9 - i} {name}\n" for t in (2, 1) for i in range(5)))
    qrels = tmp_path / "q"
    qrels.write_text("".join(f"{t} 0 d{t}-{i} {i % 2}\n" for t in (2, 1) for i in range(5)))
    return runs, qrels


def test_a_lone_file_past_its_budget_is_held_by_arrows_pool(tmp_path, monkeypatch):
    """A read of one file (read_run, read_runs given one file, read_qrels) parses it on the
    calling thread, into the C allocator's memory up to the lone-file budget and into Arrow's
    default pool past it, where a qrels file's columns, reordered by topic and docno, are
    copied into the C allocator's memory; the same values either way."""
    (run, _), qrels = _files(tmp_path)
    monkeypatch.setattr(irnb_io, "_INLINE_BYTES", 0)  # the budget of several files plays no part
    monkeypatch.setattr(irnb_io, "ThreadPoolExecutor", None)  # no thread is started either
    read = {}
    for budget, grew, qrels_grew in ((0, (True, False), (True, True)), (1 << 20, (False, True), (False, True))):
        monkeypatch.setattr(irnb_io, "_LONE_FILE_BYTES", budget)
        read[budget] = []
        for reader, expected in ((lambda: irnb.read_runs([run])["r"], grew), (lambda: irnb.read_run(run), grew),
                                 (lambda: irnb.read_qrels(qrels), qrels_grew)):
            out, seen = _grew(reader)
            assert seen == expected
            read[budget].append(out.table)
    assert all(a.equals(b) for a, b in zip(read[0], read[1 << 20], strict=True))
    assert read[0][0].equals(read[0][1])


def test_several_files_past_the_inline_budget_are_held_by_arrows_pool(tmp_path, monkeypatch):
    """Several files: the first ones within the inline budget go to the C allocator, the
    rest (on the reading threads) to Arrow's default pool; the same runs either way."""
    runs, _ = _files(tmp_path)
    read = {}
    for budget, grew in ((0, (True, False)), (1 << 20, (False, True))):
        monkeypatch.setattr(irnb_io, "_INLINE_BYTES", budget)
        read[budget], seen = _grew(lambda: irnb.read_runs(runs))
        assert seen == grew
    assert all(read[0][name].table.equals(read[1 << 20][name].table) for name in ("r", "s"))
