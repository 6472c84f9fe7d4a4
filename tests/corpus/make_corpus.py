#!/usr/bin/env python3
"""The malformed-input corpus (issue 10): writes every case's file and `manifest.json`.

    python3 tests/corpus/make_corpus.py [--out DIR] [--manifest-only]

Standard library only and deterministic: the same bytes on every run. Each case is a
generator function that returns the file's bytes and, next to them, what the reader must make
of them under strict reading (the default) and under lenient reading (`--lenient`, the page's
checkbox): either an error `{code, line, column, phrases}` or the figures of `input`, the
reading warnings and a few values. Every expectation is written here by hand, reasoned from
the bytes and the reading rules of docs/decisions/ingest/ -- never recorded from the
program's output. Counts are spelled out as formulas of how the file is built (rows written,
lines written), so the reasoning can be checked by reading the generator.

The reading rules the expectations rest on (docs/decisions/ingest/):
- a line ends at CRLF, LF or a lone CR; a record ends at a line end outside quotes or at the
  end of the file; an empty line (or a line of white space, with several columns) is a blank
  record; `records = header + audited + blank + in error`; `lines` does not count the empty
  "line" after a final line end;
- a `"` opens a quoted field only at a field's start and closes at the next `"` that is not
  followed by another `"`; text after the closing quote joins the field; a quote elsewhere is
  an ordinary character;
- a quote still open at the end of the file is `unclosed_quote` at the line and column where
  it opened; lenient reading skips that record (in error) and reads on at the next line;
- a record with a field count other than the header's is `ragged_row` at its first line;
  lenient reading pads or cuts it (counted in `ragged_rows`);
- a NUL byte or a binary signature is `not_text` "(byte N)" (1-based); a NUL past the first
  64 KiB also names its line and column; a field over 10 MiB is `field_too_large`; more than
  100,000 fields is `too_many_columns`;
- the encoding is detected from the first 64 KiB; a later byte that is not UTF-8 is
  `encoding_mismatch`, on which both drivers read the file again as windows-1252
  (CLI warning `encoding_fallback`, a note on the page); UTF-16 needs its BOM.

A case whose expectation the core does not meet yet carries `known_core_issue` (why): the CLI
test marks it xfail(strict) and the page test `test.fail`, so each turns red once the core is
fixed and the mark can go.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

MIB = 1 << 20
#: The CLI and the page's worker both read files in 1 MiB chunks.
CHUNK = MIB
#: The reading warnings: the set of these codes in a report must equal the expected one.
READING_WARNINGS = {
    "empty_column_name",
    "ragged_rows",
    "blank_lines",
    "unclosed_quote",
    "field_too_large",
    "partial_read",
    "encoding_fallback",
    "column_without_values",
}
#: Error codes on which the page offers "Read leniently" (strict reading only).
LENIENT_HELPS = {"ragged_row", "unclosed_quote", "field_too_large"}


def error(code, line=None, column=None, *phrases):
    """An expected error: code, line (None = none), column (None = none), key phrases."""
    return {"error": {"code": code, "line": line, "column": column, "phrases": list(phrases)}}


def figures(rows, records, lines, columns, *, blank=0, errors=0, ragged=0, encoding="utf-8", delimiter=",",
            warnings=(), phrases=None, values=(), metrics=None):
    """An expected success. `bytes` and `sha256` are added from the file's bytes."""
    assert records == 1 + rows + blank + errors, "every record is header, audited, blank or in error"
    return {
        "figures": {
            "records": records,
            "header_records": 1,
            "rows_total": rows,
            "blank_records": blank,
            "error_records": errors,
            "ragged_rows": ragged,
            "lines": lines,
            "columns": columns,
            "encoding": encoding,
            "delimiter": delimiter,
        },
        "warnings": sorted(warnings),
        # code -> phrases that one warning of that code contains
        "warning_phrases": phrases or {},
        "values": list(values),
        "metrics": metrics or {},
    }


# Value checks on the report's column profiles (the page shows the same in its profile table).
def top(column, value, n):
    return {"kind": "top", "column": column, "value": value, "count": n}


def not_top(column, value):
    return {"kind": "not_top", "column": column, "value": value}


def missing(column, n):
    return {"kind": "missing", "column": column, "count": n}


def distinct(column, n):
    return {"kind": "distinct", "column": column, "count": n}


def names(*columns):
    return {"kind": "columns", "names": list(columns)}


def cli_only(check):
    """A value the page does not show as such (e.g. one holding a line break)."""
    return {**check, "cli_only": True}


CASES = []


def case(name, description, qi, *, page=True, known_core_issue=None, ext="csv"):
    """Registers a generator. `page`: also loaded in the page (Playwright)."""

    def register(fn):
        CASES.append({"name": name, "description": description, "qi": qi, "page": page,
                      "known_core_issue": known_core_issue, "ext": ext, "make": fn})
        return fn

    return register


def lines_of(*rows, end=b"\n"):
    return b"".join(r + end for r in rows)


# --- ragged rows ------------------------------------------------------------------------------

@case("ragged_short", "a row with fewer fields than the header (line 4)", "a")
def ragged_short():
    data = lines_of(b"a,b,c", b"1,2,3", b"4,5,6", b"x,y", b"7,8,9", b"10,11,12")
    # Lines 1-6: header, then 5 rows; line 4 has 2 fields.
    strict = error("ragged_row", 4, None, "2 fields", "header has 3")
    lenient = figures(5, 6, 6, 3, ragged=1, warnings={"ragged_rows"},
                      phrases={"ragged_rows": ["line 4", "2 fields"]},
                      values=[missing("c", 1), top("a", "x", 1)])
    return data, strict, lenient


@case("ragged_long", "a row with more fields than the header (line 3)", "a")
def ragged_long():
    data = lines_of(b"a,b,c", b"1,2,3", b"4,5,6,7", b"8,9,10")
    strict = error("ragged_row", 3, None, "4 fields", "header has 3")
    # Lenient: the 4th field "7" is cut, column c holds 3, 6 and 10.
    lenient = figures(3, 4, 4, 3, ragged=1, warnings={"ragged_rows"},
                      phrases={"ragged_rows": ["line 3", "4 fields"]},
                      values=[distinct("c", 3), not_top("c", "7"), top("c", "6", 1)])
    return data, strict, lenient


@case("trailing_delimiter_rows", "data rows end with a delimiter the header lacks", "a")
def trailing_delimiter_rows():
    data = lines_of(b"a,b", b"1,2,", b"3,4,")
    strict = error("ragged_row", 2, None, "3 fields", "header has 2")
    lenient = figures(2, 3, 3, 2, ragged=2, warnings={"ragged_rows"},
                      phrases={"ragged_rows": ["2 rows", "line 2"]}, values=[top("b", "4", 1)])
    return data, strict, lenient


@case("trailing_delimiters", "header `a,b,` and rows `1,2,`: a third column named column_3", "a")
def trailing_delimiters():
    data = lines_of(b"a,b,", b"1,2,", b"3,4,")
    # Every record has 3 fields; the third header cell is empty, so it is named column_3, and
    # it holds no value in any row.
    ok = figures(2, 3, 3, 3, warnings={"empty_column_name", "column_without_values"},
                 phrases={"empty_column_name": ['"column_3"'], "column_without_values": ['"column_3"']},
                 values=[names("a", "b", "column_3"), missing("column_3", 2)])
    return data, ok, ok


# --- quotes -----------------------------------------------------------------------------------

@case("unclosed_quote_last", "issue 10: a quote opened on line 50 of a 200-row file, never closed", "age")
def unclosed_quote_last():
    rows = []
    for line in range(2, 202):  # data on lines 2..201
        notes = b'"see' if line == 50 else b"ok"
        rows.append(b"%d,%d,%s" % (line, 30 + line % 10, notes))
    data = lines_of(b"id,age,notes", *rows)
    # The quote opens at the start of `notes` on line 50 and the file ends inside it; its
    # last line is 201 (the final LF ends line 201, it starts no line 202).
    strict = error("unclosed_quote", 50, "notes", "never closed", "at line 201")
    # Lenient: the record of line 50 is skipped, reading goes on at line 51: lines 2-49 (48
    # rows) and 51-201 (151 rows) are read; records = 1 header + 199 + 1 in error.
    lenient = figures(199, 201, 201, 3, errors=1, warnings={"unclosed_quote", "partial_read"},
                      phrases={"unclosed_quote": ['line 50, column "notes"', "line 51"],
                               "partial_read": ["1 of the file's 201 records"]},
                      values=[top("notes", "ok", 199)], metrics={"n_records_total": 199})
    return data, strict, lenient


@case("unclosed_quote_closed_later",
      "a quote opened on line 10 that a quote on line 20 closes: one record over 11 lines", "city")
def unclosed_quote_closed_later():
    rows = []
    for line in range(2, 31):  # data on lines 2..30
        if line == 10:
            rows.append(b'10,Bern,"starts here')
        elif line == 20:
            rows.append(b'20,"Bern, Stadt",ok')
        else:
            rows.append(b"%d,Bern,ok" % line)
    data = lines_of(b"id,city,notes", *rows)
    # The quote opened at the start of `notes` on line 10 runs over the line ends (they are
    # inside quotes) up to the `"` before "Bern" on line 20, which is followed by "B" and so
    # closes it; "Bern" joins the field, then the delimiters outside quotes make fields 4
    # (` Stadt"`, its quote ordinary) and 5 (`ok`): one record of 5 fields, lines 10 to 20.
    strict = error("ragged_row", 10, None, "5 fields", "header has 3", "from line 10 to line 20",
                   "quote opened on line 10")
    # Lenient: that record is cut to 3 fields (id 10, city Bern): rows = lines 2-9 (8) + 1 +
    # lines 21-30 (10) = 19; no record is in error.
    lenient = figures(19, 20, 30, 3, ragged=1, warnings={"ragged_rows"},
                      phrases={"ragged_rows": ["line 10", "5 fields"]},
                      values=[top("city", "Bern", 19), top("notes", "ok", 18), distinct("id", 19)])
    return data, strict, lenient


@case("unclosed_quote_header", "the header's quote is never closed: an error in both modes", "a")
def unclosed_quote_header():
    data = lines_of(b'a,"b', b"1,2", b"3,4")
    # The quote opens on line 1 at the start of the second header cell; the file (3 lines)
    # ends inside it. There is no header yet, so no column is named.
    strict = error("unclosed_quote", 1, None, "never closed", "at line 3")
    # Lenient reading cannot skip the header: still an error, said to be in the header. (The
    # line where the file ends is not checked here: see test_corpus_cli.py.)
    lenient = error("unclosed_quote", 1, None, "never closed", "in the header")
    return data, strict, lenient


@case("stray_quotes", "quotes inside unquoted fields stay as they are; text after a closing quote joins it", "city")
def stray_quotes():
    data = lines_of(b"code,city,size", b'ab"c,Bern,1', b'x,Zu"g,2', b'y,Bern,3"', b'ab"c,Genf,4', b'z,"Lu"zern,5')
    # A `"` not at a field's start is ordinary: ab"c, Zu"g, 3". `"Lu"zern`: quoted "Lu", then
    # "zern" joins it: Luzern. 5 rows, nothing padded, nothing in error.
    ok = figures(5, 6, 6, 3, values=[top("code", 'ab"c', 2), top("city", 'Zu"g', 1), top("city", "Luzern", 1),
                                     top("city", "Bern", 2), top("size", '3"', 1)])
    return data, ok, ok


# --- line ends, blank records, BOM ------------------------------------------------------------

@case("mixed_line_endings", "LF, CRLF and lone CR line ends in one file, a blank line made of a lone CR", "a")
def mixed_line_endings():
    data = b"a,b\n" + b"1,x\r\n" + b"2,y\r" + b"3,z\n" + b"\r" + b"4,x\r\n" + b"5,y"
    # Line 1 header (LF), 2 `1,x` (CRLF), 3 `2,y` (CR), 4 `3,z` (LF), 5 empty (lone CR),
    # 6 `4,x` (CRLF), 7 `5,y` (no line end): 5 rows, 1 blank record, 7 lines.
    ok = figures(5, 7, 7, 2, blank=1, warnings={"blank_lines"}, phrases={"blank_lines": ["1 blank"]},
                 values=[top("b", "x", 2), top("b", "y", 2), top("b", "z", 1)])
    return data, ok, ok


@case("blank_and_space_lines", "empty lines and lines of spaces or a tab between rows", "a")
def blank_and_space_lines():
    data = lines_of(b"a,b", b"", b"1,2", b"   ", b"3,4", b"\t", b"", b"5,6")
    # Lines 2, 4, 6 and 7 are blank records (empty, spaces, a tab, empty): 3 rows, 4 blank.
    ok = figures(3, 8, 8, 2, blank=4, warnings={"blank_lines"}, phrases={"blank_lines": ["4 blank"]},
                 values=[distinct("a", 3)])
    return data, ok, ok


@case("bom_crlf", "a UTF-8 byte order mark and CRLF line ends", "city")
def bom_crlf():
    data = "\ufeffname,city\r\nAnn,Zürich\r\nBob,Genève\r\nCé,Zürich\r\n".encode()
    # The BOM is not part of the first column's name; 3 rows on lines 2-4.
    ok = figures(3, 4, 4, 2, values=[names("name", "city"), top("city", "Zürich", 2), top("name", "Cé", 1)])
    return data, ok, ok


MULTILINE = 'name,note\r\nZoë,"two\r\nlines"\r\nAnn,x\r\nZoë,"say ""hi"""\r\n'


def multiline_expectation(encoding):
    # Header line 1; record 2 runs over lines 2-3 (a CRLF inside quotes); Ann on line 4; the
    # last Zoë on line 5 (its `""` are quotes). 3 rows, 4 records, 5 lines.
    return figures(3, 4, 5, 2, encoding=encoding,
                   values=[top("name", "Zoë", 2), top("note", 'say "hi"', 1), cli_only(top("note", "two\r\nlines", 1))])


@case("utf8_multiline", "the UTF-8 twin of the UTF-16 cases: CRLF, quoted multi-line fields", "name")
def utf8_multiline():
    ok = multiline_expectation("utf-8")
    return MULTILINE.encode(), ok, ok


@case("utf16le_multiline", "UTF-16 LE with BOM, CRLF and quoted multi-line fields", "name")
def utf16le_multiline():
    ok = multiline_expectation("utf-16le")
    return b"\xff\xfe" + MULTILINE.encode("utf-16-le"), ok, ok


@case("utf16be_multiline", "UTF-16 BE with BOM, CRLF and quoted multi-line fields", "name")
def utf16be_multiline():
    ok = multiline_expectation("utf-16be")
    return b"\xfe\xff" + MULTILINE.encode("utf-16-be"), ok, ok


@case("utf16_lone_surrogate", "UTF-16 LE whose second line starts with a lone surrogate", "a")
def utf16_lone_surrogate():
    # "a" LF, then U+D800 (a high surrogate) followed by "b": not UTF-16. The header `a` is
    # read; the broken character is on line 2, in the first column. Never retried as
    # windows-1252 (that is for `encoding_mismatch` only).
    data = b"\xff\xfe" + "a\n".encode("utf-16-le") + b"\x00\xd8" + "b\n".encode("utf-16-le")
    e = error("invalid_encoding", 2, "a", "utf-16le")
    return data, e, e


@case("tab_delimited", "tab-separated, a quoted field holding a comma", "a")
def tab_delimited():
    data = lines_of(b"a\tb", b'"x,y"\t2', b'"p"\t3')
    # The header splits on TAB only; the comma is inside quotes.
    ok = figures(2, 3, 3, 2, delimiter="\t", values=[top("a", "x,y", 1), top("a", "p", 1)])
    return data, ok, ok


# --- empty and header-only files, header names --------------------------------------------

@case("empty", "a file of 0 bytes", "a")
def empty():
    e = error("empty_file")
    return b"", e, e


@case("only_blank_lines", "only empty lines and lines of white space: no header", "a")
def only_blank_lines():
    e = error("empty_file")
    return b"\n\n   \n\r\n\t\n", e, e


@case("header_only", "a header and no data row", "a")
def header_only():
    ok = figures(0, 1, 1, 3, values=[names("a", "b", "c")])
    return lines_of(b"a,b,c"), ok, ok


@case("duplicate_header", "the header names `age` twice", "sex")
def duplicate_header():
    e = error("duplicate_column", 1, "age", '"age" twice')
    return lines_of(b"age,sex,age", b"30,F,31"), e, e


@case("empty_header_names", "an empty and a blank header cell are named column_2 and column_4", "age")
def empty_header_names():
    data = lines_of(b"age,,city, ", b"30,x,Bern,y", b"40,z,Genf,w")
    ok = figures(2, 3, 3, 4, warnings={"empty_column_name"},
                 phrases={"empty_column_name": ['"column_2"']},
                 values=[names("age", "column_2", "city", "column_4"), top("column_4", "w", 1)])
    # Both renamed columns have a warning of that code; the check takes one phrase per code,
    # so column_4's is asserted by name above.
    return data, ok, ok


# --- not text ---------------------------------------------------------------------------------

@case("nul_early", "a NUL byte in the first 64 KiB", "a")
def nul_early():
    data = b"a,b\n1,2\n3,\x00\n"
    # "a,b\n" (4) + "1,2\n" (4) + "3," (2): the NUL is byte 11.
    e = error("not_text", None, None, "(byte 11)", "NUL")
    return data, e, e


@case("nul_late", "a NUL byte after the first 1 MiB chunk: named with its line and column", "a")
def nul_late():
    n = 300_000
    data = b"a,b\n" + b"1,2\n" * n + b"3,x\x00y\n"
    # 4 + 4n bytes before the last line, then "3,x": the NUL is byte 4 + 4n + 4 (1-based), on
    # line n + 2, in column b.
    e = error("not_text", n + 2, "b", "(byte %d)" % (4 + 4 * n + 4), "NUL")
    return data, e, e


@case("nul_after_64k", "a NUL byte after the first 64 KiB but inside the first 1 MiB chunk", "a")
def nul_after_64k():
    # Exactly the first 64 KiB are the sample, however the chunks fall: a NUL at byte 80,008
    # is past it and names its line and column like one past the first chunk. (Until commit
    # dda4b1d the whole first 1 MiB chunk was the sample; this case was a known core issue.)
    n = 20_000
    data = b"a,b\n" + b"1,2\n" * n + b"3,x\x00y\n"
    e = error("not_text", n + 2, "b", "(byte %d)" % (4 + 4 * n + 4), "NUL")
    return data, e, e


@case("png_renamed", "a PNG image saved as .csv", "a")
def png_renamed():
    data = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa"
    e = error("not_text", None, None, "(byte 1)", "PNG")
    return data, e, e


@case("pdf_renamed", "a PDF document saved as .csv", "a")
def pdf_renamed():
    data = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
    e = error("not_text", None, None, "(byte 1)", "PDF")
    return data, e, e


# --- encodings at the 1 MiB chunk boundary ------------------------------------------------

FILL = b"Anna,Bern\n"


def filled(row_start):
    """`name,city` and rows of FILL, then one padding row, ending exactly at `row_start`.
    Returns the bytes and the number of data rows written (the next row is on line rows + 2)."""
    data = b"name,city\n"
    n = (row_start - len(data)) // len(FILL) - 2
    data += FILL * n
    rest = row_start - len(data)  # 20..29 bytes: one row "Pad,xxx...\n"
    data += b"Pad," + b"x" * (rest - 5) + b"\n"
    assert len(data) == row_start
    return data, n + 1


TAIL_ROWS = 5


def boundary_case(row, at, byte_offset_in_row):
    """A file whose `row` has its byte `byte_offset_in_row` at file offset `at`, then 5 FILL rows."""
    head, rows = filled(at - byte_offset_in_row)
    data = head + row + FILL * TAIL_ROWS
    line = rows + 2
    total = rows + 1 + TAIL_ROWS
    return data, line, total


@case("invalid_utf8_at_1mib", "a windows-1252 byte (é) as the first byte of the second 1 MiB chunk", "name")
def invalid_utf8_at_1mib():
    # "Jos" ends the first chunk; 0xE9 is byte CHUNK (0-based): the first chunk is valid UTF-8,
    # the second starts with a byte that is not -> encoding_mismatch on that line, in `name`
    # -> read again as windows-1252 (é, ü).
    data, line, total = boundary_case(b"Jos\xe9,M\xfcnchen\n", CHUNK, 3)
    ok = figures(total, total + 1, total + 1, 2, encoding="windows-1252", warnings={"encoding_fallback"},
                 phrases={"encoding_fallback": ["line %d" % line, 'column "name"']},
                 values=[top("name", "José", 1), top("city", "München", 1)])
    return data, ok, ok


@case("invalid_utf8_cut_at_1mib", "a windows-1252 byte (é) as the last byte of the first 1 MiB chunk", "name")
def invalid_utf8_cut_at_1mib():
    # 0xE9 ends the first chunk and looks like the start of a 3-byte character; the next
    # chunk starts with "," -> not a continuation: encoding_mismatch on that line, in `name`.
    data, line, total = boundary_case(b"Jos\xe9,M\xfcnchen\n", CHUNK - 1, 3)
    ok = figures(total, total + 1, total + 1, 2, encoding="windows-1252", warnings={"encoding_fallback"},
                 phrases={"encoding_fallback": ["line %d" % line, 'column "name"']},
                 values=[top("name", "José", 1), top("city", "München", 1)])
    return data, ok, ok


@case("utf8_2byte_cut_at_1mib", "a valid 2-byte UTF-8 character (é) cut by the 1 MiB chunk boundary", "name")
def utf8_2byte_cut_at_1mib():
    # 0xC3 is the last byte of the first chunk, 0xA9 the first of the second: valid UTF-8.
    data, _, total = boundary_case("José,München\n".encode(), CHUNK - 1, 3)
    ok = figures(total, total + 1, total + 1, 2, values=[top("name", "José", 1), top("city", "München", 1)])
    return data, ok, ok


@case("utf8_3byte_cut_at_1mib", "a valid 3-byte UTF-8 character (€) cut 2|1 by the 1 MiB chunk boundary", "name")
def utf8_3byte_cut_at_1mib():
    # "Euro," then E2 82 | AC: the € starts 2 bytes before the boundary.
    data, _, total = boundary_case("Euro,€5\n".encode(), CHUNK - 2, 5)
    ok = figures(total, total + 1, total + 1, 2, values=[top("name", "Euro", 1), top("city", "€5", 1)])
    return data, ok, ok


@case("latin1_early", "windows-1252 text from the first line: detected, no fallback", "city")
def latin1_early():
    data = lines_of(b"name,city", b"Jos\xe9,M\xfcnchen", b"Anna,K\xf6ln")
    ok = figures(2, 3, 3, 2, encoding="windows-1252", values=[top("city", "München", 1), top("name", "José", 1)])
    return data, ok, ok


@case("latin1_after_64k", "a windows-1252 byte after the first 64 KiB, inside the first 1 MiB chunk", "name")
def latin1_after_64k():
    # The first 64 KiB are ASCII, so the file is detected as UTF-8; the é on the last line is
    # encoding_mismatch there, and the file is read again as windows-1252.
    n = 8_000  # 10 + 10n bytes of ASCII = 80,010 > 64 KiB
    data = b"name,city\n" + FILL * n + b"Jos\xe9,M\xfcnchen\n"
    ok = figures(n + 1, n + 2, n + 2, 2, encoding="windows-1252", warnings={"encoding_fallback"},
                 phrases={"encoding_fallback": ["line %d" % (n + 2), 'column "name"']},
                 values=[top("name", "José", 1)])
    return data, ok, ok


# --- limits -----------------------------------------------------------------------------------

@case("field_over_10mib", "an unquoted field of 10 MiB + 1 byte on line 3", "a")
def field_over_10mib():
    data = b"a,big\n1,x\n2," + b"y" * (10 * MIB + 1) + b"\n3,z\n"
    strict = error("field_too_large", 3, "big", "10 MiB")
    # Lenient: the record of line 3 is skipped; lines 2 and 4 are read.
    lenient = figures(2, 4, 4, 2, errors=1, warnings={"field_too_large", "partial_read"},
                      phrases={"field_too_large": ['line 3, column "big"'], "partial_read": ["1 of the file's 4 records"]},
                      values=[top("big", "x", 1), top("big", "z", 1)])
    return data, strict, lenient


@case("too_many_columns", "a header of 100,001 names", "c0")
def too_many_columns():
    data = b",".join(b"c%d" % i for i in range(100_001)) + b"\n" + b"1\n"
    e = error("too_many_columns", 1, None, "100000 fields")
    return data, e, e


# --- writing ----------------------------------------------------------------------------------

def build():
    """Every case: (manifest entry, bytes)."""
    out = []
    for c in CASES:
        data, strict, lenient = c["make"]()
        file = "%s.%s" % (c["name"], c["ext"])
        for mode in (strict, lenient):
            if "figures" in mode:
                mode["figures"]["bytes"] = len(data)
                mode["figures"]["sha256"] = hashlib.sha256(data).hexdigest()
        entry = {
            "name": c["name"],
            "file": file,
            "description": c["description"],
            "args": ["--qi", c["qi"]],
            "page": c["page"],
            "bytes": len(data),
            "known_core_issue": c["known_core_issue"],
            "strict": strict,
            "lenient": lenient,
        }
        out.append((entry, data))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join("test-results", "corpus"), help="output folder (default: test-results/corpus)")
    ap.add_argument("--manifest-only", action="store_true", help="print the manifest to stdout, write nothing")
    args = ap.parse_args(argv)
    cases = build()
    manifest = {
        "reading_warnings": sorted(READING_WARNINGS),
        "lenient_helps": sorted(LENIENT_HELPS),
        "cases": [entry for entry, _ in cases],
    }
    if args.manifest_only:
        json.dump(manifest, sys.stdout, ensure_ascii=False, indent=1)
        return
    os.makedirs(args.out, exist_ok=True)
    for entry, data in cases:
        with open(os.path.join(args.out, entry["file"]), "wb") as f:
            f.write(data)
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
    print("%d cases written to %s" % (len(cases), args.out))


if __name__ == "__main__":
    main()
