"""Cross-check: the CLI's identity metrics against the spec's informative Python rendering
(shared/spec/golden/reference.py) on random tables with blanks, under every missing-value
policy. Run: python3 -m pytest tests/crosscheck (the test script installs numpy, scipy, pytest).
"""
import collections
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("PSEUDOLENS_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
sys.path.insert(0, os.path.join(SHARED, "spec", "golden"))
import reference  # noqa: E402

CLI = os.path.join(ROOT, "target", "release", "pseudolens")
QIS = ["age", "sex", "zip"]
CELLS = {
    "age": ["30-39", "40-49", "50-59", ">=60", "", "*"],
    "sex": ["F", "M", "NA", "*"],
    "zip": ["130**", "148**", "14877", "", "*"],
}


def table(seed):
    rng = random.Random(seed)
    n = rng.randrange(1, 300)
    rows = []
    for _ in range(n):
        row = {q: rng.choice(CELLS[q][:3]) if rng.random() < 0.85 else rng.choice(CELLS[q]) for q in QIS}
        row["diag"] = rng.choice(["flu", "cold"])
        rows.append(row)
    return rows


def run_cli(path, policy, exclude):
    cmd = [CLI, "audit", path, "--qi", ",".join(QIS), "--missing", policy, "--json"]
    if not exclude:
        cmd.append("--keep-suppressed")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return {m["id"]: m for m in json.loads(out)["metrics"]}


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("policy", ["ordinary", "wildcard", "drop"])
@pytest.mark.parametrize("exclude", [True, False])
def test_identity_matches_reference(seed, policy, exclude, tmp_path):
    rows = table(seed * 7 + len(policy))
    path = tmp_path / "t.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(QIS + ["diag"])
        for r in rows:
            w.writerow([r[q] for q in QIS] + [r["diag"]])
    normed = [{k: reference.norm(v) for k, v in r.items()} for r in rows]
    got = run_cli(str(path), policy, exclude)
    idx = reference.scope(normed, QIS, policy, exclude)
    if not idx:
        assert got["k_anonymity"]["status"] == "empty_input"
        return
    want = reference.identity_metrics(normed, QIS, policy, exclude)
    for key in ["n_records_total", "n_records", "n_suppressed_records", "n_dropped_records", "n_classes",
                "k_anonymity", "max_class_size", "sample_uniques"]:
        assert close(got[key]["value"], want[key]), (key, got[key]["value"], want[key])
    for key in ["sample_uniqueness", "rare_combination_rate", "r_internal", "prosecutor_success_rate",
                "avg_risk_class_mean", "prosecutor_highest_risk", "prosecutor_lowest_risk",
                "prosecutor_records_at_risk", "prosecutor_records_affected_by_highest_risk",
                "prosecutor_records_affected_by_lowest_risk"]:
        assert close(got[key]["value"], want[key]), (key, got[key]["value"], want[key])
    p = got["ec_size_percentiles"]["value"]
    assert [p["p5"], p["p50"], p["p95"]] == [want["ec_size_p5"], want["ec_size_p50"], want["ec_size_p95"]]
    for v in got["k_violators"]["value"]:
        assert v["records"] == want[f"k_violators_{v['k']}"]
    if policy != "wildcard":
        assert got["class_size_histogram"]["value"] == want["class_size_histogram"]
    bins = [[e, s] for e, s, _ in got["risk_distribution"]["value"] if s > 0]
    assert len(bins) == len(want["risk_distribution"])
    for (e, s), (we, ws) in zip(bins, want["risk_distribution"]):
        assert e == we and close(s, ws)


@pytest.mark.parametrize("seed", range(8))
def test_population_uniqueness_matches_reference(seed, tmp_path):
    """Zayatz and Pitman (and Dankar's choice) against the reference on random skewed tables:
    1e-9 relative for Zayatz, 1e-6 for the iterative Pitman (spec README Sec 9)."""
    rng = random.Random(1000 + seed)
    n = rng.randrange(200, 3000)
    path = tmp_path / "p.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b"])
        for _ in range(n):
            w.writerow([int(rng.paretovariate(1.1)) % 60, int(rng.expovariate(0.3)) % 25])
    rows = [{"a": r[0], "b": r[1]} for r in csv.reader(open(path)) if r[0] != "a"]
    idx = list(range(len(rows)))
    f = reference.class_counts(rows, idx, ["a", "b"])
    sizes = collections.Counter(reference.key(rows[i], ["a", "b"]) for i in idx).values()
    for pi in (0.01, 0.1, 0.5):
        big_n = int(math.floor(n / pi + 0.5))
        want = reference.population_uniqueness(list(sizes), big_n)
        out = subprocess.run([CLI, "audit", str(path), "--qi", "a,b", "--population", str(big_n), "--json"],
                             capture_output=True, text=True, check=True).stdout
        got = {m["id"]: m for m in json.loads(out)["metrics"]}
        z = got["population_uniqueness_zayatz"]["value"]
        assert close(z, want["population_uniqueness_zayatz"]), (pi, z, want["population_uniqueness_zayatz"])
        p = got["population_uniqueness_pitman"]["value"]
        if want["population_uniqueness_pitman"] is None:
            assert p is None
        else:
            assert abs(p - want["population_uniqueness_pitman"]) <= 1e-6 * abs(want["population_uniqueness_pitman"]), (pi, p, want["population_uniqueness_pitman"])
