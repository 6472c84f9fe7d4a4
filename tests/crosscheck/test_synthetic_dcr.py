"""Cross-check: the CLI's DCR and CAP measures (spec synthetic.md Sec 10-11) against sdmetrics
0.32.0 run live (the calls of Sec 14, through tests/crosscheck/synthetic_common.py) on small
seeded tables with blanks, copies of O's rows in P and a holdout, with Sec 14's metadata (G,
SEX, RACE categorical; EDU, AGE numerical). Tolerances of Sec 15: medians, scores and CAP within
1e-9, histograms exact. The baseline score is stochastic (Sec 10.2) and is checked in the
core's tests against calculate_dcr fed the tool's random table."""
import random

import pytest

from synthetic_common import KINDS, audit, oracle

COLUMNS = ["G", "SEX", "RACE", "EDU", "AGE"]
CASES = [(0, 40), (1, 150), (2, 300)]
METHODS = ["cap", "zero_cap", "generalized_cap"]
KNOWN, SENSITIVE = ["SEX", "RACE", "G"], ["EDU", "AGE"]


def table(rng, n, shift):
    rows = []
    for _ in range(n):
        g = rng.choice(["a", "b", "c"]) if rng.random() > 0.05 else ""
        edu = str(rng.randrange(12)) if rng.random() > 0.1 else ""
        age = f"{round(rng.gauss(40 + shift, 12), 1)}"
        rows.append([g, str(rng.randint(1, 2)), str(rng.randint(1, 4)), edu, age])
    return rows


def write(path, rows):
    with open(path, "w") as f:
        f.write(",".join(COLUMNS) + "\n" + "".join(",".join(r) + "\n" for r in rows))
    return str(path)


def continuous(method):
    return ["AGE"] if method != "cap" else []


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    """Per case: the tables' paths and the oracle's results (DCR, then CAP per method), from one
    oracle process for every case."""
    tables = []
    for seed, n in CASES:
        rng = random.Random(seed)
        o, p, h = table(rng, n, 0), table(rng, n, 2), table(rng, n // 2 + 3, 0)
        p[: n // 5] = o[: n // 5]
        d = tmp_path_factory.mktemp(f"dcr{seed}")
        tables.append({"original": write(d / "O.csv", o), "released": write(d / "P.csv", p), "holdout": write(d / "H.csv", h)})
    calls = [{"measure": "dcr", "kinds": KINDS}] + [
        {"measure": "cap", "known": KNOWN, "sensitive": SENSITIVE, "method": m, "continuous": continuous(m), "bins": 4} for m in METHODS
    ]
    return list(zip(tables, oracle([{"tables": t, "calls": calls} for t in tables])))


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("method", range(len(METHODS)))
def test_cap_matches_sdmetrics(cases, case, method):
    paths, theirs = cases[case]
    m = METHODS[method]
    flags = ["--cap-known", ",".join(KNOWN), "--cap-sensitive", ",".join(SENSITIVE), "--cap-method", m.replace("_", "-")]
    if continuous(m):
        flags += ["--cap-continuous", "AGE", "--cap-bins", "4"]
    d, want = audit(paths["released"], paths["original"], *flags)["disclosure_protection"], theirs[1 + method]
    assert abs(d["value"] - want["score"]) <= 1e-9, (m, d["value"], want)
    assert abs(d["details"]["cap_protection"] - want["cap_protection"]) <= 1e-9
    assert abs(d["details"]["baseline_protection"] - want["baseline_protection"]) <= 1e-9


@pytest.mark.parametrize("case", range(len(CASES)))
def test_dcr_matches_sdmetrics(cases, case):
    paths, theirs = cases[case]
    ms = audit(paths["released"], paths["original"], holdout=paths["holdout"])
    over, want = ms["dcr_overfitting_protection"], theirs[0]
    assert abs(over["value"] - want["score"]) <= 1e-9
    assert abs(over["details"]["closer_to_training"] - want["closer_to_training"]) <= 1e-9
    assert abs(over["details"]["median_dcr_training"] - want["median_training"]) <= 1e-9
    assert abs(over["details"]["median_dcr_holdout"] - want["median_holdout"]) <= 1e-9
    assert abs(ms["dcr_baseline_protection"]["details"]["median_dcr_released"] - want["median_training"]) <= 1e-9
    assert over["details"]["histogram_training"] == want["histogram_training"]
    assert over["details"]["histogram_holdout"] == want["histogram_holdout"]
