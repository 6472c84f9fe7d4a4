//! CSV fields as the release and the ARX layout write them (spec protect.md Sec 5): RFC 4180
//! quoting only where needed.

/// Writes one field: quoted (quotes doubled) only when it holds the delimiter, a quote, a
/// line feed or a carriage return.
pub fn write_field(out: &mut Vec<u8>, field: &str, delimiter: &[u8]) {
    let b = field.as_bytes();
    let special = |c: u8| c == b'"' || c == b'\n' || c == b'\r';
    // One pass for a delimiter of one byte (every CSV's): no comparison of slices per byte.
    let needs = match delimiter {
        [d] => b.iter().any(|&c| special(c) || c == *d),
        _ => b.iter().any(|&c| special(c)) || (!delimiter.is_empty() && b.windows(delimiter.len()).any(|w| w == delimiter)),
    };
    if !needs {
        out.extend_from_slice(b);
        return;
    }
    out.push(b'"');
    for &c in b {
        if c == b'"' {
            out.push(b'"');
        }
        out.push(c);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_only_where_needed() {
        let mut out = Vec::new();
        for f in ["plain", "a,b", "say \"hi\"", "two\nlines", "semi;colon", ""] {
            write_field(&mut out, f, b",");
            out.push(b'|');
        }
        assert_eq!(String::from_utf8(out).unwrap(), "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|semi;colon||");
        let mut out = Vec::new();
        write_field(&mut out, "semi;colon", b";");
        assert_eq!(out, b"\"semi;colon\"");
    }
}
