"""Runs Anonymeter 1.0.0 (PyPI) on CSV tables for tests/crosscheck/test_anonymeter.py, in the
virtual environment .venv-anonymeter (Anonymeter needs numpy < 1.27 and numba; scripts/lib.sh
`ensure_anonymeter` makes it). Reads one JSON job from standard input, writes the results as
JSON to standard output.

Job: {"original": path, "released": path, "control": path or null, "categorical": [columns],
      "runs": [{"attack": "singling_out" | "linkability" | "inference", "seed": int,
                "params": {...}}]}
Seeding (spec peer-measures.md Sec 5.2): `np.random.seed(seed)` (DataFrame.sample),
`singling_out_evaluator.rng = np.random.default_rng(seed)`, and the linkability baseline's
unseeded `np.random.default_rng()` given seeds drawn from the seeded global generator.
"""
import json
import sys

import numpy as np
import pandas as pd

from anonymeter.evaluators import InferenceEvaluator, LinkabilityEvaluator, SinglingOutEvaluator
from anonymeter.evaluators import singling_out_evaluator as soe

_default_rng = np.random.default_rng


def _seeded_default_rng(seed=None):
    if seed is None:
        seed = int(np.random.randint(0, 2**31 - 1))
    return _default_rng(seed)


def read(path, categorical):
    if path is None:
        return None
    return pd.read_csv(path, dtype={c: str for c in categorical})


def result(evaluator, **kw):
    r = evaluator.results(**kw)
    risk = evaluator.risk(**kw)
    return {
        "n_attacks": int(r.n_attacks),
        "k_att": float(r.n_success),
        "k_base": float(r.n_baseline),
        "k_ctl": None if r.n_control is None else float(r.n_control),
        "value": float(risk.value),
        "ci": [float(risk.ci[0]), float(risk.ci[1])],
    }


def run(o, p, c, attack, seed, params):
    np.random.seed(seed)
    soe.rng = _default_rng(seed)
    np.random.default_rng = _seeded_default_rng
    try:
        if attack == "singling_out":
            e = SinglingOutEvaluator(ori=o, syn=p, control=c, n_attacks=params["n_attacks"],
                                     n_cols=params.get("n_cols", 3), max_attempts=params.get("max_attempts", 10_000_000))
            e.evaluate(mode=params.get("mode", "multivariate"))
            return result(e)
        if attack == "linkability":
            aux = (params["aux"][0], params["aux"][1])
            e = LinkabilityEvaluator(ori=o, syn=p, control=c, aux_cols=aux, n_attacks=params["n_attacks"],
                                     n_neighbors=params.get("n_neighbors", 1))
            e.evaluate(n_jobs=1)
            return result(e, n_neighbors=params.get("n_neighbors", 1))
        if attack == "inference":
            e = InferenceEvaluator(ori=o, syn=p, control=c, aux_cols=params["aux"], secret=params["secret"],
                                   regression=params.get("regression"), n_attacks=params["n_attacks"])
            e.evaluate(n_jobs=1)
            return result(e)
        raise ValueError(attack)
    finally:
        np.random.default_rng = _default_rng


def main():
    job = json.load(sys.stdin)
    cat = job.get("categorical", [])
    o, p, c = (read(job.get(k), cat) for k in ("original", "released", "control"))
    out = [run(o, p, c, r["attack"], r["seed"], r.get("params", {})) for r in job["runs"]]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
