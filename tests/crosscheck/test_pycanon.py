"""Cross-check: the CLI's attribute-disclosure metrics (and k) against pyCANON 1.3.6 on seeded
random tables and on the golden tables G2 and G6. Run: python3 -m pytest tests/crosscheck
(scripts/lib.sh installs pycanon, numpy, scipy and pytest).

pyCANON facts this file relies on (read from pycanon/anonymity/*.py, version 1.3.6):
- Classes: `data.groupby(qi).groups`. With NaN in a QI this drops rows (one QI) or keeps NaN
  keys (several QIs), so the tables here have no blank QI cell (spec README Sec 7). The SA
  cells are not blank either (pyCANON's np.unique cannot sort NaN among strings).
- `gen=True` (default): every SA is evaluated on the same QI classes (spec attribute-risk.md
  Sec 8 `per_attribute`); the table value is the min over SAs (l_diversity,
  entropy_l_diversity) or the max over SAs (t_closeness, basic and enhanced beta,
  delta_disclosure, alpha). Called with one SA it is that SA's value, so each
  `scope.sensitive = SA` result is compared with pyCANON on `[SA]`, and each
  `scope.sensitive = "*"` result with pyCANON on all SAs. `gen=False` is the spec's optional
  `extend_qi` mode (`--sa-mode extend-qi`): each SA on the QIs plus the other SAs, compared in
  `test_extend_qi_matches_pycanon_gen_false`.
- `k_anonymity`: min class size.
- `l_diversity`: min over classes of the number of distinct SA values.
- `entropy_l_diversity`: `int(min_C e ** H_C)`, H in nats: truncation without tolerance. The
  spec's `l_entropy_floor` is `floor(l_entropy + 1e-9)` (Sec 2); the two differ only when the
  minimum exp(H) is an integer N up to 1e-9 and pyCANON's float lands just below N (golden
  G7.5; e.g. a class {a, b} gives pyCANON 1). Only that case is not compared, and G7.5 itself
  is asserted as the documented difference.
- `t_closeness`: per SA, pandas numeric dtype -> ordered distance over the sorted distinct
  values (`np.unique`) divided by m-1 (ZeroDivisionError at m = 1, so every numeric SA here has
  two values or more); string/object dtype -> equal distance. The numeric SA cast to strings
  therefore gives pyCANON's equal distance for it, compared with `t_closeness_equal`.
- `basic_beta_likeness`: max over classes and all values of (P_C(v) - Q(v))/Q(v) (spec Sec 4;
  the max is >= 0 because both distributions sum to 1, so it equals the spec's max over pairs
  with P_C > Q).
- `enhanced_beta_likeness`: max_v min(beta_basic, -ln Q(v)) per SA, which is the spec's
  `beta_likeness_enhanced_pycanon`, not the spec's `beta_likeness_enhanced` (Sec 4, ARX
  criterion; golden G2/G6). They coincide whenever the spec's value is not null (every pair
  then has ratio <= -ln Q(v) <= -ln min Q, so pyCANON's min(...) is beta_basic), and pyCANON's
  value below beta_basic implies a pair above -ln Q(v), so the spec's value must be null.
  Only these two implications are checked.
- `delta_disclosure`: max over classes and values present in the class of |ln(P_C/Q)|,
  natural log (spec Sec 5).
- `alpha_k_anonymity`: (max over classes, SAs and values of P_C(v), k_anonymity).
- `recursive_c_l_diversity` uses a non-standard rule (spec Sec 2): not compared.
"""
import csv
import json
import math
import os
import random
import subprocess

import pandas as pd
import pytest

import pycanon
from pycanon import anonymity as pc
from pycanon import metrics as pcu

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("PSEUDOLENS_CLI", os.path.join(ROOT, "target", "release", "pseudolens"))

# QI alphabets: no blank, no all-mask cell, no default missing token (NA, NULL, ...).
QI_POOL = {
    "age": ["20-29", "30-39", "40-49", ">=50"],
    "sex": ["F", "M"],
    "zip": ["476**", "4790*", "47677", "130**"],
    "region": ["1", "2", "3"],
}
DISEASES = ["flu", "cold", "asthma", "gastritis", "bronchitis", "ulcer", "pneumonia", "angina"]


def close(got, want):
    """1e-9 relative. The 1e-12 absolute term only absorbs rounding noise around 0: where
    every class has the table's distribution pyCANON subtracts equal floats and gets exactly
    0, while the spec's efficient equal-distance form and the CLI's closed-form ordered
    distance leave a few ulps (about m * 1e-16). The sign is checked separately."""
    return abs(got - want) <= 1e-9 * abs(want) + 1e-12


NON_NEGATIVE = {"t_closeness", "t_closeness_equal", "t_closeness_ordered", "beta_likeness_basic",
                "beta_likeness_enhanced", "delta_disclosure", "alpha_k_anonymity"}


class NegativeValue(AssertionError):
    """A distance, beta, delta or alpha below 0: pyCANON's are >= 0 by construction."""


def random_table(seed, n, qis, n_cat, num_range, corr=0.5, single_class=False, const_str=False):
    """Rows over `qis` plus a string SA `diag` and an integer SA `salary`. `corr` is the share
    of rows whose SA values are shifted by the index of their first QI value, so that class
    distributions differ from the table's; weights are skewed so rare values occur."""
    rng = random.Random(seed)
    cats = DISEASES[:n_cat] if n_cat <= len(DISEASES) else [f"dx{i:03d}" for i in range(n_cat)]
    nums = list(range(num_range[0], num_range[1] + 1))
    qi_w = {q: [rng.random() ** 2 + 0.05 for _ in QI_POOL[q]] for q in qis}
    cat_w = [rng.random() ** 3 + 0.01 for _ in cats]
    num_w = [rng.random() ** 2 + 0.02 for _ in nums]
    rows = []
    for _ in range(n):
        row = {q: QI_POOL[q][0] if single_class else rng.choices(QI_POOL[q], qi_w[q])[0] for q in qis}
        shift = QI_POOL[qis[0]].index(row[qis[0]]) if rng.random() < corr else 0
        ci = rng.choices(range(len(cats)), cat_w)[0]
        row["diag"] = cats[0] if const_str else cats[(ci + shift) % len(cats)]
        row["salary"] = nums[(rng.choices(range(len(nums)), num_w)[0] + shift) % len(nums)]
        rows.append(row)
    if len({r["salary"] for r in rows}) < 2:  # pyCANON's ordered distance needs m >= 2
        rows[-1]["salary"] = nums[-1] if rows[0]["salary"] == nums[0] else nums[0]
    return qis, ["diag"], ["salary"], rows


def csv_table(text):
    lines = text.strip().splitlines()
    header = lines[0].split(",")
    return [dict(zip(header, line.split(","))) for line in lines[1:]]


G2 = csv_table("""
zip,age,disease,salary
476**,20-29,gastric ulcer,3
476**,20-29,gastritis,4
476**,20-29,stomach cancer,5
4790*,>=40,gastritis,6
4790*,>=40,flu,11
4790*,>=40,bronchitis,8
476**,30-39,bronchitis,7
476**,30-39,pneumonia,9
476**,30-39,stomach cancer,10
4790*,30-39,flu,5
4790*,30-39,flu,5
4790*,30-39,flu,6
4790*,30-39,gastritis,12
""")
for _r in G2:
    _r["salary"] = int(_r["salary"])

G6 = csv_table("""
age_band,sex,diagnosis
30-39,F,flu
30-39,F,cold
30-39,F,flu
30-39,M,flu
30-39,M,asthma
30-39,M,cold
40-49,F,flu
40-49,F,cold
40-49,F,cold
40-49,F,flu
""")

# The (pyC) values of golden.md: a check that the installed pyCANON is the one the spec used.
G2_PYC = {
    "disease": {"l": 2, "l_ent": 1, "t": 8 / 13, "beta": 10 / 3, "enh": math.log(13), "delta": math.log(13 / 3),
                "alpha": 0.75},
    "salary": {"l": 3, "l_ent": 2, "t": 1 / 3, "beta": 10 / 3, "enh": math.log(13), "delta": math.log(13 / 3),
               "alpha": 0.5},
}
G6_PYC = {
    "diagnosis": {"l": 2, "l_ent": 1, "t": 7 / 30, "beta": 7 / 3, "enh": math.log(10), "delta": math.log(10 / 3),
                  "alpha": 2 / 3},
}

# (id, table builder, golden pyCANON values or None[, marks])
CASES = [
    ("tiny_30", lambda: random_table(1, 30, ["sex", "region"], 4, (0, 5)), None),
    ("small_60_3qi", lambda: random_table(2, 60, ["age", "sex", "zip"], 6, (-3, 12)), None),
    ("small_80_4qi", lambda: random_table(3, 80, ["age", "sex", "zip", "region"], 5, (1, 12)), None),
    ("mid_300_2qi_weak", lambda: random_table(4, 300, ["sex", "region"], 8, (8, 15), corr=0.05), None),
    ("mid_500_3qi", lambda: random_table(5, 500, ["age", "sex", "region"], 3, (-10, 10)), None),
    ("mid_400_4qi", lambda: random_table(6, 400, ["age", "sex", "zip", "region"], 6, (0, 9), corr=0.3), None),
    ("large_2000_2qi_weak", lambda: random_table(7, 2000, ["sex", "region"], 6, (95, 105), corr=0.1), None),
    ("large_2000_2qi_none", lambda: random_table(14, 2000, ["sex", "age"], 4, (-2, 7), corr=0.0), None),
    ("large_2000_3qi", lambda: random_table(8, 2000, ["age", "zip", "sex"], 8, (-5, 20)), None),
    ("more_categories_than_rows", lambda: random_table(9, 30, ["sex", "region"], 80, (0, 100)), None),
    ("more_categories_than_rows_3qi", lambda: random_table(10, 45, ["age", "sex", "region"], 120, (-50, 50)), None),
    ("single_class", lambda: random_table(11, 40, ["sex", "region"], 5, (0, 9), single_class=True), None),
    ("single_class_minimal", lambda: (["q"], [], ["s"], [{"q": "x", "s": v} for v in (0, 0, 0, 1, 2)]), None),
    ("constant_string_sa", lambda: random_table(12, 120, ["age", "sex", "region"], 5, (0, 9), const_str=True), None),
    ("binary_sas", lambda: random_table(13, 300, ["sex", "region"], 2, (0, 1), corr=0.2), None),
    ("golden_g2", lambda: (["zip", "age"], ["disease"], ["salary"], G2), G2_PYC),
    ("golden_g6", lambda: (["age_band", "sex"], ["diagnosis"], [], G6), G6_PYC),
]


def run_cli(path, qis, sas, *extra):
    cmd = [CLI, "audit", str(path), "--qi", ",".join(qis), "--sensitive", ",".join(sas), *extra, "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return {(m["id"], m["scope"]["sensitive"]): m for m in json.loads(out)["metrics"]
            if m["scope"].get("attribute") is None}


def write_csv(path, qis, sas, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(qis + sas)
        for r in rows:
            w.writerow([r[c] for c in qis + sas])


def frame(qis, str_sas, num_sas, rows):
    df = pd.DataFrame(rows, columns=qis + str_sas + num_sas)
    for c in qis + str_sas:
        df[c] = df[c].astype(str).astype(object)
    for c in num_sas:
        df[c] = df[c].astype("int64")
        assert pd.api.types.is_numeric_dtype(df[c])
    for c in str_sas:
        assert pd.api.types.is_string_dtype(df[c]) and not pd.api.types.is_numeric_dtype(df[c])
    return df


def value(got, mid, sa=None):
    m = got[(mid, sa)]
    assert m["status"] == "ok", (mid, sa, m["status"], m["reason"])
    return m["value"]


def g7_5_case(real, floor, pyc):
    """The documented difference (golden G7.5): min exp(H) is the integer `floor` up to 1e-9,
    and pyCANON's int() truncates the float just below it."""
    return pyc == floor - 1 and abs(real - floor) <= 1e-9


@pytest.mark.parametrize("builder,golden", [pytest.param(*c[1:3], id=c[0], marks=c[3:]) for c in CASES])
def test_attribute_metrics_match_pycanon(builder, golden, tmp_path):
    qis, str_sas, num_sas, rows = builder()
    sas = str_sas + num_sas
    path = tmp_path / "t.csv"
    write_csv(path, qis, sas, rows)
    got = run_cli(path, qis, sas)
    df = frame(qis, str_sas, num_sas, rows)

    k = pc.k_anonymity(df, qis)
    assert value(got, "k_anonymity") == k

    scopes = [(sa, [sa]) for sa in sas] + [("*", sas)]
    per_sa = {}
    for sa, sa_list in scopes:
        pyc = {
            "l": pc.l_diversity(df, qis, sa_list),
            "l_ent": pc.entropy_l_diversity(df, qis, sa_list),
            "t": pc.t_closeness(df, qis, sa_list),
            "beta": pc.basic_beta_likeness(df, qis, sa_list),
            "enh": pc.enhanced_beta_likeness(df, qis, sa_list),
            "delta": pc.delta_disclosure(df, qis, sa_list),
        }
        pyc["alpha"], pyc_k = pc.alpha_k_anonymity(df, qis, sa_list)
        per_sa[sa] = pyc
        assert pyc_k == k
        if golden and sa in golden:
            for key, want in golden[sa].items():
                assert abs(pyc[key] - want) <= 1e-9 * max(1.0, abs(want)), ("golden (pyC)", sa, key, pyc[key], want)

        assert value(got, "l_distinct", sa) == pyc["l"], (sa, value(got, "l_distinct", sa), pyc["l"])

        real, floor = value(got, "l_entropy", sa), value(got, "l_entropy_floor", sa)
        assert floor == math.floor(real + 1e-9), (sa, real, floor)
        if not g7_5_case(real, floor, pyc["l_ent"]):
            assert floor == pyc["l_ent"], (sa, real, floor, pyc["l_ent"])

        for mid, key in [("t_closeness", "t"), ("beta_likeness_basic", "beta"), ("delta_disclosure", "delta")]:
            assert close(value(got, mid, sa), pyc[key]), (mid, sa, value(got, mid, sa), pyc[key])

        ak = value(got, "alpha_k_anonymity", sa)
        assert close(ak["alpha"], pyc["alpha"]), (sa, ak, pyc["alpha"])
        if sa != "*" or "k" in ak:  # the "*" aggregate carries alpha only
            assert ak["k"] == pyc_k, (sa, ak, pyc_k)

        enh = got[("beta_likeness_enhanced", sa)]
        if enh["value"] is not None:
            assert enh["status"] == "ok", (sa, enh)
            assert close(enh["value"], pyc["enh"]), (sa, enh["value"], pyc["enh"])
        else:
            assert enh["reason"] == "unsatisfiable", (sa, enh)
        if pyc["enh"] < pyc["beta"] and not close(pyc["enh"], pyc["beta"]):
            assert enh["value"] is None, (sa, enh["value"], pyc["enh"], pyc["beta"])

    # t-closeness by distance: equal for string SAs, ordered for numeric SAs, and the equal
    # distance of a numeric SA against pyCANON on the same column as strings.
    for sa in str_sas:
        assert got[("t_closeness", sa)]["details"]["distance"] == "equal"
        t = per_sa[sa]["t"]
        assert close(value(got, "t_closeness_equal", sa), t), (sa, value(got, "t_closeness_equal", sa), t)
    for sa in num_sas:
        assert got[("t_closeness", sa)]["details"]["distance"] == "ordered"
        t = per_sa[sa]["t"]
        assert close(value(got, "t_closeness_ordered", sa), t), (sa, value(got, "t_closeness_ordered", sa), t)
        as_text = df.assign(**{sa: df[sa].astype(str).astype(object)})
        t = pc.t_closeness(as_text, qis, [sa])
        assert close(value(got, "t_closeness_equal", sa), t), (sa, value(got, "t_closeness_equal", sa), t)

    # Last, so that every comparison above runs first: the range of the CLI's values.
    negative = []
    for (mid, sa), m in got.items():
        if sa is not None and mid in NON_NEGATIVE and m["value"] is not None:
            v = m["value"]["alpha"] if mid == "alpha_k_anonymity" else m["value"]
            if v < 0:
                negative.append((mid, sa, v))
    if negative:
        raise NegativeValue(negative)


def test_pycanon_version():
    """The conventions above and golden.md's (pyC) marks are those of 1.3.6 (scripts/lib.sh)."""
    assert pycanon.__version__ == "1.3.6"


def test_entropy_floor_documented_difference(tmp_path):
    """Golden G7.5: one class holding a, b, c once each. exp(H) = 3 up to rounding; the spec's
    tolerant floor gives 3, pyCANON's int() gives 2 (attribute-risk.md Sec 2)."""
    rows = [{"q": "x", "s": v} for v in "abc"]
    path = tmp_path / "t.csv"
    write_csv(path, ["q"], ["s"], rows)
    got = run_cli(path, ["q"], ["s"])
    assert abs(value(got, "l_entropy", "s") - 3) <= 1e-9
    assert value(got, "l_entropy_floor", "s") == 3
    assert pc.entropy_l_diversity(frame(["q"], ["s"], [], rows), ["q"], ["s"]) == 2


def coarsened(qis, rows):
    """The rows with their first QI recoded to coarser labels (two sorted values a label), so
    that classes merge; every row is kept and no cell is blank or masked."""
    q = qis[0]
    values = sorted({str(r[q]) for r in rows})
    label = {v: f"g{i // 2}" for i, v in enumerate(values)}
    return [{**r, q: label[str(r[q])]} for r in rows]


@pytest.mark.parametrize("builder", [pytest.param(c[1], id=c[0], marks=c[3:]) for c in CASES])
def test_discernibility_matches_pycanon(builder, tmp_path):
    """utility.md Sec 9: pyCANON's discernability_metric equals `discernibility.result`. The
    release keeps every row of the original (pyCANON penalises deleted rows, the spec rows of
    P outside the risk scope: docs/decisions/utility/arx-quality-models.md), once as it is and once coarsened."""
    qis, str_sas, num_sas, rows = builder()
    sas = str_sas + num_sas
    original = tmp_path / "o.csv"
    write_csv(original, qis, sas, rows)
    for name, released_rows in [("same", rows), ("coarse", coarsened(qis, rows))]:
        released = tmp_path / f"{name}.csv"
        write_csv(released, qis, sas, released_rows)
        cmd = [CLI, "audit", str(released), "--qi", ",".join(qis), "--original", str(original), "--json"]
        out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        got = {m["id"]: m for m in out["metrics"] if m["family"] == "utility_arx" and m["scope"].get("attribute") is None}
        d = got["discernibility"]
        assert d["status"] == "ok", d
        raw = frame(qis, str_sas, num_sas, rows)
        anon = frame(qis, str_sas, num_sas, released_rows)
        want = pcu.discernability_metric(raw, anon, qis)
        assert d["value"]["result"] == want, (name, d["value"], want)
        assert d["value"]["min"] == pcu.discernability_metric(raw, raw, qis), (name, d["value"])
        a = got["aecs"]["value"]
        assert close(a["result"] * d["details"]["classes"], len(released_rows)), (name, a, d["details"])


@pytest.mark.parametrize("builder", [pytest.param(c[1], id=c[0], marks=c[3:]) for c in CASES])
def test_extend_qi_matches_pycanon_gen_false(builder, tmp_path):
    """`--sa-mode extend-qi` against pyCANON's `gen=False`: each SA on the QIs plus the other
    SAs (per SA: pyCANON on `qis + others` and `[sa]`), and the "*" aggregate against the
    `gen=False` value over all SAs (min of l, max of t, beta and delta)."""
    qis, str_sas, num_sas, rows = builder()
    sas = str_sas + num_sas
    if len(sas) < 2:
        pytest.skip("one sensitive column: extend_qi is per attribute")
    path = tmp_path / "t.csv"
    write_csv(path, qis, sas, rows)
    got = run_cli(path, qis, sas, "--sa-mode", "extend-qi")
    df = frame(qis, str_sas, num_sas, rows)
    for sa in sas:
        extended = qis + [o for o in sas if o != sa]
        assert value(got, "l_distinct", sa) == pc.l_diversity(df, extended, [sa]), sa
        for mid, fn in [("t_closeness", pc.t_closeness), ("beta_likeness_basic", pc.basic_beta_likeness), ("delta_disclosure", pc.delta_disclosure)]:
            want = fn(df, extended, [sa])
            assert close(value(got, mid, sa), want), (mid, sa, value(got, mid, sa), want)
    for mid, fn in [("l_distinct", pc.l_diversity), ("t_closeness", pc.t_closeness), ("beta_likeness_basic", pc.basic_beta_likeness), ("delta_disclosure", pc.delta_disclosure)]:
        want = fn(df, qis, sas, gen=False)
        assert close(value(got, mid, "*"), want), (mid, value(got, mid, "*"), want)
