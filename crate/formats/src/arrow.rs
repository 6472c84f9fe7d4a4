//! Typed Arrow columns as text cells, by the one typed-cell rule of
//! [`pseudolens_core::ingest::typed`] (docs/decisions/formats/typed-cells.md): what a Parquet file, a
//! pandas or a polars frame hands over becomes the table of text cells its CSV would be.
//!
//! Nested and interval types (lists, structs, maps, durations, intervals) are not cells of a
//! table of records: a column of one is the error `unsupported_column_type`, naming it.

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, LargeStringArray, RecordBatch, StringArray, StringViewArray};
use arrow_schema::{DataType, Schema, TimeUnit};
use pseudolens_core::ingest::typed;
use pseudolens_core::{CellBatch, ClassHasher, Error, ReadsTable, Result};

/// The text of each cell of a typed column: one buffer, and where each cell ends.
#[derive(Debug, Default, Clone)]
struct Texts {
    buf: String,
    ends: Vec<usize>,
}

impl Texts {
    /// The text of cell `i`.
    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.buf[start..self.ends[i]]
    }

    fn end(&mut self) {
        self.ends.push(self.buf.len());
    }
}

/// The column names of a schema, in order.
pub fn header(schema: &Schema) -> Vec<String> {
    schema.fields().iter().map(|f| f.name().clone()).collect()
}

/// The error for a column whose type is not one of a table of records.
fn unsupported(name: &str, t: &DataType) -> Error {
    Error::input(
        "unsupported_column_type",
        format!("this column holds values of type {t}, which are not cells of a table of records; leave it out of the file, or store it as text"),
    )
    .in_column(name)
}

/// Each value of `array` as text (nulls blank), appended to `out`.
fn push_each(n: usize, out: &mut Texts, is_null: impl Fn(usize) -> bool, mut f: impl FnMut(usize, &mut String)) {
    for i in 0..n {
        if !is_null(i) {
            f(i, &mut out.buf);
        }
        out.end();
    }
}

/// The cells of a typed column (not text, not a dictionary: [`Cells`] reads those in place),
/// by the typed-cell rule; `name` names it in errors.
fn column_texts(array: &dyn Array, name: &str) -> Result<Texts> {
    let mut out = Texts { buf: String::new(), ends: Vec::with_capacity(array.len()) };
    append(array, name, &mut out)?;
    Ok(out)
}

fn append(a: &dyn Array, name: &str, out: &mut Texts) -> Result<()> {
    let n = a.len();
    let null = |i: usize| a.is_null(i);
    macro_rules! prim {
        ($t:ty, $f:expr) => {{
            let p = a.as_primitive::<$t>();
            push_each(n, out, null, |i, s| $f(p.value(i), s));
        }};
    }
    match a.data_type() {
        DataType::Null => push_each(n, out, |_| true, |_, _| {}),
        DataType::Boolean => {
            let b = a.as_boolean();
            push_each(n, out, null, |i, s| typed::boolean(b.value(i), s));
        }
        DataType::Int8 => prim!(Int8Type, |v: i8, s| typed::int(v.into(), s)),
        DataType::Int16 => prim!(Int16Type, |v: i16, s| typed::int(v.into(), s)),
        DataType::Int32 => prim!(Int32Type, |v: i32, s| typed::int(v.into(), s)),
        DataType::Int64 => prim!(Int64Type, |v: i64, s| typed::int(v, s)),
        DataType::UInt8 => prim!(UInt8Type, |v: u8, s| typed::uint(v.into(), s)),
        DataType::UInt16 => prim!(UInt16Type, |v: u16, s| typed::uint(v.into(), s)),
        DataType::UInt32 => prim!(UInt32Type, |v: u32, s| typed::uint(v.into(), s)),
        DataType::UInt64 => prim!(UInt64Type, |v: u64, s| typed::uint(v, s)),
        DataType::Float16 => prim!(Float16Type, |v: half::f16, s| typed::float32(v.to_f32(), s)),
        DataType::Float32 => prim!(Float32Type, |v: f32, s| typed::float32(v, s)),
        DataType::Float64 => prim!(Float64Type, |v: f64, s| typed::float64(v, s)),
        DataType::Date32 => prim!(Date32Type, |v: i32, s| typed::date(v.into(), s)),
        DataType::Date64 => prim!(Date64Type, |v: i64, s| typed::date(v.div_euclid(86_400_000), s)),
        DataType::Time32(TimeUnit::Second) => prim!(Time32SecondType, |v: i32, s| typed::time(i64::from(v) * 1_000_000_000, s)),
        DataType::Time32(_) => prim!(Time32MillisecondType, |v: i32, s| typed::time(i64::from(v) * 1_000_000, s)),
        DataType::Time64(TimeUnit::Microsecond) => prim!(Time64MicrosecondType, |v: i64, s| typed::time(v.saturating_mul(1000), s)),
        DataType::Time64(_) => prim!(Time64NanosecondType, |v: i64, s| typed::time(v, s)),
        DataType::Timestamp(unit, tz) => {
            let utc = tz.is_some();
            let scale: i128 = match unit {
                TimeUnit::Second => 1_000_000_000,
                TimeUnit::Millisecond => 1_000_000,
                TimeUnit::Microsecond => 1_000,
                TimeUnit::Nanosecond => 1,
            };
            let v = |i: usize| -> i128 {
                i128::from(match unit {
                    TimeUnit::Second => a.as_primitive::<TimestampSecondType>().value(i),
                    TimeUnit::Millisecond => a.as_primitive::<TimestampMillisecondType>().value(i),
                    TimeUnit::Microsecond => a.as_primitive::<TimestampMicrosecondType>().value(i),
                    TimeUnit::Nanosecond => a.as_primitive::<TimestampNanosecondType>().value(i),
                })
            };
            push_each(n, out, null, |i, s| typed::timestamp(v(i) * scale, utc, s));
        }
        DataType::Decimal32(_, scale) => prim!(Decimal32Type, |v: i32, s| typed::decimal(v.into(), (*scale).into(), s)),
        DataType::Decimal64(_, scale) => prim!(Decimal64Type, |v: i64, s| typed::decimal(v.into(), (*scale).into(), s)),
        DataType::Decimal128(_, scale) => prim!(Decimal128Type, |v: i128, s| typed::decimal(v, (*scale).into(), s)),
        DataType::Decimal256(_, scale) => {
            let p = a.as_primitive::<Decimal256Type>();
            push_each(n, out, null, |i, s| match p.value(i).to_i128() {
                Some(v) => typed::decimal(v, (*scale).into(), s),
                None => typed::decimal_digits(&p.value(i).to_string(), (*scale).into(), s),
            });
        }
        DataType::Binary => {
            let t = a.as_binary::<i32>();
            push_each(n, out, null, |i, s| typed::bytes(t.value(i), s));
        }
        DataType::LargeBinary => {
            let t = a.as_binary::<i64>();
            push_each(n, out, null, |i, s| typed::bytes(t.value(i), s));
        }
        DataType::BinaryView => {
            let t = a.as_binary_view();
            push_each(n, out, null, |i, s| typed::bytes(t.value(i), s));
        }
        DataType::FixedSizeBinary(_) => {
            let t = a.as_fixed_size_binary();
            push_each(n, out, null, |i, s| typed::bytes(t.value(i), s));
        }
        t => return Err(unsupported(name, t)),
    }
    Ok(())
}

/// The rows of a record batch as cells appended to `cells`, the first at `first_line`.
pub fn push_batch(batch: &RecordBatch, first_line: u64, cells: &mut CellBatch) -> Result<()> {
    let schema = batch.schema();
    let columns = batch.columns().iter().zip(schema.fields()).map(|(c, f)| Cells::of(c.as_ref(), f.name())).collect::<Result<Vec<_>>>()?;
    for i in 0..batch.num_rows() {
        cells.push_row(first_line + i as u64, columns.iter().map(|c| c.get(i)))?;
    }
    Ok(())
}

/// The class hash of each row of a record batch ([`ClassHasher`]: its normalised QI cells by
/// the typed-cell rule), to split a table into parts holding disjoint classes.
pub fn class_hashes(batch: &RecordBatch, hasher: &ClassHasher) -> Result<Vec<u64>> {
    let schema = batch.schema();
    let mut rows = vec![0u64; batch.num_rows()];
    for &j in hasher.columns() {
        for (acc, cell) in rows.iter_mut().zip(cell_hashes(batch.column(j).as_ref(), schema.field(j).name(), hasher)?) {
            *acc = ClassHasher::fold(*acc, cell);
        }
    }
    Ok(rows.into_iter().map(ClassHasher::finish).collect())
}

/// [`ClassHasher::cell`] of each cell of one column: a dictionary's values hashed once.
fn cell_hashes(a: &dyn Array, name: &str, hasher: &ClassHasher) -> Result<Vec<u64>> {
    let cells = Cells::of(a, name)?;
    Ok(match &cells {
        Cells::Dict { keys, values } => {
            let hashed: Vec<u64> = (0..values.len()).map(|v| hasher.cell(values.get(v))).collect();
            let blank = hasher.cell("");
            keys.iter().map(|k| k.map_or(blank, |v| hashed[v])).collect()
        }
        _ => (0..a.len()).map(|i| hasher.cell(cells.get(i))).collect(),
    })
}

/// The cells of one column as text (nulls blank): read in place from a text array and from a
/// dictionary's values, written by the typed-cell rule ([`column_texts`]) from any other type.
enum Cells<'a> {
    Utf8(&'a StringArray),
    LargeUtf8(&'a LargeStringArray),
    View(&'a StringViewArray),
    /// A dictionary: each row's value (its key, `None` when null) among `values`.
    Dict {
        keys: Vec<Option<usize>>,
        values: Box<Cells<'a>>,
    },
    Written(Texts),
}

impl<'a> Cells<'a> {
    fn of(a: &'a dyn Array, name: &str) -> Result<Cells<'a>> {
        Ok(match a.data_type() {
            DataType::Utf8 => Cells::Utf8(a.as_string::<i32>()),
            DataType::LargeUtf8 => Cells::LargeUtf8(a.as_string::<i64>()),
            DataType::Utf8View => Cells::View(a.as_string_view()),
            DataType::Dictionary(_, _) => {
                let d = a.as_any_dictionary();
                let values = Box::new(Cells::of(d.values().as_ref(), name)?);
                // Only null keys point nowhere when there is no value.
                let keys = if values.len() == 0 {
                    vec![None; a.len()]
                } else {
                    d.normalized_keys().into_iter().enumerate().map(|(i, k)| a.is_valid(i).then_some(k)).collect()
                };
                Cells::Dict { keys, values }
            }
            _ => Cells::Written(column_texts(a, name)?),
        })
    }

    /// Number of cells.
    fn len(&self) -> usize {
        match self {
            Cells::Utf8(t) => t.len(),
            Cells::LargeUtf8(t) => t.len(),
            Cells::View(t) => t.len(),
            Cells::Dict { keys, .. } => keys.len(),
            Cells::Written(t) => t.ends.len(),
        }
    }

    /// The text of cell `i`.
    fn get(&self, i: usize) -> &str {
        match self {
            Cells::Utf8(t) if t.is_valid(i) => t.value(i),
            Cells::LargeUtf8(t) if t.is_valid(i) => t.value(i),
            Cells::View(t) if t.is_valid(i) => t.value(i),
            Cells::Dict { keys, values } => keys[i].map_or("", |v| values.get(v)),
            Cells::Written(t) => t.get(i),
            _ => "",
        }
    }
}

/// Feeds record batches of one schema to a table reader or an audit made with
/// [`ReadsTable::reading_cells`]: the
/// header (not a row of the table), then each batch in order, its first row at `first_line`
/// (2 for a whole table: the line it would have in CSV). Returns the rows fed.
pub fn feed(schema: &Schema, first_line: u64, batches: impl IntoIterator<Item = Result<RecordBatch>>, target: &mut impl ReadsTable) -> Result<u64> {
    let reader = target.reader();
    reader.push_header(header(schema), 0)?;
    let mut cells = CellBatch::new();
    let mut rows = 0u64;
    for batch in batches {
        // A batch that does not decode: the error names the line of its first row.
        let batch = batch.map_err(|e| if e.line.is_none() { e.at_line(first_line + rows) } else { e })?;
        cells.clear();
        push_batch(&batch, first_line + rows, &mut cells)?;
        reader.push_cells(&cells)?;
        rows += batch.num_rows() as u64;
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::*;
    use arrow_schema::Field;

    use super::*;

    #[test]
    fn class_hashes_follow_the_typed_rule_and_the_normalisation() {
        // An integer 7 and the text " 7" are one value; a null and "NA" one blank.
        let typed = RecordBatch::try_from_iter([
            ("n", Arc::new(Int64Array::from(vec![Some(7), None])) as ArrayRef),
            ("s", Arc::new(StringArray::from(vec!["a", "b"])) as ArrayRef),
        ])
        .unwrap();
        let text = RecordBatch::try_from_iter([
            ("n", Arc::new(StringArray::from(vec![" 7", "NA"])) as ArrayRef),
            ("s", Arc::new(StringArray::from(vec!["a", "b"])) as ArrayRef),
        ])
        .unwrap();
        let header = vec!["n".to_string(), "s".to_string()];
        let config = pseudolens_core::AuditConfig { quasi_identifiers: header.clone(), ..Default::default() };
        let hasher = pseudolens_core::ClassPart::hasher(&header, &config).unwrap();
        let (a, b) = (class_hashes(&typed, &hasher).unwrap(), class_hashes(&text, &hasher).unwrap());
        assert_eq!(a, b);
        assert_ne!(a[0], a[1]);
        // The row's hash is that of its cells as text, whatever the array holding them.
        assert_eq!(a, [hasher.hash(["7", "a"]), hasher.hash(["", "b"])]);
        let dict: DictionaryArray<Int32Type> = vec![Some(" 7"), None].into_iter().collect();
        let other =
            RecordBatch::try_from_iter([("n", Arc::new(dict) as ArrayRef), ("s", Arc::new(StringViewArray::from(vec!["a", "b"])) as ArrayRef)]).unwrap();
        assert_eq!(class_hashes(&other, &hasher).unwrap(), a);
        let large = RecordBatch::try_from_iter([
            ("n", Arc::new(LargeStringArray::from(vec![Some("7"), Some("NA")])) as ArrayRef),
            ("s", Arc::new(LargeStringArray::from(vec!["a", "b"])) as ArrayRef),
        ])
        .unwrap();
        assert_eq!(class_hashes(&large, &hasher).unwrap(), a);
        // Columns in another order are another class.
        let swapped = pseudolens_core::ClassPart::hasher(
            &header,
            &pseudolens_core::AuditConfig { quasi_identifiers: vec!["s".into(), "n".into()], ..Default::default() },
        )
        .unwrap();
        assert_ne!(class_hashes(&typed, &swapped).unwrap(), a);
    }

    fn texts(a: &dyn Array) -> Vec<String> {
        let t = Cells::of(a, "c").unwrap();
        (0..t.len()).map(|i| t.get(i).to_string()).collect()
    }

    #[test]
    fn typed_columns_follow_the_rule() {
        assert_eq!(texts(&Int64Array::from(vec![Some(7), None, Some(-12)])), ["7", "", "-12"]);
        assert_eq!(texts(&Float64Array::from(vec![Some(1.5), Some(2.0), Some(f64::NAN), None])), ["1.5", "2", "", ""]);
        assert_eq!(texts(&BooleanArray::from(vec![Some(true), None, Some(false)])), ["true", "", "false"]);
        assert_eq!(texts(&Date32Array::from(vec![Some(19_753), None])), ["2024-01-31", ""]);
        assert_eq!(texts(&TimestampSecondArray::from(vec![Some(1_706_697_000)])), ["2024-01-31 10:30:00"]);
        assert_eq!(texts(&TimestampSecondArray::from(vec![Some(1_706_697_000)]).with_timezone("+01:00")), ["2024-01-31 10:30:00Z"]);
        let d = Decimal128Array::from(vec![Some(150), None]).with_precision_and_scale(5, 2).unwrap();
        assert_eq!(texts(&d), ["1.50", ""]);
        assert_eq!(texts(&StringArray::from(vec![Some("007"), None, Some("n/a")])), ["007", "", "n/a"]);
        let dict: DictionaryArray<Int32Type> = vec![Some("a"), None, Some("b"), Some("a")].into_iter().collect();
        assert_eq!(texts(&dict), ["a", "", "b", "a"]);
        let no_values: DictionaryArray<Int32Type> = vec![None::<&str>, None].into_iter().collect();
        assert_eq!(texts(&no_values), ["", ""]);
        let of_ints = DictionaryArray::new(Int8Array::from(vec![Some(1), None, Some(0)]), Arc::new(Int64Array::from(vec![7, -12])));
        assert_eq!(texts(&of_ints), ["-12", "", "7"]);
        assert_eq!(texts(&NullArray::new(2)), ["", ""]);
    }

    #[test]
    fn a_nested_column_is_named_in_the_error() {
        let list = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![Some(vec![Some(1)])]);
        let Err(e) = Cells::of(&list, "tags") else { panic!("a list column read") };
        assert_eq!((e.code, e.column.as_deref()), ("unsupported_column_type", Some("tags")));
    }

    #[test]
    fn batches_become_rows_with_lines() {
        let schema = Arc::new(Schema::new(vec![Field::new("a", DataType::Int32, true), Field::new("b", DataType::Utf8, true)]));
        let batch = RecordBatch::try_new(schema, vec![Arc::new(Int32Array::from(vec![Some(1), None])), Arc::new(StringArray::from(vec!["x", "y"]))]).unwrap();
        let mut cells = CellBatch::new();
        push_batch(&batch, 2, &mut cells).unwrap();
        assert_eq!(cells.len(), 2);
    }
}
