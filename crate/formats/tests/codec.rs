//! A Parquet file compressed with a codec this build cannot decode (issue 36): the error names
//! the codec and what to do, and no column (the first column chunk found was named, as if that
//! column were at fault). LZO is decoded by no build; Zstandard by the native ones only.

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::{ParquetMetaDataReader, ParquetMetaDataWriter};
use parquet::file::properties::WriterProperties;
use pseudolens_core::{Audit, AuditConfig, Format};
use pseudolens_formats::parquet as pq;

/// A small uncompressed file whose footer then says every column chunk is `codec`: the check
/// reads the footer only, before any page.
fn parquet_claiming(codec: Compression) -> Vec<u8> {
    let names: ArrayRef = Arc::new(StringArray::from(vec!["Hans Schwarz", "Anna Keller"]));
    let schema = Arc::new(Schema::new(vec![Field::new("patient_name", names.data_type().clone(), true)]));
    let batch = RecordBatch::try_new(schema.clone(), vec![names]).unwrap();
    let props = WriterProperties::builder().set_compression(Compression::UNCOMPRESSED).build();
    let mut plain = Vec::new();
    let mut w = ArrowWriter::try_new(&mut plain, schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let footer = pq::footer_len(&plain[plain.len() - pq::TAIL_BYTES..]).unwrap() as usize;
    let meta = ParquetMetaDataReader::new().parse_and_finish(&Bytes::from(plain.clone())).unwrap();
    let mut builder = meta.into_builder();
    let groups = builder
        .take_row_groups()
        .into_iter()
        .map(|rg| {
            let columns = rg.columns().iter().map(|c| c.clone().into_builder().set_compression(codec).build().unwrap()).collect();
            rg.into_builder().set_column_metadata(columns).build().unwrap()
        })
        .collect();
    let meta = builder.set_row_groups(groups).build();
    let mut out = plain[..plain.len() - pq::TAIL_BYTES - footer].to_vec();
    ParquetMetaDataWriter::new(&mut out, &meta).finish().unwrap();
    out
}

fn read_error(bytes: Vec<u8>) -> pseudolens_core::Error {
    let mut a = Audit::new(AuditConfig::default()).unwrap().reading_cells(Format::Parquet);
    pq::read(Bytes::from(bytes), &mut a).expect_err("the codec is refused")
}

#[test]
fn an_unsupported_codec_is_named_without_a_column() {
    let e = read_error(parquet_claiming(Compression::LZO));
    assert_eq!(e.code, "parquet_codec_unsupported");
    assert_eq!(e.to_string(), "this Parquet file is compressed with LZO, which this build cannot decode; write it again with Snappy, gzip or LZ4, or as CSV");
    if !cfg!(feature = "zstd") {
        let e = read_error(parquet_claiming(Compression::ZSTD(ZstdLevel::default())));
        assert_eq!(
            e.to_string(),
            "this Parquet file is compressed with Zstandard (ZSTD), which this build cannot decode (the command-line tool reads it); write it again with Snappy, gzip or LZ4, or as CSV"
        );
    }
}
