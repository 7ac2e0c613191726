"""irnb.ordering: the docno hash that matches a run's lines with the qrels entries."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from irnb.ordering import string_hash

docnos = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", max_size=30)


@settings(max_examples=200, deadline=None)
@given(st.lists(docnos, min_size=1, max_size=12), st.lists(docnos, max_size=12))
def test_a_string_hashes_the_same_whatever_else_its_array_holds(strings, others):
    alone = string_hash(pa.array(strings))
    among = string_hash(pa.array(others + strings))[len(others):]
    assert alone.tolist() == among.tolist()


def test_short_docnos_match_beside_longer_ones():
    """Docnos of one length (a run) hashed as in an array with a longer docno (its qrels):
    each of the short ones gets the hash it gets alone."""
    run = string_hash(pa.array(["A-d0", "A-d1"]))
    qrels = string_hash(pa.array(["A-d0", "A-d1", "aaaaaaaaa"]))
    assert run.tolist() == qrels[:2].tolist()
    assert len(set(qrels.tolist())) == 3
