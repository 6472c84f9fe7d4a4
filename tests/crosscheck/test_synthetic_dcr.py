"""Cross-check: the CLI's DCR and CAP measures (spec synthetic.md Sec 10-11) against sdmetrics 0.32.0
(the calls of Sec 14, run by synthetic_dcr_oracle.py in the virtual environment .venv-sdnist, else
/tmp/venv-sdnist) on small seeded tables with blanks, copies of O's rows in P and a holdout, with
Sec 14's metadata (G, SEX, RACE categorical; EDU, AGE numerical). Tolerances of Sec 15: medians,
scores and CAP within 1e-9, histograms exact. The baseline score is stochastic (Sec 10.2) and is
checked in the core's tests against calculate_dcr fed the tool's random table."""
import json
import os
import random
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("PSEUDOLENS_CLI", os.path.join(ROOT, "target", "release", "pseudolens"))
ORACLE = os.path.join(ROOT, "tests", "crosscheck", "synthetic_dcr_oracle.py")
VENVS = [os.path.join(ROOT, ".venv-sdnist", "bin", "python"), "/tmp/venv-sdnist/bin/python"]
VENV_PYTHON = next((v for v in VENVS if os.path.exists(v)), None)
KINDS = {"G": "categorical", "SEX": "categorical", "RACE": "categorical", "EDU": "numeric", "AGE": "numeric"}

pytestmark = pytest.mark.skipif(VENV_PYTHON is None or not os.path.exists(CLI), reason="needs the sdmetrics venv and the release CLI")


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
        f.write("G,SEX,RACE,EDU,AGE\n" + "".join(",".join(r) + "\n" for r in rows))


def audit(folder, method, continuous):
    args = [CLI, "audit", f"{folder}/P.csv", "--original", f"{folder}/O.csv", "--holdout", f"{folder}/H.csv", "--synthetic",
            "--qi", "SEX,RACE,G", "--cap-sensitive", "EDU,AGE", "--cap-method", method.replace("_", "-"), "--json"]
    if continuous:
        args += ["--cap-continuous", "AGE", "--cap-bins", "4"]
    for c, k in KINDS.items():
        args += ["--kind", f"{c}={k}"]
    out = subprocess.run(args, capture_output=True, text=True)
    assert out.stdout, out.stderr
    return {m["id"]: m for m in json.loads(out.stdout)["metrics"] if m["family"] == "synthetic"}


@pytest.mark.parametrize("seed,n", [(0, 40), (1, 150), (2, 300)])
def test_dcr_and_cap_match_sdmetrics(tmp_path, seed, n):
    rng = random.Random(seed)
    o, p, h = table(rng, n, 0), table(rng, n, 2), table(rng, n // 2 + 3, 0)
    p[: n // 5] = o[: n // 5]
    for name, rows in [("O", o), ("P", p), ("H", h)]:
        write(tmp_path / f"{name}.csv", rows)
    oracle = json.loads(subprocess.run([VENV_PYTHON, ORACLE, str(tmp_path)], capture_output=True, text=True, check=True).stdout)
    for method in ["cap", "zero_cap", "generalized_cap"]:
        ms = audit(tmp_path, method, method != "cap")
        d, want = ms["disclosure_protection"], oracle[method]
        assert abs(d["value"] - want["score"]) <= 1e-9, (method, d["value"], want)
        assert abs(d["details"]["cap_protection"] - want["cap_protection"]) <= 1e-9
        assert abs(d["details"]["baseline_protection"] - want["baseline_protection"]) <= 1e-9
    o_m, want = ms["dcr_overfitting_protection"], oracle["dcr"]
    assert abs(o_m["value"] - want["score"]) <= 1e-9
    assert abs(o_m["details"]["closer_to_training"] - want["closer_to_training"]) <= 1e-9
    assert abs(o_m["details"]["median_dcr_training"] - want["median_training"]) <= 1e-9
    assert abs(o_m["details"]["median_dcr_holdout"] - want["median_holdout"]) <= 1e-9
    assert abs(ms["dcr_baseline_protection"]["details"]["median_dcr_released"] - want["median_training"]) <= 1e-9
    assert o_m["details"]["histogram_training"] == want["histogram_training"]
    assert o_m["details"]["histogram_holdout"] == want["histogram_holdout"]
