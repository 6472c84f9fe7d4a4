//! A table's header: the position of a column named in the settings, with the one error of a
//! column the table does not have (`unknown_column`, naming it and listing the table's columns).

use crate::error::{Error, Result};

/// The position of the column `wanted` among `names` (a header); `unknown_column` when the
/// header has none of that name.
pub fn find(names: &[String], wanted: &str) -> Result<usize> {
    names.iter().position(|n| n == wanted).ok_or_else(|| {
        Error::config("unknown_column", format!("there is no column \"{wanted}\"; the table's columns are: {}", names.join(", "))).in_column(wanted)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_column_is_named_with_the_columns_there_are() {
        let names = ["age".to_string(), "zip".to_string()];
        assert_eq!(find(&names, "zip").unwrap(), 1);
        let e = find(&names, "sex").unwrap_err();
        assert_eq!((e.code, e.column.as_deref()), ("unknown_column", Some("sex")));
        assert_eq!(e.to_string(), "column \"sex\": there is no column \"sex\"; the table's columns are: age, zip");
    }
}
