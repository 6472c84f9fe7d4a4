"""Cross-check: the CLI's k-marginal, unique exact matches and apparent match (spec
synthetic.md Sec 2-4) against sdnist 2.4 run live (tests/crosscheck/synthetic_common.py), on
the worked example of Sec 13 and on seeded tables; tolerances of Sec 15 (k-marginal 1e-6 on the
0-1000 scale; counts exact; percentages to 2 decimals, as sdnist rounds them). The oracle runs
once for every case (module fixture)."""
import os

import pytest

from synthetic_common import audit, oracle, table, write

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "crate", "core", "tests", "fixtures", "synthetic")
CASES = ["example", "seeded-1", "seeded-2"]
QUASI = [("SEX", "RACE"), ("SEX", "RACE", "AGE"), ("G", "EDU", "AGE")]
CALLS = [{"measure": "k_marginal", "binned": ["AGE"], "group": "G"}, {"measure": "unique_exact_matches"}] + [
    {"measure": "apparent_match", "quasi": list(q)} for q in QUASI
]


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    """Per case: its tables and the oracle's results of CALLS."""
    tables = {"example": {"original": os.path.join(FIXTURES, "original.csv"), "released": os.path.join(FIXTURES, "released.csv")}}
    for seed in (1, 2):
        d = tmp_path_factory.mktemp(f"seeded{seed}")
        tables[f"seeded-{seed}"] = {"original": write(d, "o.csv", table(seed, 300)), "released": write(d, "p.csv", table(seed + 100, 300, shift=1))}
    results = oracle([{"tables": tables[c], "calls": CALLS} for c in CASES])
    return {c: (tables[c], r) for c, r in zip(CASES, results)}


@pytest.mark.parametrize("case", CASES)
def test_k_marginal_ungrouped_and_grouped(cases, case):
    paths, theirs = cases[case]
    ours = audit(paths["released"], paths["original"], "--kmarg-binned", "AGE", "--kmarg-group-by", "G")["k_marginal"]
    assert abs(ours["details"]["score_ungrouped"] - theirs[0]["ungrouped"]) <= 1e-6
    assert abs(ours["value"] - theirs[0]["grouped"]) <= 1e-6


@pytest.mark.parametrize("case", CASES)
def test_unique_exact_matches(cases, case):
    paths, theirs = cases[case]
    ours = audit(paths["released"], paths["original"])["unique_exact_matches"]["details"]
    assert (ours["matched"], ours["unique_target_records"]) == (theirs[1]["matched"], theirs[1]["unique"])
    assert round(ours["pct_matched"], 2) == pytest.approx(theirs[1]["pct_matched"], abs=1e-9)
    assert round(ours["pct_unique"], 2) == pytest.approx(theirs[1]["pct_unique"], abs=1e-9)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("q", range(len(QUASI)))
def test_apparent_match(cases, case, q):
    paths, theirs = cases[case]
    ours = audit(paths["released"], paths["original"], qi=QUASI[q])["apparent_match"]["details"]
    assert ours["matched"] == theirs[2 + q]["matched"]
    assert sorted(r["match_pct"] for r in ours["records"]) == pytest.approx(theirs[2 + q]["match_pct"], abs=1e-9)
