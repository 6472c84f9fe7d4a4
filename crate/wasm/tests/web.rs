//! The binding in a real browser worker (wasm-bindgen-test in headless Chromium).
#![cfg(target_arch = "wasm32")]

use js_sys::Reflect;
use pseudolens_wasm::{Audit, KeptTable, file_format, read_cells, sample_csv, warm_up};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

fn config(qi: &[&str]) -> JsValue {
    let qi: Vec<String> = qi.iter().map(|s| s.to_string()).collect();
    let obj = js_sys::Object::new();
    let arr = js_sys::Array::new();
    for q in qi {
        arr.push(&JsValue::from_str(&q));
    }
    Reflect::set(&obj, &"quasi_identifiers".into(), &arr).unwrap();
    obj.into()
}

fn metric(report: &JsValue, id: &str) -> JsValue {
    let metrics = js_sys::Array::from(&Reflect::get(report, &"metrics".into()).unwrap());
    let m = metrics.iter().find(|m| Reflect::get(m, &"id".into()).unwrap() == id).expect(id);
    Reflect::get(&m, &"value".into()).unwrap()
}

#[wasm_bindgen_test]
fn warms_up_without_error() {
    // The audit worker calls it before it reports ready: an error would leave the page without
    // an engine.
    warm_up().unwrap();
}

#[wasm_bindgen_test]
fn audits_a_small_table_pushed_in_pieces() {
    let mut audit = Audit::new(config(&["age", "sex"])).unwrap();
    let csv = b"age,sex,diag\n30-39,F,flu\n30-39,F,cold\n40-49,M,flu\n";
    for piece in csv.chunks(5) {
        audit.push(piece).unwrap();
    }
    let report = audit.finish().unwrap().report();
    assert_eq!(metric(&report, "k_anonymity").as_f64(), Some(1.0));
    assert_eq!(metric(&report, "sample_uniques").as_f64(), Some(1.0));
    assert_eq!(metric(&report, "n_classes").as_f64(), Some(2.0));
}

#[wasm_bindgen_test]
fn errors_are_plain_objects_naming_the_line() {
    let mut audit = Audit::new(config(&["a"])).unwrap();
    audit.push(b"a,b\n1,2\n3\n").unwrap();
    let Err(err) = audit.finish() else { panic!("a ragged row is an error") };
    assert_eq!(Reflect::get(&err, &"code".into()).unwrap(), "ragged_row");
    assert_eq!(Reflect::get(&err, &"line".into()).unwrap().as_f64(), Some(3.0));
}

#[wasm_bindgen_test]
fn unknown_settings_are_refused() {
    let obj = js_sys::Object::new();
    Reflect::set(&obj, &"quasi_identifierz".into(), &js_sys::Array::new()).unwrap();
    let err = Audit::new(obj.into()).err().unwrap();
    assert_eq!(Reflect::get(&err, &"code".into()).unwrap(), "invalid_config");
}

#[wasm_bindgen_test]
fn the_sample_is_bundled() {
    let bytes = sample_csv();
    let mut audit = Audit::new(config(&["age", "sex", "postcode", "admission_month"])).unwrap();
    audit.push(&bytes).unwrap();
    let report = audit.finish().unwrap().report();
    assert_eq!(metric(&report, "n_records_total").as_f64(), Some(5000.0));
}

#[wasm_bindgen_test]
fn a_population_table_feeds_the_journalist_model() {
    let mut reference = pseudolens_wasm::Reference::new(config(&["q"]), None).unwrap();
    reference.push(b"q\nA\nA\nA\nA\nB\nB\n").unwrap();
    let population = reference.finish().unwrap();
    let mut audit = Audit::new(config(&["q"])).unwrap();
    audit.push(b"q\nA\nB\nB\n").unwrap();
    audit.set_population(&population).unwrap();
    let report = audit.finish().unwrap().report();
    assert_eq!(metric(&report, "journalist_highest_risk").as_f64(), Some(0.5));
}

#[wasm_bindgen_test]
fn the_riskiest_rows_can_be_copied_out() {
    let classes = js_sys::Array::of1(&js_sys::Array::of1(&JsValue::from_str("B")));
    let mut x = pseudolens_wasm::Extract::new(config(&["q"]), classes.into()).unwrap();
    x.push(b"q,n\nA,1\nB,2\n").unwrap();
    let out = x.finish().unwrap();
    assert_eq!(Reflect::get(&out, &"csv".into()).unwrap(), "line,q,n\n3,B,2\n");
}

#[wasm_bindgen_test]
fn an_original_table_adds_the_permutation_metrics() {
    let mut original = pseudolens_wasm::Original::new(js_sys::Object::new().into(), None).unwrap();
    original.push(b"x,y\n1,10\n2,20\n3,30\n4,50\n5,40\n").unwrap();
    let table = original.finish().unwrap();
    let mut audit = Audit::new(js_sys::Object::new().into()).unwrap();
    audit.set_original(&table).unwrap();
    audit.push(b"x,y\n1,10\n2,20\n3,30\n4,50\n5,40\n").unwrap();
    let report = audit.finish().unwrap().report();
    assert_eq!(metric(&report, "perm_um").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
fn the_choice_among_candidates_follows_the_rut_paper() {
    // [RUT] Table 10: (R, U) of P1-P3; golden.md G7.1: P3 at alpha 0.5, P2 with tau_U = 0.8.
    let candidate = |name: &str, r: f64, u: f64| {
        let o = js_sys::Object::new();
        Reflect::set(&o, &"name".into(), &name.into()).unwrap();
        Reflect::set(&o, &"risk_r".into(), &r.into()).unwrap();
        Reflect::set(&o, &"utility_u".into(), &u.into()).unwrap();
        o
    };
    let list = js_sys::Array::new();
    for (n, r, u) in [("P1", 0.6260, 0.9972), ("P2", 0.2156, 0.8580), ("P3", 0.0739, 0.7579)] {
        list.push(&candidate(n, r, u));
    }
    let params = js_sys::Object::new();
    let out = pseudolens_wasm::choose(vec!["age".into()], list.clone().into(), params.clone().into()).unwrap();
    let value = |out: &JsValue, i: u32| Reflect::get(&js_sys::Array::from(out).get(i), &"value".into()).unwrap();
    assert_eq!(value(&out, 1), JsValue::from_str("P3"));
    Reflect::set(&params, &"tau_u".into(), &0.8.into()).unwrap();
    let out = pseudolens_wasm::choose(vec!["age".into()], list.into(), params.into()).unwrap();
    assert_eq!(value(&out, 1), JsValue::from_str("P2"));
}

#[wasm_bindgen_test]
fn a_file_read_in_parts_is_kept_and_audited_without_reading_it_again() {
    use pseudolens_wasm::{Hasher, KeptTable, TableReader, probe};
    let csv = b"age,sex,diag\n30-39,F,\"flu\nand cold\"\n30-39,F,cold\n40-49,M,flu\n40-49,M,flu\n";
    let profile_only = config(&[]);
    let p = probe(profile_only.clone(), csv, true).unwrap();
    assert!(!p.is_null());
    // Two parts cut inside the quoted field: the second guesses wrong and is read again.
    // A part's table, or the error of a part that guessed its start wrong.
    let read = |start: usize, end: f64, exact: bool| -> Result<KeptTable, JsValue> {
        let mut r = TableReader::new(profile_only.clone(), p.clone(), start as f64, end, exact)?;
        for piece in csv[start..].chunks(4) {
            if r.done() {
                break;
            }
            r.push(piece)?;
        }
        KeptTable::from_bytes(&r.finish()?)
    };
    let at = |kept: &KeptTable, key: &str| Reflect::get(&kept.bounds(), &key.into()).unwrap().as_f64().unwrap() as usize;
    let cut = 24;
    let mut kept = read(0, cut as f64, true).unwrap();
    let end = at(&kept, "end");
    let second = match read(cut, f64::INFINITY, false) {
        Ok(second) if at(&second, "first") == end => second,
        _ => read(end, f64::INFINITY, true).unwrap(),
    };
    kept.merge(second).unwrap();
    let mut h = Hasher::new();
    h.update(csv);
    kept.set_sha256(h.hex());
    let report = kept.audit(config(&["age", "sex"])).unwrap().report();
    assert_eq!(metric(&report, "k_anonymity").as_f64(), Some(2.0));
    assert_eq!(metric(&report, "n_classes").as_f64(), Some(2.0));
    let input = Reflect::get(&report, &"input".into()).unwrap();
    assert_eq!(Reflect::get(&input, &"records".into()).unwrap().as_f64(), Some(5.0));
    // Another set of roles: the same table, nothing read again.
    let again = kept.audit(config(&["age", "sex", "diag"])).unwrap().report();
    assert_eq!(metric(&again, "k_anonymity").as_f64(), Some(1.0));
    assert_eq!(metric(&again, "n_classes").as_f64(), Some(3.0));
    assert!(KeptTable::from_bytes(b"not a table").is_err());
}

/// The page's fixtures (tests/e2e/fixtures/formats.*): one table as CSV, Parquet and .xlsx.
const CSV: &[u8] = include_bytes!("../../../tests/e2e/fixtures/formats.csv");
const PARQUET: &[u8] = include_bytes!("../../../tests/e2e/fixtures/formats.parquet");
const XLSX: &[u8] = include_bytes!("../../../tests/e2e/fixtures/formats.xlsx");

#[wasm_bindgen_test]
fn parquet_and_xlsx_read_in_the_browser_as_their_csv() {
    assert_eq!(file_format(&PARQUET[..8], "t.parquet").unwrap(), "parquet");
    assert_eq!(file_format(&XLSX[..8], "t.xlsx").unwrap(), "xlsx");
    assert_eq!(file_format(&CSV[..8], "t.csv").unwrap(), "csv");
    let qi = ["age", "sex", "zip"];
    let mut audit = Audit::new(config(&qi)).unwrap();
    audit.push(CSV).unwrap();
    let csv = audit.finish().unwrap().report();
    for (bytes, format) in [(PARQUET, "parquet"), (XLSX, "xlsx")] {
        let table = KeptTable::from_bytes(&read_cells(config(&qi), bytes.to_vec(), format, None).unwrap()).unwrap();
        let report = table.audit(config(&qi)).unwrap().report();
        for id in ["k_anonymity", "sample_uniques", "r_internal"] {
            assert_eq!(metric(&report, id), metric(&csv, id), "{format} {id}");
        }
        let input = Reflect::get(&report, &"input".into()).unwrap();
        assert_eq!(Reflect::get(&input, &"format".into()).unwrap(), format);
    }
    let cut = read_cells(config(&qi), PARQUET[..PARQUET.len() - 30].to_vec(), "parquet", None).unwrap_err();
    assert_eq!(Reflect::get(&cut, &"code".into()).unwrap(), "unreadable_parquet");
}
