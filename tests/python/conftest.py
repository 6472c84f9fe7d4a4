"""Shared fixtures of the Python package's tests (scripts/test.sh runs them in .venv-py, where
ensure_python_package installs the package and what these tests need)."""

import copy
import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADULT = Path(os.environ.get("PSEUDOLENS_DATA", "/work/shared/data")) / "adult" / "adult.csv"
CLI = ROOT / "target" / "release" / "pseudolens"


def pytest_configure(config):
    # pyspark 4.x warns that pandas 3 is newer than it has tested; the tests pin down what
    # pseudolens.spark needs of it (mapInArrow, createDataFrame).
    config.addinivalue_line("filterwarnings", "ignore:PySpark does not yet fully support pandas:FutureWarning")


def cli(*args):
    """The CLI's `--json` report (`target/release/pseudolens`, which scripts/test.sh builds)."""
    if not CLI.exists():
        pytest.fail(f"{CLI} is missing: cargo build --release -p pseudolens (scripts/test.sh builds it)")
    out = subprocess.run([str(CLI), *map(str, args), "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def table_part(report):
    """The report without what describes the file rather than the table: its size, hash,
    format and delimiter, and how its rows reached the metrics."""
    r = copy.deepcopy(dict(report))
    for key in ("bytes", "sha256", "format", "delimiter"):
        r["input"].pop(key, None)
    r.pop("read", None)
    return r


@pytest.fixture(scope="session")
def adult():
    if not ADULT.exists():
        pytest.skip(f"{ADULT} is not here (PSEUDOLENS_DATA names the data folder)")
    return ADULT
