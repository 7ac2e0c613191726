"""Relevance prediction as a package (irnb.predict): scikit-learn stays optional (not imported
with irnb, an install hint where the SVM needs it), expected measures of completed qrels stay
inside the score interval, and the package's docstring examples run. Completion and the
completed bias tables have files of their modules' names."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from predict_toy import POOL_DEPTH, small_collection, small_corpus_of, toy_experiment
from irnb.intervals import score_intervals
from irnb.pooling import depth_pool
from irnb.predict import (
    INSTALL_HINT,
    TermCounts,
    complete_qrels,
    expected_precision,
    expected_rbp,
)


@pytest.fixture(scope="module")
def small():
    return small_collection()


@pytest.fixture(scope="module")
def small_corpus(small) -> TermCounts:
    return small_corpus_of(small)


# ============================================================================ SVM and optional sklearn
def test_svm_without_sklearn_says_how_to_install(monkeypatch):
    exp, texts = toy_experiment()
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.svm", None)
    with pytest.raises(ImportError, match=re.escape('python3 -m pip install -e ".[predict]" (in the irnb source')):
        complete_qrels(exp, texts, depth=4, method="svm")
    assert INSTALL_HINT == 'python3 -m pip install -e ".[predict]" (in the irnb source checkout; irnb is not on PyPI)'
    # KLD needs no sklearn
    assert complete_qrels(exp, texts, depth=4, method="kld").predicted["docno"].tolist() == ["v"]


def test_import_irnb_does_not_import_sklearn():
    code = "import sys, irnb, irnb.predict; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ============================================================================ expected measures


@pytest.mark.parametrize("method", ["kld", "svm"])
def test_expected_measures_stay_inside_the_interval(small, small_corpus, method):
    if method == "svm":
        pytest.importorskip("sklearn")
    exp = small.experiment
    pool = depth_pool(exp, depth=5)
    done = complete_qrels(exp, small_corpus, depth=POOL_DEPTH, within_qrels=True, pool=pool, method=method)
    for k in (5, 10, 20):
        iv = score_intervals(exp, f"P@{k}", pool=pool)
        x = expected_precision(exp, done, k)
        assert np.all(iv.lower - 1e-12 <= x) and np.all(x <= iv.upper + 1e-12)
        assert (x > iv.lower + 1e-9).any()  # predictions add something
    iv = score_intervals(exp, "RBP(p=0.8)", pool=pool)
    x = expected_rbp(exp, done, 0.8)
    assert np.all(iv.lower - 1e-12 <= x) and np.all(x <= iv.upper + 1e-12)


# ============================================================================ docstring examples


def test_docstring_examples():
    import doctest

    from irnb import predict

    result = doctest.testmod(predict)
    assert result.attempted >= 8 and result.failed == 0
