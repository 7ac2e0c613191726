"""Judged masks that keep some entries in the pool unjudged (irnb.poolmask): what a PoolMask holds,
what derived arrays become, pickling, and the errors for masks that do not fit together."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from irnb.poolmask import POOLED_UNJUDGED, PoolMask, PoolMaskError, pooled_unjudged_of


def test_a_pool_mask_holds_its_judged_and_pooled_unjudged_entries_read_only():
    m = PoolMask([True, False, False], pooled_unjudged=[False, True, False])
    assert m.tolist() == [True, False, False] and m.pooled_unjudged.tolist() == [False, True, False]
    assert pooled_unjudged_of(m) is m.pooled_unjudged
    assert not m.flags.writeable and not m.pooled_unjudged.flags.writeable
    assert POOLED_UNJUDGED == -1  # trec_eval's "pooled but not judged" grade


def test_derived_masks_are_plain_masks():
    m = PoolMask([True, False, False], pooled_unjudged=[False, True, False])
    for derived in (~m, m & np.array([True, True, False]), m[:2], np.asarray(m)):
        assert pooled_unjudged_of(derived) is None
    assert pooled_unjudged_of(np.array([True, False])) is None


def test_pickling_keeps_a_pool_mask_and_a_plain_mask_as_they_are():
    m = PoolMask([True, False, False], pooled_unjudged=[False, True, False])
    again = pickle.loads(pickle.dumps(m))
    assert type(again) is PoolMask and again.tolist() == m.tolist()
    assert again.pooled_unjudged.tolist() == [False, True, False]
    plain = pickle.loads(pickle.dumps(~m))
    assert type(plain) is np.ndarray and plain.tolist() == [False, True, True]


def test_masks_that_do_not_fit_together_are_refused():
    with pytest.raises(ValueError, match=r"PoolMask: judged and pooled_unjudged must be 1-d boolean masks of the same "
                                         r"length, got shapes \(2,\) and \(1,\)"):
        PoolMask([True, False], pooled_unjudged=[True])
    with pytest.raises(ValueError, match=r"PoolMask: an entry cannot be both judged and pooled_unjudged; 1 are"):
        PoolMask([True, False], pooled_unjudged=[True, False])


def test_the_mask_error_is_both_a_value_and_a_type_error():
    assert issubclass(PoolMaskError, ValueError) and issubclass(PoolMaskError, TypeError)
