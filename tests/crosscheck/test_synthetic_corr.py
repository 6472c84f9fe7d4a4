"""Cross-check: the CLI's correlation difference, PCA comparison and linear regression (spec
synthetic.md Sec 6-8) against sdnist 2.4 run live (tests/crosscheck/synthetic_common.py,
synthetic_oracle.py's `correlations`, `pca` and `linear_regression`) on the worked example of
Sec 13 and on seeded tables, with the tolerances of Sec 15: correlations and regression lines
1e-9 before rounding; PCA loadings 1e-6 up to each component's sign.

The text column G is coded by rank (A = 0, B = 1) on both sides (Sec 1.4). sdnist's regression
indexes its density matrix by position, so the regression runs on x = EDU (codes 1-4; sdnist
adds a row for 0) and y = DEC, a decile-like column with codes 0..K-1 that the seeded tables
all hold. The oracle runs once for every case (module fixture)."""
import os

import pytest

from synthetic_common import COLUMNS, KINDS, audit, oracle, table, write

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "crate", "core", "tests", "fixtures", "synthetic")
CASES = ["example", "seeded-1", "seeded-2", "seeded-600"]
WITH_DEC = COLUMNS + ["DEC"]
DEC_KINDS = dict(KINDS, DEC="numeric")


def with_dec(rows):
    """Adds DEC = min(9, (AGE - 26) // 6), 0..9 (AGE >= 26 in these tables)."""
    return [dict(r, DEC=min(9, (r["AGE"] - 26) // 6)) for r in rows]


def calls(features, regression):
    out = [{"measure": "correlations", "features": features}, {"measure": "pca", "features": features}]
    if regression:
        out.append({"measure": "linear_regression", "x": "EDU", "y": regression, "groups": ["SEX"]})
    return out


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    """Per case: its tables, its features, its regression's y and the oracle's results."""
    setup = {"example": ({"original": os.path.join(FIXTURES, "original.csv"), "released": os.path.join(FIXTURES, "released.csv")}, COLUMNS, "AGE")}
    for seed, rows in ((1, 300), (2, 300), (600, 600)):
        d = tmp_path_factory.mktemp(f"corr{seed}")
        o, p = with_dec(table(seed, rows)), with_dec(table(seed + 100, rows, shift=1))
        assert {r["DEC"] for r in o + p} == set(range(10))
        setup[f"seeded-{seed}"] = ({"original": write(d, "o.csv", o, WITH_DEC), "released": write(d, "p.csv", p, WITH_DEC)}, WITH_DEC, "DEC")
    results = oracle([{"tables": setup[c][0], "calls": calls(setup[c][1], setup[c][2])} for c in CASES])
    return {c: (*setup[c], r) for c, r in zip(CASES, results)}


def ours(paths, y):
    kinds = DEC_KINDS if y == "DEC" else KINDS
    return audit(paths["released"], paths["original"], "--linreg-x", "EDU", "--linreg-y", y, "--linreg-groups", "SEX", kinds=kinds)


def close(a, b, tol):
    """Both null (NaN), or within tol."""
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= tol)


@pytest.mark.parametrize("case", CASES)
def test_pearson_and_kendall_differences(cases, case):
    paths, features, y, theirs = cases[case]
    m = ours(paths, y)["correlation_difference"]
    assert m["details"]["columns"] == features
    for kind in ("pearson", "kendall"):
        got, want = m["details"][kind]["diff"], theirs[0][kind]
        for a in range(len(features)):
            for b in range(len(features)):
                assert close(got[a][b], want[a][b], 1e-9), (kind, features[a], features[b], got[a][b], want[a][b])


@pytest.mark.parametrize("case", CASES)
def test_pca_loadings_up_to_sign(cases, case):
    paths, features, y, theirs = cases[case]
    got = ours(paths, y)["pca_comparison"]["details"]["loadings"]
    want = theirs[1]["loadings"]
    assert len(got) == len(want) == min(5, len(features))
    for g, w in zip(got, want):
        sign = 1.0 if sum(a * b for a, b in zip(g, w)) >= 0 else -1.0
        assert all(abs(sign * a - b) <= 1e-6 for a, b in zip(g, w)), (g, w)


@pytest.mark.parametrize("case", CASES)
def test_linear_regression(cases, case):
    paths, features, y, theirs = cases[case]
    m = ours(paths, y)["linear_regression"]
    want = theirs[2]
    for g, w in [(m["details"]["total"], want["total"])] + list(zip(m["details"]["subgroups"], want["subgroups"])):
        assert [g["rows_original"], g["rows_released"]] == w["rows"]
        for side in ("original", "released"):
            if w[side] is None:
                assert g[side] is None
            else:
                assert abs(g[side]["slope"] - w[side]["slope"]) <= 1e-9
                assert abs(g[side]["intercept"] - w[side]["intercept"]) <= 1e-9
        # sdnist's printed (rounded) lines.
        got_rounded = [round(g[s][k], 2) if g[s] else 0 for s in ("original", "released") for k in ("slope", "intercept")]
        assert got_rounded == pytest.approx(w["rounded"], abs=1e-9)
    assert [s["values"] for s in m["details"]["subgroups"]] == [s["values"] for s in want["subgroups"]]
    t = m["details"]["total"]
    assert m["value"] == pytest.approx(abs(t["released"]["slope"] - t["original"]["slope"]), abs=1e-12)
    # The density difference O - P: sdnist's is y by x with a first column for x = 0.
    diff = want["total"]["diff"]
    ours_diff = m["details"]["density"]["diff"]
    x_values = m["details"]["density"]["x_values"]
    assert x_values == [1.0, 2.0, 3.0, 4.0]
    for xi, x in enumerate(x_values):
        for yi in range(len(m["details"]["density"]["y_values"])):
            if y == "DEC":
                assert abs(ours_diff[xi][yi] - diff[yi][int(x)]) <= 1e-9
            else:
                assert ours_diff[xi][yi] == 0.0
