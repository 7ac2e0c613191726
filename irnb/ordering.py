"""Arrow string columns as sort and lookup keys, and runs in trec_eval's order.

A string column's bytes read as 8-byte words (:class:`StringBytes`), hashed and compared
without a Python loop over rows; topics encoded as integer codes (:func:`encode_topics`);
the rows repeated within a topic (:func:`repeated_rows`, :func:`repeated_in_stretches`);
a run's rows sorted by topic, then score descending as trec_eval compares scores, then
docno descending (:func:`sorted_blocks`), with the blocks remembered for a table already in that order
(:func:`remember_blocks`, :func:`topic_blocks`). :mod:`irnb.io` and
:mod:`irnb.experiment` build on these; the rules they implement are :mod:`irnb.io`'s.
"""

from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .arrow_pool import arrow_pool
from .ranking import DOCNO_TIES, comparable_scores
from .params import TREC_VERSION

__all__ = ["StringBytes", "string_bytes", "string_hash", "strings_equal", "encode_topics",
           "repeated_rows", "stretch_heads", "repeated_in_stretches", "KeyTable", "key_table", "find_keys",
           "sort_within", "group_by_code", "topic_docno_order", "topic_docno_order_and_repeats", "break_ties",
           "sorted_blocks", "sorted_parts", "topic_blocks", "remember_blocks", "QRELS_ORDER", "check_compat",
           "COMPAT_VERSIONS", "raw_offsets", "LOW_BYTES", "as_arrow", "ascending_rows", "positions_in",
           "stretches_joined", "BLOCK_ROWS"]


def raw_offsets(array: pa.Array) -> np.ndarray:
    """The value offsets of a (non-chunked) string/binary array, as stored (no copy)."""
    large = pa.types.is_large_string(array.type) or pa.types.is_large_binary(array.type)
    raw = np.frombuffer(array.buffers()[1], dtype=np.int64 if large else np.int32)
    return raw[array.offset: array.offset + len(array) + 1]


def as_arrow(values: np.ndarray) -> pa.Array:
    """A 1-d numpy array of integers or floats as the Arrow array of the same type, sharing
    its memory (copied first only when not contiguous), built from its buffer: ``pa.array``
    first checks whether its input is a pandas object, and its first call in a process loads
    pyarrow's pandas layer for that check, which a read of runs never needs. Other arrays
    (booleans, whose Arrow form is packed bits) go through ``pa.array``.

    >>> as_arrow(np.array([3, 1, 2])).to_pylist()
    [3, 1, 2]
    """
    values = np.ascontiguousarray(values)
    if values.ndim != 1 or values.dtype.kind not in "iuf" or not values.dtype.isnative:
        return pa.array(values, memory_pool=arrow_pool())
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size, [None, pa.py_buffer(values)])


def take_rows(values: pa.Array | pa.ChunkedArray | pa.Table, rows: np.ndarray):
    """``values`` at the positions ``rows`` (numpy integers), allocated from :func:`irnb.arrow_pool.arrow_pool`.

    >>> take_rows(pa.array(["a", "b", "c"]), np.array([2, 0])).to_pylist()
    ['c', 'a']
    """
    return pc.take(values, as_arrow(rows), memory_pool=arrow_pool())


def ascending_rows(values: pa.Array | pa.ChunkedArray, rows: np.ndarray) -> pa.Array:
    """``values`` at the ascending positions ``rows``, as one array. A chunked column is read
    chunk by chunk: Arrow's take joins a column of several chunks into one array before it
    gathers, a temporary as large as the whole column.

    >>> ascending_rows(pa.chunked_array([["a", "b"], ["c"], ["d", "e"]]), np.array([0, 3, 4])).to_pylist()
    ['a', 'd', 'e']
    """
    if not isinstance(values, pa.ChunkedArray):
        return take_rows(values, rows)
    bounds = np.cumsum([0] + [len(chunk) for chunk in values.chunks])
    cut = np.searchsorted(rows, bounds).tolist()  # rows[cut[i]:cut[i + 1]] lie in chunk i
    pieces = [take_rows(chunk, rows[cut[i]:cut[i + 1]] - bounds[i]) for i, chunk in enumerate(values.chunks)
              if cut[i + 1] > cut[i]]
    if not pieces:
        return pa.array([], type=values.type)
    return pieces[0] if len(pieces) == 1 else pa.concat_arrays(pieces, memory_pool=arrow_pool())


def positions_in(values: pa.Array | pa.ChunkedArray, value_set: pa.Array) -> np.ndarray:
    """The position of every value in ``value_set`` (int64), -1 where it is absent:
    ``pc.index_in`` read without ``fill_null``, whose scalar would load pyarrow's pandas layer
    (see :func:`as_arrow`).

    >>> positions_in(pa.array(["b", "x", "a"]), pa.array(["a", "b"])).tolist()
    [1, -1, 0]
    """
    found = pc.index_in(values, value_set=value_set, memory_pool=arrow_pool())
    chunks = found.chunks if isinstance(found, pa.ChunkedArray) else [found]
    out = column_numpy(found).astype(np.int64)
    if found.null_count:
        out[~np.concatenate([_valid(chunk) for chunk in chunks])] = -1  # a null's slot holds any value
    return out


def column_numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A numeric or boolean Arrow column as one numpy array, made by numpy alone (Arrow's own
    conversion allocates from Arrow's default pool, see :mod:`irnb.arrow_pool`): numbers
    shared with Arrow when one chunk holds them, booleans unpacked from their bits. A null's
    slot holds whatever its buffer holds.

    >>> column_numpy(pa.chunked_array([[1, 2], [3]])).tolist(), column_numpy(pa.array([True, False])).tolist()
    ([1, 2, 3], [True, False])
    """
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    parts = [_chunk_numpy(chunk) for chunk in chunks]
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.empty(0, dtype=values.type.to_pandas_dtype())


def one_array(column: pa.ChunkedArray) -> pa.Array:
    """A chunked column as one array: its only chunk as it is, else its chunks joined in the
    pool of :func:`irnb.arrow_pool.arrow_pool` (``combine_chunks`` takes a pool and does not use it).

    >>> one_array(pa.chunked_array([["a"], ["b", "c"]])).to_pylist()
    ['a', 'b', 'c']
    """
    if column.num_chunks == 1:
        return column.chunk(0)
    if column.num_chunks == 0:
        return pa.array([], column.type)
    return pa.concat_arrays(column.chunks, memory_pool=arrow_pool())


def _chunk_numpy(chunk: pa.Array) -> np.ndarray:
    """One chunk of :func:`column_numpy`."""
    if pa.types.is_boolean(chunk.type):
        return _bits(chunk.buffers()[1], chunk.offset, len(chunk))
    width = np.dtype(chunk.type.to_pandas_dtype())
    data = chunk.buffers()[1]
    if data is None:
        return np.empty(0, dtype=width)
    return np.frombuffer(data, dtype=width, count=chunk.offset + len(chunk))[chunk.offset:]


def _valid(chunk: pa.Array) -> np.ndarray:
    """Which of a chunk's slots hold a value (not null)."""
    if chunk.buffers()[0] is None:
        return np.ones(len(chunk), dtype=bool)
    return _bits(chunk.buffers()[0], chunk.offset, len(chunk))


def _bits(buffer: pa.Buffer | None, offset: int, n: int) -> np.ndarray:
    """``n`` bits of an Arrow bitmap from bit ``offset``, as booleans."""
    if n == 0 or buffer is None:
        return np.zeros(n, dtype=bool)
    bits = np.unpackbits(np.frombuffer(buffer, dtype=np.uint8), count=offset + n, bitorder="little")
    return bits[offset:].view(bool)

LOW_BYTES = np.array([0] + [(1 << (8 * k)) - 1 for k in range(1, 8)] + [(1 << 64) - 1], dtype=np.uint64)


class StringBytes(NamedTuple):
    """The bytes of a string column for vectorised reads: ``words[i]`` is the 8 bytes from
    byte i of the values (little-endian, zero-padded past the end, so any i ≤ ``size`` can
    be read), string j starts at ``starts[j]`` and is ``lengths[j]`` bytes long; mask a
    word with ``LOW_BYTES[min(length, 8)]`` to keep only the string's own bytes."""

    words: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    size: int


def string_bytes(array: pa.Array | pa.ChunkedArray) -> StringBytes:
    """The :class:`StringBytes` of a string column: every chunk's bytes copied once, end
    to end, into one padded buffer (32-bit positions when they fit)."""
    chunks = [c for c in (array.chunks if isinstance(array, pa.ChunkedArray) else [array]) if len(c)]
    offsets = [raw_offsets(chunk) for chunk in chunks]
    sizes = [int(o[-1]) - int(o[0]) for o in offsets]
    size = sum(sizes)
    position = np.int32 if size + 16 < 2**31 else np.int64
    padded = np.zeros(size + 8, dtype=np.uint8)
    starts = np.empty(sum(len(c) for c in chunks), dtype=position)
    lengths = np.empty(starts.size, dtype=position)
    byte = row = 0
    for chunk, o, n in zip(chunks, offsets, sizes, strict=True):
        base = int(o[0])
        if n:
            padded[byte:byte + n] = np.frombuffer(chunk.buffers()[2], dtype=np.uint8, count=n, offset=base)
        np.add(o[:-1], byte - base, out=starts[row:row + len(chunk)], casting="unsafe")
        np.subtract(o[1:], o[:-1], out=lengths[row:row + len(chunk)], casting="unsafe")
        byte, row = byte + n, row + len(chunk)
    words = np.ndarray(shape=(size + 1,), dtype="<u8", buffer=padded, strides=(1,))  # unaligned 8-byte reads
    return StringBytes(words, starts, lengths, size)


def _uniform_length(strings: StringBytes) -> int | None:
    """The length every string has, when they all have one (docnos often do), else None."""
    lengths = strings.lengths
    if lengths.size == 0:
        return None
    length = int(lengths[0])
    starts = strings.starts
    end_to_end = int(starts[-1]) - int(starts[0]) == length * (starts.size - 1)
    return length if end_to_end and int(lengths.min()) == length == int(lengths.max()) else None


def _words_at(strings: StringBytes, j: int, length: int | None) -> np.ndarray:
    """Every string's 8 bytes from its byte ``j``, masked to the string's own bytes (zero
    past its end). Strings of one ``length`` lie end to end, so their words are read with
    a fixed stride (no gather through ``starts``)."""
    words, starts, lengths, size = strings
    if length is not None:
        if j >= length:
            return np.zeros(starts.size, dtype=np.uint64)
        first = int(starts[0]) + j  # the words of a later string: + length bytes each
        evenly = np.lib.stride_tricks.as_strided(words[first:], shape=(starts.size,), strides=(length,))
        return evenly & LOW_BYTES[min(length - j, 8)]
    if j == 0:
        word = words[starts]
        word &= LOW_BYTES[np.minimum(lengths, 8)]
    else:
        word = words[np.minimum(starts + j, size)]
        word &= LOW_BYTES[np.clip(lengths - j, 0, 8)]
    return word


def string_hash(strings: pa.Array | pa.ChunkedArray | StringBytes) -> np.ndarray:
    """A 64-bit hash of every string, vectorised over 8-byte words (no Python loop over
    rows). Collisions are possible; callers confirm equality on the strings themselves.
    Equal strings hash equally, whatever chunk they are in."""
    strings = strings if isinstance(strings, StringBytes) else string_bytes(strings)
    lengths = strings.lengths
    out = lengths.astype(np.uint64)
    out *= np.uint64(0x9E3779B97F4A7C15)
    length = _uniform_length(strings)
    longest = int(lengths.max(initial=0)) if length is None else length
    # A string of L bytes takes one round per 8 bytes it has (at least one): how many rounds
    # its array's longest string takes must not change its hash.
    for j in range(0, max(longest, 1), 8):
        word = _words_at(strings, j, length)
        if j == 0 or length is not None:  # every string has bytes from j on
            out ^= word
            out *= np.uint64(0xFF51AFD7ED558CCD)
            out ^= np.right_shift(out, np.uint64(33), out=word)  # the word's array reused: no new temporary
        else:
            longer = lengths > j
            mixed = out[longer] ^ word[longer]
            mixed *= np.uint64(0xFF51AFD7ED558CCD)
            mixed ^= np.right_shift(mixed, np.uint64(33))
            out[longer] = mixed
    return out


def strings_equal(a: StringBytes, rows_a: np.ndarray, b: StringBytes, rows_b: np.ndarray, *,
                  length: int | None = None) -> np.ndarray:
    """``a[rows_a[i]] == b[rows_b[i]]`` for every i, comparing lengths then 8 bytes at a time.
    ``length``: every string of ``a`` and of ``b`` has this many bytes, end to end (as
    :func:`_uniform_length` finds them): no length to compare, the words read at a stride
    (docnos often have one length).

    >>> a, b = string_bytes(pa.array(["ab", "cd"])), string_bytes(pa.array(["cd", "ab", "ax"]))
    >>> rows_a, rows_b = np.array([0, 1, 0]), np.array([1, 0, 2])
    >>> strings_equal(a, rows_a, b, rows_b).tolist(), strings_equal(a, rows_a, b, rows_b, length=2).tolist()
    ([True, True, False], [True, True, False])
    """
    if length is not None:
        return _equal_at_stride(a, rows_a, b, rows_b, length)
    length = a.lengths[rows_a]
    equal = length == b.lengths[rows_b]
    start_a, start_b = a.starts[rows_a], b.starts[rows_b]
    longest = int(length.max(initial=0))
    if longest <= 8:  # one word per string: every start is a valid read, every length a mask
        differ = a.words[start_a]
        differ ^= b.words[start_b]
        differ &= LOW_BYTES[length]  # where lengths differ, equal is False already
        return np.logical_and(equal, differ == 0, out=equal)
    for j in range(0, longest, 8):
        differ = a.words[np.minimum(start_a + j, a.size)] ^ b.words[np.minimum(start_b + j, b.size)]
        differ &= LOW_BYTES[np.clip(length - j, 0, 8)]
        equal &= differ == 0
    return equal


def _equal_at_stride(a: StringBytes, rows_a: np.ndarray, b: StringBytes, rows_b: np.ndarray, length: int
                     ) -> np.ndarray:
    """:func:`strings_equal` of strings that all have ``length`` bytes, end to end: word j of
    string i is 8 bytes from ``starts[0] + i * length + j``, a strided view, no start to gather."""
    equal = np.ones(rows_a.size, dtype=bool)
    for j in range(0, length, 8):
        words = []
        for strings in (a, b):
            first = int(strings.starts[0]) + j if strings.starts.size else 0
            words.append(np.lib.stride_tricks.as_strided(strings.words[first:], shape=(strings.starts.size,),
                                                         strides=(length,)))
        differ = words[0][rows_a]
        differ ^= words[1][rows_b]
        differ &= LOW_BYTES[min(length - j, 8)]
        equal &= differ == 0
    return equal


def _prefix_key(strings: pa.Array | pa.ChunkedArray | StringBytes) -> np.ndarray:
    """The first 8 bytes of every string as a big-endian uint64 (zero-padded): comparing
    keys compares the strings' first 8 bytes as a bytewise string sort does."""
    strings = strings if isinstance(strings, StringBytes) else string_bytes(strings)
    return _words_at(strings, 0, _uniform_length(strings)).byteswap(inplace=True)


def _stretch_starts(topic: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """First row of every stretch of equal consecutive values (row 0 included); a chunked
    column is compared as it is, never joined into one array first."""
    change = np.ones(len(topic), dtype=bool)
    if len(topic) > 1:
        change[1:] = column_numpy(pc.not_equal(topic[1:], topic[:-1], memory_pool=arrow_pool()))
    return np.flatnonzero(change)


def encode_topics(topic: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Integer code of every row's topic (first-appearance order; int32) and the distinct
    topics.

    Files list a topic's lines together, so usually only the first row of each stretch of
    equal topics is hashed (the codes are the same either way), and a column parsed in many
    chunks is then read chunk by chunk: joining a large file's topics into one array first
    would copy the whole column into fresh memory."""
    n = len(topic)
    heads = _stretch_starts(topic)
    if heads.size * 4 <= n:
        firsts = ascending_rows(topic, heads)
        stretch = np.diff(np.r_[heads, n])
        pool = arrow_pool()
        if len(firsts) < 2 or pc.all(pc.less(firsts[:-1], firsts[1:], memory_pool=pool), memory_pool=pool).as_py():
            # stretches in increasing string order (qrels as read_qrels sorts them): each is a
            # new topic, numbered in order, without hashing
            return np.repeat(np.arange(heads.size, dtype=np.int32), stretch), firsts
        encoded = pc.dictionary_encode(firsts, memory_pool=arrow_pool())
        head_codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
        return np.repeat(head_codes, stretch), encoded.dictionary
    if isinstance(topic, pa.ChunkedArray):
        topic = one_array(topic)  # one dictionary for every chunk
    encoded = pc.dictionary_encode(topic, memory_pool=arrow_pool())
    return encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False), encoded.dictionary


_NO_REPEATS = (np.zeros(0, np.int64), np.zeros(0, np.int64))

# Rows of stretches checked at a time by repeated_in_stretches (a whole stretch, however long),
# for the reason of _STRETCH_ROWS; its temporaries (the bytes, positions, keys and their sorted
# copy) are reused from group to group when a group's are at most a few hundred KiB each.
_REPEAT_ROWS = 1 << 15


def repeated_rows(table: pa.Table, topic_codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows whose (topic, docno) occurred on an earlier row, and that earlier row (int64,
    by row); ``topic_codes``: an integer per row, equal for rows of one topic (see
    :func:`repeated_in_stretches`, for rows whose topics lie each in one stretch).

    >>> t = pa.table({"topic": ["1", "1", "2", "1"], "docno": ["a", "b", "a", "a"]})
    >>> [r.tolist() for r in repeated_rows(t, np.array([0, 0, 1, 0]))]
    [[3], [0]]
    """
    key = string_hash(table["docno"])
    mixed = topic_codes.astype(np.uint64)
    mixed *= np.uint64(0xC2B2AE3D27D4EB4F)
    key ^= mixed
    # Sorting 64-bit integers is several times faster than a hash table over random keys, and
    # sorting each topic's few rows apart faster still; equal neighbours are the repeated keys
    # (or, rarely, a collision, or two topics' keys meeting at their border: the candidates
    # are checked exactly). Sorted in place: the keys in row order are needed again only when
    # some repeat.
    grouped, starts = group_by_code(topic_codes, int(topic_codes.max(initial=-1)) + 1)
    if grouped is not None:
        key = key[grouped]
    sort_within(key, starts)
    repeated = key[1:][key[1:] == key[:-1]]
    if repeated.size == 0:
        return _NO_REPEATS
    key = string_hash(table["docno"])
    key ^= mixed
    candidates = np.flatnonzero(np.isin(key, repeated))
    return _exact_repeats(topic_codes[candidates], table["docno"], candidates)


def stretch_heads(codes: np.ndarray, *, sizes: np.ndarray | None = None) -> np.ndarray | None:
    """The first row of every stretch of rows of one topic (``codes``, as
    :func:`encode_topics` numbers them), when every topic's rows lie in one stretch (how
    files list topics); None otherwise. With ``sizes``: runs of ``sizes[i]`` rows each
    (none empty) lie end to end, and a stretch is one run's rows of one topic.

    >>> stretch_heads(np.array([1, 1, 0, 0, 0])).tolist()
    [0, 2]
    >>> stretch_heads(np.array([1, 0, 1])) is None
    True
    >>> stretch_heads(np.array([1, 0, 0, 1]), sizes=np.array([2, 2])).tolist()
    [0, 1, 2, 3]
    """
    if codes.size == 0:
        return np.zeros(0, np.int64)
    change = codes[1:] != codes[:-1]
    if sizes is not None:
        ends = np.cumsum(sizes)
        change[ends[:-1] - 1] = True
    heads = np.flatnonzero(change)
    heads += 1
    heads = np.r_[0, heads]
    topics = int(codes.max()) + 1
    if sizes is None:
        return heads if heads.size == topics else None
    pair = np.searchsorted(ends, heads, side="right") * topics + codes[heads]  # (run, topic)
    return heads if np.unique(pair).size == heads.size else None


def _stretch_groups(heads: np.ndarray, n: int, rows: int):
    """Consecutive stretches of ``n`` rows (stretch i starts at ``heads[i]``, the last ends
    at ``n``) a group at a time: ``(lo, hi, a, b, starts)`` for stretches lo..hi-1, those
    that end within ``rows`` rows of the group's first row (at least one), which cover rows
    a:b and start at ``starts`` within the group (its last item b - a).

    >>> [(lo, hi, a, b, starts.tolist()) for lo, hi, a, b, starts in _stretch_groups(np.array([0, 2, 3]), 6, 3)]
    [(0, 2, 0, 3, [0, 2, 3]), (2, 3, 3, 6, [0, 3])]
    """
    bounds = np.r_[heads, n]
    lo = 0
    while lo < heads.size:
        a = int(bounds[lo])
        hi = max(lo + 1, int(np.searchsorted(bounds, a + rows, side="right")) - 1)
        b = int(bounds[hi])
        yield lo, hi, a, b, bounds[lo:hi + 1] - a
        lo = hi


def repeated_in_stretches(docno: pa.ChunkedArray | pa.Array, heads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`repeated_rows` of rows whose topics lie each in one stretch, starting at
    ``heads`` (:func:`stretch_heads`): the docnos of a group of stretches at a time (about
    ``_REPEAT_ROWS`` rows, at least one stretch) hashed and sorted stretch by stretch
    (:func:`sort_within`), so no temporary is as long as the column; equal neighbours
    within a stretch are the candidates, checked exactly.

    >>> [r.tolist() for r in repeated_in_stretches(pa.array(["a", "b", "a", "a"]), np.array([0, 2]))]
    [[3], [2]]
    """
    found_rows, found_firsts = [], []
    for _, _, a, b, starts in _stretch_groups(heads, len(docno), _REPEAT_ROWS):
        # the hash's low 32 bits as the key: numpy sorts them about twice as fast as 64, and the
        # rows of one topic seldom share them (the candidates are checked exactly)
        key = string_hash(docno.slice(a, b - a)).astype(np.uint32)
        ordered = key.copy()  # the keys in row order name the candidates, if any
        sort_within(ordered, starts)
        same = ordered[1:] == ordered[:-1]
        same[starts[1:-1] - 1] = False  # a stretch's last row and the next one's first: two topics
        if same.any():
            candidates = np.flatnonzero(np.isin(key, ordered[1:][same]))
            stretch = np.searchsorted(starts, candidates, side="right")  # one stretch, one topic
            candidates += a
            rows, firsts = _exact_repeats(stretch, docno, candidates)
            found_rows.append(rows)
            found_firsts.append(firsts)
    if not found_rows:
        return _NO_REPEATS
    return np.concatenate(found_rows), np.concatenate(found_firsts)


def _exact_repeats(codes: np.ndarray, docno: pa.ChunkedArray | pa.Array, candidates: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Among the ``candidates`` (rows, increasing; ``codes`` their topic codes), those whose
    (topic, docno) came on an earlier candidate, and that one: a comparison of the strings,
    so a hash collision never makes a repeat."""
    docnos = take_rows(docno, candidates).to_pylist()
    first_seen: dict[tuple[int, str], int] = {}
    rows, firsts = [], []
    for row, pair in zip(candidates.tolist(), zip(codes.tolist(), docnos, strict=True), strict=True):
        if pair in first_seen:
            rows.append(row)
            firsts.append(first_seen[pair])
        else:
            first_seen[pair] = row
    return np.asarray(rows, dtype=np.int64), np.asarray(firsts, dtype=np.int64)


COMPAT_VERSIONS = TREC_VERSION.choices  # trec_eval major versions whose score comparison irnb reproduces


def check_compat(compat, owner: str = "compat") -> str:
    """The trec_eval version rule as a string ``"9"`` or ``"10"`` (integers 9 and 10 count):
    9.x compares scores as 32-bit floats, 10.0 as doubles."""
    text = str(compat) if isinstance(compat, (str, int)) and not isinstance(compat, bool) else None
    if text not in COMPAT_VERSIONS:  # the error shows what was given (11, not '11')
        raise TREC_VERSION.error(compat, None, label=f"{owner} (trec_eval version)")
    return text


def _descending_scores(score: pa.ChunkedArray | pa.Array | np.ndarray, compat: str = TREC_VERSION.default
                       ) -> np.ndarray:
    """Every score as an unsigned integer that ascends as the score descends, as trec_eval
    compares scores (:func:`irnb.ranking.comparable_scores`): uint32 for 9.x (float32),
    uint64 for 10.0 (float64). Equal integers are equal scores (-0.0 and 0.0 too). A float's
    bits: a negative's kept as they are, a positive's all but the sign flipped. Computed a
    chunk at a time: only the result is as long as the column."""
    chunks = score.chunks if isinstance(score, pa.ChunkedArray) else [score]
    wide = compat == "10"
    bits_type = np.uint64 if wide else np.uint32
    sign = bits_type(63 if wide else 31)
    out = np.empty(sum(len(chunk) for chunk in chunks), dtype=bits_type)
    row = 0
    for chunk in chunks:
        values = chunk if isinstance(chunk, np.ndarray) else chunk.to_numpy(zero_copy_only=False)
        bits = comparable_scores(values, compat=compat).view(bits_type)
        part = out[row:row + bits.size]
        # (sign - 1) & the low bits: all of them for a positive, none for a negative
        np.right_shift(bits, sign, out=part)
        part -= bits_type(1)
        part &= ~(bits_type(1) << sign)
        part ^= bits
        row += bits.size
    return out


def _descending_key(topic_rank: np.ndarray, descending: np.ndarray) -> np.ndarray:
    """uint64 sort key: topic rank ascending, then score descending (``descending``, from
    :func:`_descending_scores`), as one integer. 32-bit scores (9.x) beside the topic rank;
    64-bit ones (10.0) as the dense rank of (topic, score) pairs."""
    if descending.dtype == np.uint64:
        order = np.lexsort((descending, topic_rank))
        t, d = topic_rank[order], descending[order]
        new = np.r_[True, (t[1:] != t[:-1]) | (d[1:] != d[:-1])]
        key = np.empty(descending.size, dtype=np.uint64)
        key[order] = np.cumsum(new) - 1
        return key
    key = np.left_shift(topic_rank, np.uint64(32), dtype=np.uint64, casting="unsafe")  # ranks are ≥ 0
    key |= descending
    return key


def _score_order(descending: np.ndarray, change: np.ndarray, distinct: int, rank_of_rows
                 ) -> tuple[np.ndarray | None, np.ndarray]:
    """The rows in order of topic rank, then score descending (``descending``, from
    :func:`_descending_scores`), rows that tie kept in file order (None when they are in
    order already), and ``tie``: ``tie[i]`` when the rows at places i and i + 1 of that
    order share topic and score. ``change[i]``: rows i and i + 1 differ in topic;
    ``distinct``: how many topics; ``rank_of_rows(rows)``: the topic ranks of some rows
    (of all, given None).

    A file that lists each topic in one stretch of lines in score order (the usual file) is
    not sorted: a check of neighbours, then the stretches moved whole when the topics come
    in another order than by name (e.g. numerically). Any other file: one stable sort of a
    64-bit key."""
    n = descending.size
    if int(np.count_nonzero(change)) + 1 == distinct:  # every topic in one stretch
        tie = descending[1:] < descending[:-1]  # first, where a score is higher than the one before it...
        np.greater(tie, change, out=tie)  # ...within a stretch
        if not tie.any():  # none: the array holds the ties instead
            np.equal(descending[1:], descending[:-1], out=tie)
            np.greater(tie, change, out=tie)
            heads = np.flatnonzero(change)
            heads += 1
            heads = np.r_[0, heads]
            head_rank = rank_of_rows(heads)
            if bool((head_rank[1:] > head_rank[:-1]).all()):
                return None, tie
            order = _stretches_moved(heads, n, head_rank)
            # a stretch's last row (and the file's) ties with no row after it
            return order, np.r_[tie, False][order[:-1]]
    key = _descending_key(rank_of_rows(None), descending)
    order = np.argsort(key, kind="stable")
    key = key[order]
    return order, key[1:] == key[:-1]


# Tables that irnb sorted (or found sorted), with where each topic's rows start: the
# Experiment then needs neither a second check of the order nor the topic codes again.
# Keyed by the (immutable) table's id; an entry goes when its table is freed.
_TOPIC_BLOCKS: dict[int, tuple[weakref.ref, np.ndarray, pa.Array, str]] = {}
#: the order remembered for a qrels table (topic, then docno, both ascending), in place of a
#: run's trec_eval version
QRELS_ORDER = "topic, docno"


def remember_blocks(table: pa.Table, starts: np.ndarray, topics: pa.Array, compat: str = TREC_VERSION.default) -> None:
    key = id(table)
    _TOPIC_BLOCKS[key] = (weakref.ref(table, lambda _, key=key: _TOPIC_BLOCKS.pop(key, None)), starts, topics,
                          compat)


def topic_blocks(table: pa.Table, compat: str = TREC_VERSION.default) -> tuple[np.ndarray, pa.Array] | None:
    """``(starts, topics)`` of a table known to be in trec_eval order (of trec_eval version
    ``compat``; for a qrels table, ``compat=QRELS_ORDER``: by topic, then docno): the rows of
    ``topics[i]`` are ``starts[i]:starts[i + 1]``; None when the order is not known."""
    entry = _TOPIC_BLOCKS.get(id(table))
    if entry is None or entry[0]() is not table or entry[3] != compat:
        return None
    return entry[1], entry[2]


def _identity(order: np.ndarray) -> bool:
    """Whether a permutation of 0..n-1 leaves every row in place (it does exactly when it
    increases; a comparison of neighbours, no second array of n positions)."""
    return bool((order[1:] > order[:-1]).all())


def _tied_places(tie: np.ndarray, rows: np.ndarray | None, docno: pa.ChunkedArray | pa.Array, direction: str
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The places of an order that tie with a neighbour (``tie[i]``: places i and i + 1
    tie), and the row each takes once every stretch of tied places is sorted by docno
    ``direction`` (``rows``: the row at every place; None: place i holds row i)."""
    at = np.flatnonzero(tie)
    slots = np.sort(np.r_[at, at + 1])  # a place tied on both sides comes twice: once kept
    slots = slots[np.r_[True, slots[1:] != slots[:-1]]]
    # each stretch of tied places is one group, named by its first place
    first = np.r_[True, ~tie[slots[1:] - 1]]
    group = np.maximum.accumulate(np.where(first, slots, 0))
    held = slots if rows is None else rows[slots]
    tied = pa.table({"group": as_arrow(group), "docno": take_rows(docno, held)})
    within = pc.sort_indices(tied, sort_keys=[("group", "ascending"), ("docno", direction)],
                             memory_pool=arrow_pool()).to_numpy()
    return slots, held[within]


def break_ties(order: np.ndarray, ordered_key: np.ndarray | None, docno: pa.ChunkedArray, direction: str, *,
               tie: np.ndarray | None = None) -> None:
    """Reorder, in place, the rows of ``order`` whose sort keys ``ordered_key`` (in that
    order) tie, by docno ``direction`` ("ascending"/"descending"), string by string; or
    those that ``tie`` says tie with the next one (``tie[i]``: rows i and i + 1 tie)."""
    if tie is None:
        tie = ordered_key[1:] == ordered_key[:-1]
    if tie.any():
        slots, rows = _tied_places(tie, order, docno, direction)
        order[slots] = rows


def _topic_ranks(dictionary: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """The codes in topic (string) order, and the rank of every code in that order."""
    by_name = pc.sort_indices(dictionary, memory_pool=arrow_pool()).to_numpy()
    rank_of_code = np.empty(len(dictionary), dtype=np.int64)
    rank_of_code[by_name] = np.arange(len(dictionary))
    return by_name, rank_of_code


def sorted_blocks(
    table: pa.Table, codes: np.ndarray | None = None, dictionary: pa.Array | None = None,
    compat: str = TREC_VERSION.default
) -> tuple[pa.Table, np.ndarray, pa.Array]:
    """``table`` (topic, docno, score, in any order) in trec_eval order — topic ascending,
    score descending as ``compat`` compares scores (:mod:`irnb.ranking`), docno descending —
    with where each topic's rows start and the topics in order (see :func:`topic_blocks`); ``codes``/``dictionary`` are
    ``encode_topics(table["topic"])`` when the caller has them; ``compat`` the trec_eval
    version whose score comparison ranks (see :func:`_descending_scores`).

    The rows in topic and score order (:func:`_score_order`: no sort for the usual file),
    then a string sort of only the rows whose (topic, score) ties; the table is returned as
    is (the same object) when it is already in order."""
    if table.column_names != ["topic", "docno", "score"]:
        table = table.select(["topic", "docno", "score"])
    n = table.num_rows
    if n == 0:
        return table, np.zeros(1, np.int64), pa.array([], pa.string())
    if codes is None or dictionary is None:
        codes, dictionary = encode_topics(table["topic"])
    by_name, rank_of_code = _topic_ranks(dictionary)
    starts = np.r_[0, np.cumsum(np.bincount(codes, minlength=len(dictionary))[by_name])].astype(np.int64)
    topics = take_rows(dictionary, by_name)
    order, tie = _score_order(_descending_scores(table["score"], compat), codes[1:] != codes[:-1], len(dictionary),
                              lambda rows: rank_of_code[codes if rows is None else codes[rows]])
    return _in_order(table, order, tie), starts, topics


def sorted_parts(table: pa.Table, sizes: np.ndarray, codes: np.ndarray, dictionary: pa.Array,
                 compat: str = TREC_VERSION.default) -> tuple[pa.Table, list[tuple[np.ndarray, pa.Array]]] | None:
    """Several runs' rows laid end to end (``sizes[i]`` rows each, none empty; columns
    topic, docno, score), each run's rows put in trec_eval order as :func:`sorted_blocks`
    puts them, all at once (the run first in every key); with each run's ``(starts,
    topics)``. ``codes``/``dictionary`` are ``encode_topics(table["topic"])``. None when
    the runs and topics are too many for one key."""
    parts, num_topics = len(sizes), len(dictionary)
    if parts * num_topics >= 2**31:
        return None
    by_name, rank_of_code = _topic_ranks(dictionary)
    ends = np.cumsum(sizes)
    counts = np.stack([np.bincount(codes[lo:hi], minlength=num_topics)[by_name]
                       for lo, hi in zip((ends - sizes).tolist(), ends.tolist(), strict=True)])
    change = codes[1:] != codes[:-1]
    change[ends[:-1] - 1] = True  # a run's last row and the next run's first: two (run, topic) pairs

    def rank_of_rows(rows: np.ndarray | None) -> np.ndarray:  # the rank of a row's (run, topic) pair
        if rows is None:
            rank = np.repeat(np.arange(parts, dtype=np.int64) * num_topics, sizes)
            rank += rank_of_code[codes]
            return rank
        return np.searchsorted(ends, rows, side="right") * num_topics + rank_of_code[codes[rows]]

    order, tie = _score_order(_descending_scores(table["score"], compat), change, int(np.count_nonzero(counts)),
                              rank_of_rows)
    topics_by_name = take_rows(dictionary, by_name)
    blocks = []
    for per_topic in counts:
        present = np.flatnonzero(per_topic)
        starts = np.r_[0, np.cumsum(per_topic[present])].astype(np.int64)
        blocks.append((starts, take_rows(topics_by_name, present)))
    return _in_order(table, order, tie), blocks


def _in_order(table: pa.Table, order: np.ndarray | None, tie: np.ndarray) -> pa.Table:
    """``table`` (topic, docno, score) with its rows in ``order`` (None: as they are), the
    rows at places that ``tie`` (see :func:`_score_order`) then ordered by docno as trec_eval
    orders them; the same object when no row moves.

    When rows move only among tied rows (the usual file whose topics come in name order),
    the topic column stays, and so does the score column when the tied rows' scores are
    equal as stored (not only as compared): only the docnos are gathered. A table whose
    rows ``order`` moves is copied whole (:func:`_rows_in_order`), never kept as slices of
    the given columns: slices would spare little time and, beside the freed ones, hold the
    C allocator's memory longer."""
    held = rows = None
    if tie.any():
        slots, rows = _tied_places(tie, order, table["docno"], DOCNO_TIES)
        held = slots if order is None else order[slots]  # the row at each tied place before
        moved = rows != held
        slots, rows, held = slots[moved], rows[moved], held[moved]
        if slots.size == 0:
            held = rows = None
    if order is not None:
        if held is not None:
            order[slots] = rows
        return _rows_in_order(table, order)
    if held is None:
        return table
    order = np.arange(table.num_rows)
    order[slots] = rows
    score = table["score"]
    stored = take_rows(score, np.r_[rows, held]).to_numpy().view(np.int64)  # bits: -0.0 is not 0.0
    if not bool((stored[:rows.size] == stored[rows.size:]).all()):
        score = take_rows(score, order)
    return pa.table({"topic": table["topic"], "docno": take_rows(table["docno"], order), "score": score})


# Stretches put end to end by slicing (a copy of their bytes) rather than gathered row by row,
# when the contiguous blocks they form average at least this many rows: a block's slice costs
# about what gathering a few hundred rows does (more on a column of several chunks).
BLOCK_ROWS = 512


def stretches_joined(column: pa.ChunkedArray, firsts: np.ndarray, sizes: np.ndarray, *, max_blocks: int
                      ) -> pa.ChunkedArray | None:
    """The rows ``firsts[i]:firsts[i] + sizes[i]`` of ``column`` for every i, end to end in
    one chunk (the column itself when that is all of it in place): stretches that follow
    one another in the column are sliced as one block. None when that makes more than
    ``max_blocks`` blocks.

    >>> column = pa.chunked_array([["a", "b"], ["b", "c"]])
    >>> stretches_joined(column, np.array([3, 0, 1]), np.array([1, 1, 2]), max_blocks=2).to_pylist()
    ['c', 'a', 'b', 'b']
    >>> stretches_joined(column, np.array([3, 1, 0]), np.array([1, 2, 1]), max_blocks=2) is None
    True
    """
    joined = np.r_[False, firsts[1:] == firsts[:-1] + sizes[:-1]]  # stretch i continues stretch i - 1's block
    block = np.flatnonzero(~joined)
    if block.size > max_blocks:
        return None
    block_rows = np.add.reduceat(sizes, block) if block.size else block
    if block.size == 1 and firsts[0] == 0 and block_rows[0] == len(column):
        return column
    if column.num_chunks == 1:  # slicing an array costs less than slicing a chunked one
        whole = column.chunk(0)
        pieces = [whole.slice(first, size) for first, size in zip(firsts[block].tolist(), block_rows.tolist(),
                                                                   strict=True)]
    else:
        pieces = [chunk for first, size in zip(firsts[block].tolist(), block_rows.tolist(), strict=True)
                  for chunk in column.slice(first, size).chunks]
    return pa.chunked_array([pa.concat_arrays(pieces, memory_pool=arrow_pool())] if pieces else [], type=column.type)


def _rows_in_order(table: pa.Table, order: np.ndarray) -> pa.Table:
    """``table``'s rows in ``order``: when ``order`` moves a few long stretches of rows whole
    (a run whose topics come in number order, not name order: '1000' sorts before '401'),
    each column is its stretches sliced and joined (:func:`stretches_joined`, a copy of
    their bytes), else the rows are gathered one by one.

    >>> _rows_in_order(pa.table({"x": ["a", "b", "c"]}), np.array([2, 0, 1]))["x"].to_pylist()
    ['c', 'a', 'b']
    """
    breaks = np.flatnonzero(np.diff(order) != 1) + 1  # where a stretch starts that does not continue the last
    if order.size and breaks.size < table.num_rows // BLOCK_ROWS:
        firsts, sizes = order[np.r_[0, breaks]], np.diff(np.r_[0, breaks, order.size])
        columns = [stretches_joined(table[name], firsts, sizes, max_blocks=breaks.size + 1)
                   for name in table.column_names]
        return pa.Table.from_arrays(columns, schema=table.schema)
    return take_rows(table, order)


def _stretches_moved(heads: np.ndarray, n: int, rank: np.ndarray) -> np.ndarray:
    """The rows of ``n`` when the stretches starting at ``heads`` (each kept as it is) are
    put in the order of their distinct ``rank``: a counting placement, no sort of rows; one
    array of n positions (int32 when they fit), the steps from row to row summed in place.

    >>> _stretches_moved(np.array([0, 2, 3]), 5, np.array([2, 0, 1])).tolist()
    [2, 3, 4, 0, 1]
    """
    position = np.int32 if n < 2**31 else np.int64
    top = int(rank.max(initial=-1)) + 1
    if top <= 4 * rank.size:  # ranks dense enough to be placed by counting (topic ranks are), not sorted
        place = np.full(top, -1, dtype=np.int64)
        place[rank] = np.arange(rank.size)
        by = place[place >= 0]
    else:
        by = np.argsort(rank)  # distinct ranks: one order
    first = heads[by]
    last = np.r_[heads[1:], n][by] - 1
    step = np.ones(n, dtype=position)
    if n:
        # where each stretch starts in the new order: a jump from the last row of the one before
        step[np.r_[0, np.cumsum(last - first + 1)[:-1]]] = np.r_[first[0], first[1:] - last[:-1]]
    return np.cumsum(step, dtype=position, out=step)


def topic_docno_order(docno: pa.ChunkedArray, codes: np.ndarray, dictionary: pa.Array) -> np.ndarray | None:
    """The rows in (topic, docno) order, both ascending as strings (as
    ``pc.sort_indices`` sorts them), or None when they already are (see
    :func:`topic_docno_order_and_repeats`, which also finds the repeated rows)."""
    return topic_docno_order_and_repeats(docno, codes, dictionary)[0]


def topic_docno_order_and_repeats(docno: pa.ChunkedArray, codes: np.ndarray, dictionary: pa.Array
                                  ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """The rows in (topic, docno) order, both ascending as strings (as
    ``pc.sort_indices`` sorts them; None when they already are), and what
    :func:`repeated_rows` gives: the rows whose (topic, docno) occurred on an earlier row,
    and that earlier row.

    The rows are grouped by topic rank (:func:`group_by_code`, no comparison sort), then
    each topic's rows sorted by one integer key — the docno's first bytes, its lowest bits
    holding the row's place within the topic, so the sort of values gives the order — topic
    by topic (:func:`sort_within`); only rows whose keys tie within a topic compare their
    docnos as strings, and a (topic, docno) listed twice ties, so the repeats are found
    among those few rows, next to each other once ordered (no hash of every docno).

    When every topic's rows lie in one stretch (how files list topics), the stretches are
    sorted a few at a time (:func:`_stretches_sorted`) and then put in topic order: no
    temporary as long as the file, only the order itself."""
    rank_of_code = np.empty(len(dictionary), dtype=np.int64)
    by_name = pc.sort_indices(dictionary, memory_pool=arrow_pool()).to_numpy()
    rank_of_code[by_name] = np.arange(len(dictionary), dtype=np.int64)
    if codes.size > 1:
        heads = np.flatnonzero(codes[1:] != codes[:-1])
        heads += 1
        if heads.size + 1 == len(dictionary):  # every topic in one stretch
            heads = np.r_[0, heads]
            return _stretches_sorted(docno, heads, rank_of_code[codes[heads]])
    docno_bytes = string_bytes(docno)
    rank = rank_of_code[codes]
    topic_bits = max(1, len(dictionary).bit_length())
    key = np.left_shift(rank, 64 - topic_bits, dtype=np.uint64, casting="unsafe")
    key |= _prefix_key(docno_bytes) >> np.uint64(topic_bits)
    if (key[1:] > key[:-1]).all():  # already in order, no two keys alike (the usual sorted file)
        return None, *_NO_REPEATS
    del key
    grouped, topic_start = group_by_code(rank, len(dictionary))
    key = _prefix_key(docno_bytes)
    order, key = _prefix_order(key if grouped is None else key[grouped], topic_start)
    if grouped is not None:
        order = grouped[order]
    return _ordered_with_repeats(order, key, docno, docno_bytes, topic_start[1:-1])


def _prefix_order(prefix: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``prefix`` (uint64 first bytes of docnos, consumed) ordered by it within
    each segment ``starts[i]:starts[i + 1]``, and their keys in that order, cut to the bits a
    row's place left them (rows whose keys tie compare their docnos as strings, see
    :func:`_ordered_with_repeats`): each row's place within its segment in the key's low bits,
    so one sort of values (:func:`sort_within`) gives the order."""
    counts = np.diff(starts)
    local_bits = np.uint64(max(1, int(counts.max(initial=1) - 1).bit_length()))
    key = prefix
    key >>= local_bits
    key <<= local_bits
    first_place = np.repeat(starts[:-1], counts)
    place = np.arange(prefix.size, dtype=np.uint64)
    place -= first_place.view(np.uint64)
    key |= place
    sort_within(key, starts)
    order = np.bitwise_and(key, (np.uint64(1) << local_bits) - np.uint64(1), out=place).view(np.int64)
    order += first_place
    key >>= local_bits  # the docno's first bytes: equal within a segment, a tie
    return order, key


# Rows of stretches sorted at a time by _stretches_sorted (a whole stretch, however long): its
# temporaries, a few dozen bytes a row, stay small enough for the C allocator to reuse its
# memory from one group to the next rather than map (and the kernel zero) fresh pages.
_STRETCH_ROWS = 1 << 17


def _stretches_sorted(docno: pa.ChunkedArray, heads: np.ndarray, head_rank: np.ndarray
                      ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """:func:`topic_docno_order_and_repeats` of rows whose topics lie each in one stretch
    (starting at ``heads``, of distinct topic ranks ``head_rank``): a group of stretches at
    a time, each stretch sorted by docno (the group's docno bytes read from a slice of the
    column) and its rows written where its topic's rows go in the order (the stretches
    placed by topic rank, as :func:`_stretches_moved` places them)."""
    n = len(docno)
    sizes = np.diff(np.r_[heads, n])
    moved = not bool((head_rank[1:] > head_rank[:-1]).all())
    if moved:  # where each stretch goes: after the stretches of lower rank
        by = np.argsort(head_rank)
        goes = np.empty(heads.size, dtype=np.int64)
        goes[by] = np.r_[0, np.cumsum(sizes[by])[:-1]]
    position = np.int32 if n < 2**31 else np.int64  # the order is as long as the file: its positions no wider
    order = np.empty(n, dtype=position) if moved else None  # while None: every row in place
    found_rows, found_firsts = [], []
    for lo, hi, a, b, starts in _stretch_groups(heads, n, _STRETCH_ROWS):
        part, rows, firsts = _sorted_group(docno.slice(a, b - a), starts)
        if rows.size:
            found_rows.append(rows + a)
            found_firsts.append(firsts + a)
        if part is None:
            if order is None:
                continue
            part = np.arange(b - a)
        part += a
        if not moved:
            if order is None:  # the first group out of place: the rows before it stay
                order = np.empty(n, dtype=position)
                order[:a] = np.arange(a)
            order[a:b] = part
        else:
            at = np.repeat(goes[lo:hi] - starts[:-1], sizes[lo:hi])
            at += np.arange(b - a)
            order[at] = part
    repeats = (np.concatenate(found_rows), np.concatenate(found_firsts)) if found_rows else _NO_REPEATS
    return order, *repeats


def _sorted_group(docno: pa.ChunkedArray, starts: np.ndarray) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """The rows of ``docno`` sorted by docno within each stretch ``starts[i]:starts[i + 1]``
    (None when they are already), and the repeated rows with the earlier row each repeats
    (as :func:`topic_docno_order_and_repeats` gives them, rows of ``docno``)."""
    prefix = _stored_prefix_key(docno)
    docno_bytes = None
    if prefix is None:
        docno_bytes = string_bytes(docno)
        prefix = _prefix_key(docno_bytes)
    inner = np.ones(prefix.size, dtype=bool)  # neighbours within one stretch
    inner[starts[1:-1] - 1] = False
    inner = inner[:-1]
    if bool((prefix[1:] > prefix[:-1])[inner].all()):  # each stretch in order, no two first bytes alike
        return None, *_NO_REPEATS
    order, key = _prefix_order(prefix, starts)
    return _ordered_with_repeats(order, key, docno, docno_bytes, starts[1:-1])


def _stored_prefix_key(strings: pa.ChunkedArray | pa.Array) -> np.ndarray | None:
    """:func:`_prefix_key` read from the column's own buffers, when every string has one
    length of at least 8 bytes (docnos often do): each string's first 8 bytes then lie
    ``length`` bytes after the previous one's, inside the buffer, so no padded copy of the
    bytes (:func:`string_bytes`) is made. None otherwise.

    >>> _stored_prefix_key(pa.array(["abcdefgh", "abcdefgi"])).tolist() == [
    ...     int.from_bytes(b"abcdefgh", "big"), int.from_bytes(b"abcdefgi", "big")]
    True
    >>> _stored_prefix_key(pa.array(["abcdefgh", "abcdefghi"])) is None
    True
    """
    chunks = [c for c in (strings.chunks if isinstance(strings, pa.ChunkedArray) else [strings]) if len(c)]
    if not chunks:
        return None
    length = None
    for chunk in chunks:
        offsets = raw_offsets(chunk)
        length = int(offsets[1] - offsets[0]) if length is None else length
        if length < 8 or int(offsets[-1]) - int(offsets[0]) != length * len(chunk) or chunk.null_count:
            return None
        if not bool((np.diff(offsets) == length).all()):
            return None
    key = np.empty(sum(len(c) for c in chunks), dtype=np.uint64)
    row = 0
    for chunk in chunks:
        offsets = raw_offsets(chunk)
        data = chunk.buffers()[2]
        first, n = int(offsets[0]), len(chunk)
        words = np.ndarray(shape=(n,), dtype="<u8", buffer=data, offset=first, strides=(length,))
        np.copyto(key[row:row + n], words)
        row += n
    return key.byteswap(inplace=True)


def _ordered_with_repeats(order: np.ndarray, ordered_key: np.ndarray, docno: pa.ChunkedArray,
                          docno_bytes: StringBytes | None, boundaries: np.ndarray | None = None
                          ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """:func:`topic_docno_order_and_repeats` once the keys are sorted (``boundaries``: the
    first row of every topic, when the keys do not tell topics apart): the ties settled by
    docno, then, among neighbours whose keys tie, the equal docnos: each run of equal
    (topic, docno) rows gives its later rows as repeats of its earliest (``docno_bytes``:
    the :func:`string_bytes` of ``docno``, or None to make them only when keys tie)."""
    tie = ordered_key[1:] == ordered_key[:-1]
    if boundaries is not None:  # a topic's first row never ties with the row before it
        tie[boundaries[(boundaries > 0) & (boundaries < order.size)] - 1] = False
    break_ties(order, None, docno, "ascending", tie=tie)
    at = np.flatnonzero(tie)  # neighbours of one topic that may share a docno
    if at.size:
        docno_bytes = string_bytes(docno) if docno_bytes is None else docno_bytes
        at = at[strings_equal(docno_bytes, order[at], docno_bytes, order[at + 1])]
    if at.size == 0:
        repeats = _NO_REPEATS
    else:  # a chain of equal neighbours at[i], at[i] + 1 = at[i + 1], ... is one (topic, docno)
        chain = np.r_[True, at[1:] != at[:-1] + 1]  # where a chain starts
        heads = np.flatnonzero(chain)
        head_rows, later_rows = order[at[chain]], order[at + 1]
        first = np.minimum(head_rows, np.minimum.reduceat(later_rows, heads))  # the earliest row of each chain
        rows = np.concatenate([head_rows, later_rows])
        firsts = np.concatenate([first, first[np.cumsum(chain) - 1]])
        keep = np.argsort(rows)  # row order, as repeated_rows gives them
        rows, firsts = rows[keep], firsts[keep]
        later = rows != firsts
        repeats = (rows[later].astype(np.int64), firsts[later].astype(np.int64))
    return (None if _identity(order) else order), *repeats


# --------------------------------------------------------------------------- (code, string) lookup


class KeyTable(NamedTuple):
    """(code, string) pairs — a qrels' (topic index, docno) entries — prepared for looking
    many pairs up at once (:func:`key_table`, :func:`find_keys`): a hash table whose buckets
    are laid out end to end, code by code. Code c owns the buckets ``base[c]:base[c + 1]``
    (``2**bits[c]`` of them, more than its entries, at most twice as many, one for a code
    without entries); an entry of code c whose string has the 64-bit key k (its
    :func:`string_hash`) sits in bucket ``base[c] + (k >> (64 - bits[c]))``, and bucket b
    holds the entries ``entry[start[b]:start[b + 1]]`` (the low 32 bits of their keys beside
    them, in ``key``: the bucket is the top bits, so the low ones tell a bucket's keys apart).
    A key is only a filter: a match is confirmed on the string's bytes (a bucket holds
    entries of one code)."""

    start: np.ndarray  # (B + 1,) where each bucket starts in entry and key
    key: np.ndarray  # (Q,) uint32, the low bits of the entries' keys, bucket by bucket
    entry: np.ndarray  # (Q,) int32 (int64 from 2**31 entries), the entries, bucket by bucket (within one: entry order)
    base: np.ndarray  # (C + 1,) int64, the first bucket of every code
    shift: np.ndarray  # (C,) uint64, 64 - bits of every code: a key's bucket is its top bits
    strings: StringBytes  # every entry's string, in entry order
    length: int | None = None  # the length every entry's string has, end to end in strings, if one


# Bits of the string hash a key keeps (all; tests lower it so that unequal strings share keys
# and only the comparison of the strings tells them apart).
_KEY_BITS = 64


def _string_key(strings: StringBytes) -> np.ndarray:
    """The 64-bit key of every string in a :class:`KeyTable`: its :func:`string_hash`, whose
    last step (a multiply, then the top bits folded down) makes both its top bits (the
    bucket) and its low bits (the filter) depend on every byte. Not mixed with the code: a
    code's buckets are its own."""
    key = string_hash(strings)
    if _KEY_BITS < 64:
        key = key >> np.uint64(64 - _KEY_BITS) if _KEY_BITS else np.zeros_like(key)
    return key


def _bit_length(values: np.ndarray) -> np.ndarray:
    """``int(v).bit_length()`` of every non-negative integer below 2**53, vectorised."""
    return np.frexp(values.astype(np.float64))[1].astype(np.int64)


# Segments at least this long are sorted one by one, shorter ones as the rows of a matrix
# (numpy sorts many short rows several times faster than one long array of the same values),
# at most _SEGMENT_CELLS cells at a time (a bounded temporary).
_LONG_SEGMENT = 1 << 12
_SEGMENT_CELLS = 1 << 18
# Neighbouring segments of one length, at least this many, are sorted as the rows of a view.
_SAME_SIZE_RUN = 8


def sort_within(values: np.ndarray, starts: np.ndarray) -> None:
    """Sort, in place, each segment ``values[starts[i]:starts[i + 1]]`` of a 1-d unsigned
    integer array (``starts`` increasing from 0 to ``values.size``): many neighbouring
    segments of one length are sorted as the rows of a matrix view; the others, of similar
    lengths, padded to the next power of two with the largest value and sorted as the rows
    of one matrix, long ones alone.

    >>> v = np.array([3, 1, 2, 9, 7, 8, 5], np.uint64)
    >>> sort_within(v, np.array([0, 3, 3, 6, 7]))
    >>> v.tolist()
    [1, 2, 3, 7, 8, 9, 5]
    """
    sizes = np.diff(starts)
    todo = sizes > 1
    if sizes.size >= _SAME_SIZE_RUN:
        # a run of neighbouring segments of one length (a run's topics, cut at one depth; qrels
        # judged to one depth) is a matrix already: its rows sorted in place, nothing copied (a
        # slice of a 1-d array, strided or not, reshapes to a view)
        change = np.flatnonzero(sizes[1:] != sizes[:-1]) + 1
        first = np.r_[0, change]
        count = np.diff(np.r_[first, sizes.size])
        long = count >= _SAME_SIZE_RUN
        for i, k in zip(first[long].tolist(), count[long].tolist(), strict=True):
            length = int(sizes[i])
            if length > 1:
                values[starts[i]:starts[i + k]].reshape(k, length).sort(axis=1)
                todo[i:i + k] = False
    width_bits = _bit_length(np.maximum(sizes, 1) - 1)  # a segment of n values fits 2**bits ≥ n
    padding = np.iinfo(values.dtype).max
    for bits in (np.unique(width_bits[todo]).tolist() if todo.any() else []):
        segments = np.flatnonzero((width_bits == bits) & todo)
        width = 1 << bits
        if width >= _LONG_SEGMENT:
            for i in segments.tolist():
                values[starts[i]:starts[i + 1]].sort()
            continue
        column = np.arange(width)
        step = max(1, _SEGMENT_CELLS // width)
        for lo in range(0, segments.size, step):
            part = segments[lo:lo + step]
            cells = starts[part][:, None] + column  # each segment's cells, padded past its end
            inside = column < sizes[part][:, None]
            at = cells[inside]
            matrix = np.full(cells.shape, padding, dtype=values.dtype)
            matrix[inside] = values[at]
            matrix.sort(axis=1)  # the padding (the largest value) goes last: each row's own values first
            values[at] = matrix[inside]


def group_by_code(codes: np.ndarray, num_codes: int) -> tuple[np.ndarray | None, np.ndarray]:
    """The rows grouped by code, codes ascending and rows in order within a code (None when
    they already are), and where each code's rows start in that order (``num_codes + 1``
    offsets). Codes are small integers: a counting placement, without a comparison sort,
    when every code's rows lie in one stretch (how files list topics)."""
    codes = np.asarray(codes)
    counts = np.bincount(codes, minlength=num_codes) if codes.size else np.zeros(num_codes, np.int64)
    starts = np.zeros(num_codes + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    n = codes.size
    if n < 2 or bool((codes[1:] >= codes[:-1]).all()):
        return None, starts
    change = np.flatnonzero(codes[1:] != codes[:-1]) + 1
    heads = np.r_[0, change]
    if heads.size == int(np.count_nonzero(counts)):  # every code in one stretch: move the stretches
        return _stretches_moved(heads, n, codes[heads]), starts
    return np.argsort(codes, kind="stable"), starts


# Buckets placed at a time (whole codes, at least one): a part's buckets are numbered in 16
# bits, which numpy sorts by radix (a single code with more buckets is sorted alone, more
# slowly), and the temporaries of each part are small enough that the allocator reuses their
# memory part after part, where qrels-long ones come as fresh pages from the kernel, whose
# faulting and zeroing costs more than the placing itself.
_TABLE_PART = 1 << 16


def key_table(codes: np.ndarray, strings: pa.Array | pa.ChunkedArray | StringBytes, *,
              code_start: np.ndarray | None = None) -> KeyTable:
    """The :class:`KeyTable` of the pairs (``codes[q]``, ``strings[q]``), q = 0, 1, ...
    (codes ≥ 0); a pair listed twice is kept twice, the earlier entry first. ``code_start``,
    when the codes ascend and the caller knows where each starts (code c's entries
    ``code_start[c]:code_start[c + 1]``, as :func:`irnb.judgments.encode_qrels` gives them),
    spares a pass over the codes.

    The entries are grouped by code (:func:`group_by_code`), then sorted by bucket a part of
    whole codes at a time (at most ``_TABLE_PART`` buckets, unless a code has more): a
    stable sort of the buckets numbered within the part, which ascend with the codes."""
    strings = strings if isinstance(strings, StringBytes) else string_bytes(strings)
    codes = np.asarray(codes)
    n = codes.size
    if code_start is None:
        num_codes = int(codes.max()) + 1 if n else 0
        grouped, code_start = group_by_code(codes, num_codes)
    else:
        code_start = np.asarray(code_start)
        if code_start.ndim != 1 or code_start.size == 0 or code_start[0] != 0 or code_start[-1] != n:
            raise ValueError(f"code_start must run from 0 to the {n} entries (one offset per code and one "
                             f"after), got {code_start.size} offsets from {code_start[:1].tolist()} to "
                             f"{code_start[-1:].tolist()}")
        num_codes, grouped = code_start.size - 1, None
    counts = np.diff(code_start)
    bits = _bit_length(counts)  # count < 2**bits ≤ 2 count buckets (one bucket without entries)
    base = np.zeros(num_codes + 1, dtype=np.int64)
    np.cumsum(np.left_shift(1, bits), out=base[1:])
    shift = (64 - bits).astype(np.uint64)
    position = np.int32 if n < 2**31 else np.int64
    start = np.zeros(int(base[-1]) + 1, dtype=position)
    key = np.empty(n, dtype=np.uint32)
    entry = np.empty(n, dtype=position)
    first_code = 0
    while first_code < num_codes:  # codes first_code:last_code, entries lo:hi
        lo = int(code_start[first_code])
        last_code = max(first_code + 1, int(np.searchsorted(base, base[first_code] + _TABLE_PART, side="right")) - 1)
        hi = int(code_start[last_code])
        rows = slice(lo, hi) if grouped is None else grouped[lo:hi]
        part = slice(first_code, last_code)
        part_key = _string_key(StringBytes(strings.words, strings.starts[rows], strings.lengths[rows], strings.size))
        _place_part(part_key, counts[part], shift[part], base[first_code:last_code + 1], start, key[lo:hi],
                    entry[lo:hi])
        if grouped is None:
            entry[lo:hi] += lo
        else:
            entry[lo:hi] = rows[entry[lo:hi]]
        start[int(base[first_code]) + 1:int(base[last_code]) + 1] += lo
        first_code = last_code
    return KeyTable(start, key, entry, base, shift, strings, _uniform_length(strings))


def _place_part(part_key: np.ndarray, counts: np.ndarray, shift: np.ndarray, base: np.ndarray,
                start: np.ndarray, key: np.ndarray, place: np.ndarray) -> None:
    """Place the entries of some consecutive codes (``part_key`` their keys, code by code;
    ``counts`` and ``shift`` of those codes, ``base`` their first buckets and the one after):
    their bucket bounds into ``start`` (counted from the part's first entry), their keys' low
    bits bucket by bucket into ``key``, and each one's row in the part into ``place``."""
    buckets = int(base[-1] - base[0])
    bucket = part_key >> np.repeat(shift, counts)  # within its code
    bucket += np.repeat((base[:-1] - base[0]).view(np.uint64), counts)  # within the part: ascending with the code
    bucket = bucket.astype(np.uint16 if buckets <= 1 << 16 else np.uint32)
    place[:] = np.argsort(bucket, kind="stable")  # stable: a bucket's entries in entry order
    # summed in start's own type: an accumulation cast on the way out takes a slow, buffered path
    np.cumsum(np.bincount(bucket, minlength=buckets), dtype=start.dtype,
              out=start[int(base[0]) + 1:int(base[-1]) + 1])
    np.take(part_key.astype(np.uint32), place, out=key)  # the low bits


# Pairs looked up at a time, for the reason of _TABLE_PART: part-sized temporaries are reused.
_LOOKUP_PART = 1 << 16


def find_keys(table: KeyTable, codes: np.ndarray, strings: pa.Array | pa.ChunkedArray | StringBytes,
              missing: int = -1) -> np.ndarray:
    """The entry of ``table`` holding each pair (``codes[i]``, ``strings[i]``) (its first,
    when listed twice), or ``missing`` (int64). One gather of bucket bounds for every pair,
    then one round per entry of the fullest bucket over the pairs whose bucket has that many
    (a few rounds, over ever fewer pairs; about ``_LOOKUP_PART`` pairs at a time); keys that
    agree are confirmed on the bytes (a code's buckets hold its own entries only), so a hash
    collision never makes a false match.

    >>> t = key_table(np.array([0, 0, 1]), pa.array(["a", "b", "a"]))
    >>> find_keys(t, np.array([1, 0, 2, 0]), pa.array(["a", "a", "a", "c"])).tolist()
    [2, 0, -1, -1]
    """
    strings = strings if isinstance(strings, StringBytes) else string_bytes(strings)
    n = codes.size
    out = np.full(n, missing, dtype=np.int64)
    if n == 0 or table.entry.size == 0:
        return out
    codes = np.asarray(codes)
    all_known = int(codes.min()) >= 0 and int(codes.max()) < table.shift.size  # two reductions, no mask
    for lo in range(0, n, _LOOKUP_PART):
        hi = min(n, lo + _LOOKUP_PART)
        part = StringBytes(strings.words, strings.starts[lo:hi], strings.lengths[lo:hi], strings.size)
        _find_part(table, codes[lo:hi], part, out[lo:hi], all_known=all_known)
    return out


def _find_part(table: KeyTable, codes: np.ndarray, strings: StringBytes, out: np.ndarray, *,
               all_known: bool = False) -> None:
    """:func:`find_keys` of some pairs, their entries written into ``out`` (already
    ``missing`` everywhere); ``all_known``: every code is one of the table's."""
    known = None if all_known else (codes >= 0) & (codes < table.shift.size)  # a code without entries finds none
    code = codes if known is None else np.where(known, codes, 0)
    key = _string_key(strings)
    bucket = key >> table.shift[code]
    bucket += table.base[:-1].view(np.uint64)[code]  # bucket numbers are non-negative: the same bits
    bucket = bucket.view(np.int64)  # an index, without a copy
    first = table.start[bucket]  # start's own type (positions): half the bytes of int64
    bucket += 1
    count = table.start[bucket]
    count -= first
    if known is not None:
        count[~known] = 0
    rows = np.flatnonzero(count)  # pairs whose bucket holds some entry
    first, count, low = first[rows], count[rows], key[rows].astype(np.uint32)  # the table keeps the low bits
    length = table.length if table.length is not None and _uniform_length(strings) == table.length else None
    while rows.size:
        at = np.flatnonzero(table.key[first] == low)
        found = table.entry[first[at]]
        hit = rows[at]
        # a bucket holds entries of its own code only: keys that agree leave the bytes to compare
        confirmed = strings_equal(strings, hit, table.strings, found, length=length)
        out[hit[confirmed]] = found[confirmed]
        count -= 1
        go_on = count > 0
        go_on[at[confirmed]] = False  # found: the first entry holding it
        left = np.flatnonzero(go_on)  # one pass over the mask, then gathers of the four arrays
        rows, first, count, low = rows[left], first[left] + 1, count[left], low[left]
