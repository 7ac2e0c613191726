"""The text rules every reader applies (irnb._text): what clean_text refuses and mends, how long
input is shortened in a message, and where a message points (a file's line, a DataFrame's row)."""

from __future__ import annotations

import numpy as np
import pytest

from irnb._text import MAX_LINE_BYTES, SHOWN_CHARS, clean_text, shorten, where


def test_clean_text_drops_a_bom_and_turns_crlf_into_lf():
    assert clean_text(b"\xef\xbb\xbfa\r\nb\r\n", "f") == b"a\nb\n"
    assert clean_text(b"a\nb", "f") == b"a\nb"  # already clean: unchanged


@pytest.mark.parametrize("data, message", [
    (b"\xff\xfe1\x00", r"^f:1: expected UTF-8 text, got a UTF-16 byte-order mark; save the file as UTF-8$"),
    (b"a\nb\x00c", r"^f:2: expected text, got a NUL byte \(\\x00\); is this a binary or UTF-16 file\?$"),
    (b"a\rb\n", r"^f:1: expected line ends \\n or \\r\\n, got a carriage return \(\\r\) not followed by \\n"),
    (b"x\n" + b"y" * (MAX_LINE_BYTES + 1) + b"\n", r"^f:2: line of 10,001 bytes, expected at most 10,000 "),
])
def test_clean_text_refuses_what_is_not_line_text_naming_the_line(data, message):
    with pytest.raises(ValueError, match=message):
        clean_text(data, "f")


def test_a_line_of_exactly_the_limit_passes():
    data = b"x\n" + b"y" * MAX_LINE_BYTES + b"\n"
    assert clean_text(data, "f") == data


def test_shorten_cuts_long_input_and_says_how_long_it_was():
    assert shorten("x" * 70) == repr("x" * SHOWN_CHARS) + "… (70 characters)"
    assert shorten("abc") == "'abc'" and shorten(12345) == "12345"


def test_where_points_at_a_line_or_a_row_label():
    assert where("f", None, 4, "line") == "f:5"  # every row a line: row + 1
    assert where("f", np.array([3, 7]), 1, "line") == "f:7"  # the line numbers the parser kept
    assert where("DataFrame 'r'", np.array(["a", "b"], dtype=object), 0, "row") == "DataFrame 'r': row 'a'"
    assert where("d", None, 4, "row") == "d: row 4"
