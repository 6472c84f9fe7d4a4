"""SDMetrics 0.32.0's DCR and CAP measures (spec synthetic.md Sec 10-11, the calls of Sec 14) on
the tables O.csv, P.csv and H.csv of a folder; prints one JSON object. Runs in the virtual
environment holding sdmetrics (.venv-sdnist). Usage: python synthetic_dcr_oracle.py DIR"""
import json
import sys
import warnings

import pandas as pd

warnings.filterwarnings("ignore")
from sdmetrics.single_table import DCROverfittingProtection, DisclosureProtection  # noqa: E402
from sdmetrics.single_table.privacy.dcr_utils import calculate_dcr  # noqa: E402

METADATA = {"columns": {"G": {"sdtype": "categorical"}, "SEX": {"sdtype": "categorical"}, "RACE": {"sdtype": "categorical"},
                        "EDU": {"sdtype": "numerical"}, "AGE": {"sdtype": "numerical"}}}


def dcr_oracle(folder):
    """calculate_dcr P->O and P->H, their medians and 20-bin histograms, and
    DCROverfittingProtection.compute_breakdown."""
    O, P, H = (pd.read_csv(f"{folder}/{n}.csv") for n in "OPH")
    dT = calculate_dcr(P, O, METADATA)
    dH = calculate_dcr(P, H, METADATA)
    hist = lambda v: [int(sum(1 for x in v if min(int(x * 20), 19) == b)) for b in range(20)]  # noqa: E731
    ov = DCROverfittingProtection.compute_breakdown(O, P, H, METADATA, None)
    return {"median_training": float(dT.median()), "median_holdout": float(dH.median()), "histogram_training": hist(dT),
            "histogram_holdout": hist(dH), "score": float(ov["score"]),
            "closer_to_training": float(ov["synthetic_data_percentages"]["closer_to_training"])}


def cap_oracle(folder, known, sensitive, method, continuous, bins):
    """DisclosureProtection.compute_breakdown."""
    O, P = (pd.read_csv(f"{folder}/{n}.csv") for n in "OP")
    r = DisclosureProtection.compute_breakdown(O, P, known_column_names=known, sensitive_column_names=sensitive,
                                               computation_method=method, continuous_column_names=continuous or None,
                                               num_discrete_bins=bins)
    return {k: float(v) for k, v in r.items()}


if __name__ == "__main__":
    folder = sys.argv[1]
    out = {"dcr": dcr_oracle(folder)}
    for method in ["cap", "zero_cap", "generalized_cap"]:
        out[method] = cap_oracle(folder, ["SEX", "RACE", "G"], ["EDU", "AGE"], method, ["AGE"] if method != "cap" else [], 4)
    print(json.dumps(out))
