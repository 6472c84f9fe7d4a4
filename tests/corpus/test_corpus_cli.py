"""The malformed-input corpus through the native CLI, strict and lenient (issue 10).

The corpus is generated into a temporary folder by make_corpus.py; each case runs
`pseudolens audit FILE --qi COL --json` (and with `--lenient`) and is checked against the
expectations written in make_corpus.py: exit status 1, no report on stdout and the error's
code, line and column on stderr; or exit status 0 and the figures of `input`, the reading
warnings and a few values of the JSON report.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CLI = ROOT / "target" / "release" / "pseudolens"

sys.path.insert(0, str(HERE))
import make_corpus  # noqa: E402

MANIFEST = [entry for entry, _ in make_corpus.build()]
READING = make_corpus.READING_WARNINGS
# `pseudolens: error [code]: line L, column "C": message` (line and column each optional).
ERROR_LINE = re.compile(r'^pseudolens: error \[(?P<code>[a-z_]+)\]: (?:line (?P<line>\d+)(?:, column "(?P<col1>[^"]*)")?: |column "(?P<col2>[^"]*)": )?(?P<message>.*)$')


@pytest.fixture(scope="session")
def corpus(tmp_path_factory):
    if not CLI.exists():
        pytest.skip("build the CLI first: cargo build --release -p pseudolens")
    out = tmp_path_factory.mktemp("corpus")
    make_corpus.main(["--out", str(out)])
    written = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert [c["name"] for c in written["cases"]] == [c["name"] for c in MANIFEST]
    return out


def params() -> list:
    out = []
    for entry in MANIFEST:
        for mode in ("strict", "lenient"):
            marks = []
            if entry["known_core_issue"]:
                marks.append(pytest.mark.xfail(strict=True, reason="known core issue: " + entry["known_core_issue"]))
            out.append(pytest.param(entry, mode, id="%s-%s" % (entry["name"], mode), marks=marks))
    return out


def run(path: Path, args: list[str], lenient: bool) -> subprocess.CompletedProcess:
    cmd = [str(CLI), "audit", str(path), *args, "--json"] + (["--lenient"] if lenient else [])
    return subprocess.run(cmd, capture_output=True, timeout=300)


def profile(report: dict, column: str) -> dict:
    for c in report["columns"]:
        if c["name"] == column:
            return c
    raise AssertionError("no column %r in %s" % (column, [c["name"] for c in report["columns"]]))


def check_value(report: dict, check: dict) -> None:
    kind = check["kind"]
    if kind == "columns":
        assert [c["name"] for c in report["columns"]] == check["names"]
        return
    c = profile(report, check["column"])
    if kind == "top":
        assert [check["value"], check["count"]] in [list(t) for t in c["top"]], "%s top %r" % (c["name"], c["top"])
    elif kind == "not_top":
        assert check["value"] not in [t[0] for t in c["top"]], "%s top %r" % (c["name"], c["top"])
    elif kind == "missing":
        assert c["forms"]["missing"] == check["count"], c["forms"]
    elif kind == "distinct":
        assert (c["distinct"], c["distinct_exact"]) == (check["count"], True)
    else:
        raise AssertionError("unknown check %r" % kind)


@pytest.mark.parametrize("entry,mode", params())
def test_case(corpus: Path, entry: dict, mode: str) -> None:
    expected = entry[mode]
    path = corpus / entry["file"]
    assert path.stat().st_size == entry["bytes"]
    p = run(path, entry["args"], lenient=(mode == "lenient"))
    stderr = p.stderr.decode("utf-8", "replace")
    if "error" in expected:
        e = expected["error"]
        assert p.returncode == 1, "exit status %d; stderr: %s" % (p.returncode, stderr)
        assert p.stdout == b"", "no report is printed on an error"
        lines = stderr.strip().splitlines()
        assert len(lines) == 1, stderr
        m = ERROR_LINE.match(lines[0])
        assert m, lines[0]
        line = int(m["line"]) if m["line"] else None
        column = m["col1"] if m["col1"] is not None else m["col2"]
        assert (m["code"], line, column) == (e["code"], e["line"], e["column"]), lines[0]
        for phrase in e["phrases"]:
            assert phrase in m["message"], "%r not in %r" % (phrase, m["message"])
        return

    assert p.returncode == 0, "exit status %d; stderr: %s" % (p.returncode, stderr)
    report = json.loads(p.stdout)
    facts = report["input"]
    for key, value in expected["figures"].items():
        assert facts[key] == value, "input.%s = %r, expected %r (input: %s)" % (key, facts[key], value, facts)
    assert facts["records"] == facts["header_records"] + facts["rows_total"] + facts["blank_records"] + facts["error_records"]
    assert "blank_lines" not in facts, "input.blank_lines was replaced by blank_records"

    codes = sorted({w["code"] for w in report["warnings"]} & READING)
    assert codes == expected["warnings"], "reading warnings %s" % [w for w in report["warnings"] if w["code"] in READING]
    for code, phrases in expected["warning_phrases"].items():
        messages = [w["message"] for w in report["warnings"] if w["code"] == code]
        assert any(all(ph in msg for ph in phrases) for msg in messages), "%s: %r in none of %r" % (code, phrases, messages)
    for check in expected["values"]:
        check_value(report, check)
    for metric_id, value in expected["metrics"].items():
        found = [m for m in report["metrics"] if m["id"] == metric_id]
        assert found and found[0]["value"] == value, "%s: %r" % (metric_id, found)


def test_the_corpus_is_deterministic(tmp_path: Path) -> None:
    """Two runs of the generator write the same bytes (the corpus is not hand-picked per run)."""
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), "--out", str(out)], check=True, capture_output=True)
    names = sorted(os.listdir(a))
    assert names == sorted(os.listdir(b))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
