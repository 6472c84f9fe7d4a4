//! Structure-aware inputs: fuzz bytes read as a short program that writes mostly valid CSV
//! (a header, rows of a fixed width, quoted fields of every kind) with the odd stray token
//! (a lone quote, a BOM, a NUL, a bare line end) that breaks it.

/// The candidate delimiters of the core's detection, in its order.
pub const DELIMITERS: [u8; 4] = [b',', b';', b'\t', b'|'];

/// The three line ends.
pub const LINE_ENDS: [&[u8]; 3] = [b"\n", b"\r\n", b"\r"];

/// Reads fuzz bytes one at a time; past the end it reads zeros, so no target has to return
/// early on a short input.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    /// The next byte, 0 past the end.
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// The next two bytes as a little-endian number.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.byte()) | (u16::from(self.byte()) << 8)
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.at.min(self.data.len())..]
    }
}

/// Field texts of a generated row; `D` stands for the delimiter, `N` for the file's line end.
const FIELDS: [&[u8]; 24] = [
    b"x",
    b"1",
    b"30-39",
    b"",
    b"\"q,D\"\"x\"\"\"",
    b"\"multi\nline\"",
    b"\"cr\r\nlf\"",
    "Zürich".as_bytes(),
    b" ",
    b"NA",
    b"*",
    b"2024-02-29",
    b"\"\"",
    b"a\"b",
    b"\"a\"b",
    b"\"N\"",
    b"123**",
    b"[30,40)",
    b"-1.5e-3",
    b"\"D\"",
    b"\"\"\"\"",
    b"\"  \"",
    b"NULL",
    b"\"end\"\"",
];

/// Stray tokens; `D` and `N` as above.
const TOKENS: [&[u8]; 24] = [
    b"\"",
    b"\"\"",
    b"D",
    b"\n",
    b"\r\n",
    b"\r",
    b"\xEF\xBB\xBF",
    b"\0",
    b"\xFF",
    b"x",
    b" ",
    b"\"x",
    b"x\"",
    b"\r\r",
    b"\n\n",
    b"N",
    b"\"D",
    b"\xC3",
    b"\xA9",
    b"\xFE\xFF",
    b"\t",
    b";",
    b",",
    b"|",
];

fn put(out: &mut Vec<u8>, text: &[u8], delimiter: u8, line_end: &[u8]) {
    for &b in text {
        match b {
            b'D' => out.push(delimiter),
            b'N' => out.extend_from_slice(line_end),
            _ => out.push(b),
        }
    }
}

/// Writes CSV from `program`: a header of `columns` names, then per byte either a row of
/// `columns` fields (bytes below 0xC0) or a stray token. Stops at `cap` bytes; runs the
/// program again (the rows differ: the row number seeds them) until at least `min` bytes
/// are written, when the program is not empty.
pub fn csv(program: &[u8], delimiter: u8, columns: usize, line_end: &[u8], min: usize, cap: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for c in 0..columns {
        if c > 0 {
            out.push(delimiter);
        }
        out.extend_from_slice(format!("c{c}").as_bytes());
    }
    out.extend_from_slice(line_end);
    // A small linear congruential generator, seeded by each program byte, picks the fields.
    let mut state: u32 = 0x9E37_79B9;
    // (An empty program cycles to nothing.)
    for (row, &b) in program.iter().cycle().enumerate() {
        if out.len() >= cap || (row >= program.len() && out.len() >= min) {
            break;
        }
        if b < 0xC0 {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223 ^ u32::from(b) ^ (row as u32));
            for c in 0..columns {
                if c > 0 {
                    out.push(delimiter);
                }
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                // Low program bits choose the first field directly, so the fuzzer can steer.
                let pick = if c == 0 { usize::from(b & 0x1F) } else { (state >> 16) as usize };
                put(&mut out, FIELDS[pick % FIELDS.len()], delimiter, line_end);
            }
            // Mostly the file's line end; now and then another one.
            let end = match b >> 5 {
                5 => LINE_ENDS[(state >> 8) as usize % 3],
                _ => line_end,
            };
            out.extend_from_slice(end);
        } else {
            put(&mut out, TOKENS[usize::from(b - 0xC0) % TOKENS.len()], delimiter, line_end);
        }
    }
    out.truncate(cap);
    out
}

/// A byte-order mark (or none) put before the text; the UTF-16 ones re-encode it.
pub fn with_prefix(body: Vec<u8>, prefix: u8) -> Vec<u8> {
    let utf16 = |big_endian: bool| {
        let text = String::from_utf8_lossy(&body);
        let mut out = if big_endian { vec![0xFE, 0xFF] } else { vec![0xFF, 0xFE] };
        for unit in text.encode_utf16() {
            out.extend_from_slice(&if big_endian { unit.to_be_bytes() } else { unit.to_le_bytes() });
        }
        out
    };
    match prefix % 4 {
        0 => body,
        1 => [b"\xEF\xBB\xBF".as_slice(), &body].concat(),
        2 => utf16(false),
        _ => utf16(true),
    }
}
