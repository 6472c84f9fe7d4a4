//! The readers of Parquet and Excel files (`pseudolens-formats`) into a kept table's bytes, for
//! the engine's `KeptTable.from_bytes`: a module of their own (the `readers` feature), which the
//! page fetches only when such a file is chosen (issue 40).

use pseudolens_core::Error;
use wasm_bindgen::prelude::*;

use crate::{config_from, error};

/// The names of an Excel workbook's sheets, in their order (`unreadable_xlsx` when it is not a
/// workbook). Call it on a workbook `read_cells` has read: a panic of the reader aborts this
/// WebAssembly instance.
#[wasm_bindgen]
pub fn sheet_names(bytes: &[u8]) -> Result<Vec<String>, JsValue> {
    pseudolens_formats::xlsx::sheet_names(std::io::Cursor::new(bytes)).map_err(|e| error(&e))
}

/// Reads a whole Parquet or Excel file (`format` "parquet" or "xlsx"; `sheet` null: the first)
/// into a kept table with the audit's settings: its bytes, as `TableReader.finish` gives them,
/// for `KeptTable.from_bytes`. A corrupt file is an input error (`unreadable_parquet`,
/// `unreadable_xlsx`); a panic of the reader aborts this WebAssembly instance (the caller
/// reports that the reader stopped).
#[wasm_bindgen]
pub fn read_cells(config: JsValue, bytes: Vec<u8>, format: &str, sheet: Option<String>) -> Result<Vec<u8>, JsValue> {
    let config = config_from(config)?;
    let format = pseudolens_core::Format::from_label(format).filter(|f| matches!(f, pseudolens_core::Format::Parquet | pseudolens_core::Format::Xlsx));
    let format = format.ok_or_else(|| error(&Error::config("invalid_format", "the format must be parquet or xlsx")))?;
    let mut hash = pseudolens_core::ContentHash::default();
    hash.update(&bytes);
    let len = bytes.len() as u64;
    let mut reader = pseudolens_core::TableReader::new(config.table_settings().map_err(|e| error(&e))?).reading_cells(format);
    let read = match format {
        pseudolens_core::Format::Xlsx => pseudolens_formats::xlsx::read(std::io::Cursor::new(bytes), sheet.as_deref(), &mut reader).map(|_| ()),
        _ => pseudolens_formats::parquet::read(bytes::Bytes::from(bytes), &mut reader).map(|_| ()),
    };
    read.map_err(|e| error(&e))?;
    reader.set_file(len, Some(hash.hex()));
    let part = reader.finish().map_err(|e| error(&e))?;
    Ok(part.to_bytes())
}

/// The length of a Parquet file's footer from its last 8 bytes (`unreadable_parquet` when they
/// are not a Parquet file's).
#[wasm_bindgen]
pub fn parquet_footer_len(tail: &[u8]) -> Result<f64, JsValue> {
    pseudolens_formats::parquet::footer_len(tail).map(|n| n as f64).map_err(|e| error(&e))
}

/// The row groups of a Parquet file of `file_len` bytes from its footer (its last
/// `footer_len + 8` bytes), flat: `rows, first byte, end byte` per group. A panic of the reader
/// aborts this WebAssembly instance.
#[wasm_bindgen]
pub fn parquet_groups(footer: Vec<u8>, file_len: f64) -> Result<Vec<f64>, JsValue> {
    let spans = pseudolens_formats::parquet::group_spans(bytes::Bytes::from(footer), file_len as u64).map_err(|e| error(&e))?;
    Ok(spans.iter().flat_map(|g| [g.rows as f64, g.start as f64, g.end as f64]).collect())
}

/// Reads the row groups `first .. first + count` of a Parquet file of `file_len` bytes from
/// its footer and the bytes of those groups (`body`, from byte `start`) into a kept table's
/// part: its bytes, for `KeptTable.from_bytes`, to merge in group order (the part of group 0
/// counts the header and the file's bytes). A panic of the reader aborts this WebAssembly
/// instance.
#[wasm_bindgen]
pub fn read_parquet_groups(config: JsValue, file_len: f64, footer: Vec<u8>, start: f64, body: Vec<u8>, first: u32, count: u32) -> Result<Vec<u8>, JsValue> {
    use pseudolens_core::Format;
    let config = config_from(config)?;
    let len = file_len as u64;
    let footer_at = len.saturating_sub(footer.len() as u64);
    let pieces = pseudolens_formats::parquet::Pieces::new(len, vec![(footer_at, bytes::Bytes::from(footer)), (start as u64, bytes::Bytes::from(body))]);
    let reader = pseudolens_core::TableReader::new(config.table_settings().map_err(|e| error(&e))?);
    let mut reader = if first == 0 { reader.reading_cells(Format::Parquet) } else { reader.reading_cells_part(Format::Parquet) };
    let groups = (first as usize..(first + count) as usize).collect();
    pseudolens_formats::parquet::read_row_groups(pieces, Some(groups), &mut reader).map_err(|e| error(&e))?;
    reader.set_file(if first == 0 { len } else { 0 }, None);
    let part = reader.finish().map_err(|e| error(&e))?;
    Ok(part.to_bytes())
}
