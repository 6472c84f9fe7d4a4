"""Shared by the synthetic measures' cross-checks (tests/crosscheck/test_synthetic*.py, spec
synthetic.md Sec 14-15): seeded tables, the CLI's synthetic report, and the oracles sdnist 2.4
and sdmetrics 0.32.0 run in the virtual environment .venv-sdnist (scripts/lib.sh
`ensure_sdnist`: they pin pandas 2.0.0 and scikit-learn 1.2.2, which the other cross-checks'
packages do not allow) through tests/crosscheck/synthetic_oracle.py.
"""
import csv
import json
import os
import random
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("PSEUDOLENS_CLI", os.path.join(ROOT, "target", "release", "pseudolens"))
VENV_PYTHON = os.environ.get("SDNIST_PYTHON", os.path.join(ROOT, ".venv-sdnist", "bin", "python"))
ORACLE = os.path.join(ROOT, "tests", "crosscheck", "synthetic_oracle.py")

# The worked example's columns (Sec 13): G, SEX and RACE categorical, EDU and AGE numeric.
COLUMNS = ["G", "SEX", "RACE", "EDU", "AGE"]
KINDS = {"G": "categorical", "SEX": "categorical", "RACE": "categorical", "EDU": "numeric", "AGE": "numeric"}


def table(seed, rows, shift=0):
    """A seeded table of COLUMNS: a group letter, small integer codes and an age; `shift`
    moves the release's codes and ages so that it differs from the original."""
    rng = random.Random(seed)
    out = []
    for _ in range(rows):
        edu = rng.randint(1, 4)
        sex = rng.randint(1, 2)
        race = min(3, rng.randint(1, 3) + (1 if shift and rng.random() < 0.3 else 0))
        age = min(90, 18 + 8 * edu + rng.randint(0, 30) + shift * rng.randint(0, 5))
        out.append({"G": rng.choice("AB"), "SEX": sex, "RACE": race, "EDU": edu, "AGE": age})
    return out


def write(tmp_path, name, rows, columns=COLUMNS):
    """Writes `rows` as a CSV file; returns its path."""
    path = tmp_path / name
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    return str(path)


def audit(released, original, *flags, holdout=None, qi=("SEX", "RACE"), kinds=None):
    """The CLI's synthetic measures of `released` against `original`, by metric id."""
    kinds = KINDS if kinds is None else kinds
    cmd = [CLI, "audit", released, "--original", original, "--synthetic", "--json", "--qi", ",".join(qi)]
    for col, kind in kinds.items():
        cmd += ["--kind", f"{col}={kind}"]
    if holdout:
        cmd += ["--holdout", holdout]
    cmd += list(flags)
    report = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    return {m["id"]: m for m in report["metrics"] if m["family"] == "synthetic"}


def oracle(jobs):
    """Runs the oracle (synthetic_oracle.py) once on `jobs`, each {"tables": {"original": path,
    "released": path, "holdout": path}, "calls": [{"measure": name, ...}]}; returns per job the
    results of its calls, in order. One process for every job: importing sdnist takes seconds."""
    assert os.path.exists(VENV_PYTHON), "no .venv-sdnist: run bash scripts/test.sh (scripts/lib.sh ensure_sdnist)"
    done = subprocess.run([VENV_PYTHON, ORACLE], input=json.dumps(jobs), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
