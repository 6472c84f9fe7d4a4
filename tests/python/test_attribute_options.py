"""The attribute-disclosure options of issue 15 as keywords (the settings file's keys):
t_distance, a sensitive column's hierarchy and ordinal order under ``attributes``, sa_mode;
the same report as the CLI's flags."""

from pathlib import Path

import pseudolens
from conftest import ADULT, cli

QI = ["age", "sex", "race"]


def hierarchy_rows(name):
    path = Path(ADULT).parent / f"adult_hierarchy_{name}.csv"
    return [[c.strip() for c in line.split(";")] for line in path.read_text().splitlines() if line.strip()]


def test_hierarchical_t_and_extend_qi_by_keyword(adult):
    rows = hierarchy_rows("occupation")
    mine = pseudolens.audit(
        adult, qi=QI, sensitive=["occupation", "salary-class"], t_distance="hierarchical", sa_mode="extend_qi",
        attributes={"occupation": {"hierarchy": rows}},
    )
    flags = cli(
        "audit", adult, "--qi", ",".join(QI), "--sensitive", "occupation,salary-class", "--t-distance", "hierarchical",
        "--sa-mode", "extend-qi", "--hierarchy", f"occupation={Path(ADULT).parent / 'adult_hierarchy_occupation.csv'}",
    )
    for r in (mine, flags):
        r.pop("read")
    assert mine == flags
    t = next(m for m in mine["metrics"] if m["id"] == "t_closeness" and m["scope"]["sensitive"] == "occupation")
    assert t["details"]["distance"] == "hierarchical"
    assert t["scope"]["quasi_identifiers"] == ["sex", "age", "race", "salary-class"]


def test_an_ordinal_sensitive_column_by_keyword(adult):
    order = ["<=50K", ">50K"]
    mine = pseudolens.audit(adult, qi=QI, sensitive=["salary-class"], attributes={"salary-class": {"kind": "ordinal", "order": order}})
    m = next(m for m in mine["metrics"] if m["id"] == "t_closeness_ordered" and m["scope"]["sensitive"] == "salary-class")
    assert m["status"] == "ok" and m["details"]["order"] == "declared"
