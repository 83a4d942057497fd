//! ClickHouse's `TabSeparated` format, both ways: exact for strings and decimals on 18.16 and
//! current releases (18.16's `JSONEachRow` writes a `Decimal(38, 9)` as a JSON number, which a
//! JSON reader takes as a float).
//!
//! A row is its fields joined by a tab and ended by a line feed; inside a field ClickHouse writes
//! `\\`, `\t`, `\n`, `\r`, `\0`, `\b`, `\f` and `\'` (newer releases leave `'` alone) and
//! reads those plus `\a`, `\v`, `\xHH` and any other `\c` as `c`; a field that is exactly `\N`
//! is NULL. We write the first seven escapes and read all of them strictly: an escape we do not
//! know is a malformed answer, not a guess.

use std::fmt::Write as _;

use crate::value::{Date, DateTime, Decimal};

/// A malformed `TabSeparated` answer or a row that does not fit its columns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TsvError {
    #[error("malformed TabSeparated answer at row {row}: {reason}")]
    Malformed { row: usize, reason: String },
    #[error("row {row} has {got} fields for {expected} columns")]
    RowWidth {
        row: u64,
        expected: usize,
        got: usize,
    },
    #[error("column {index} is NULL in row {row}")]
    Null { row: usize, index: usize },
    #[error("row {row} has no column {index} (it has {len})")]
    NoColumn {
        row: usize,
        index: usize,
        len: usize,
    },
    #[error("column {index} of row {row} (`{text}`) is not {expected}")]
    Parse {
        row: usize,
        index: usize,
        text: String,
        expected: &'static str,
    },
}

// ------------------------------------------------------------------------------------ encoding

/// A value written as one `TabSeparated` field.
pub trait TsvField {
    fn write_tsv(&self, out: &mut Vec<u8>);
}

impl TsvField for str {
    fn write_tsv(&self, out: &mut Vec<u8>) {
        for &b in self.as_bytes() {
            match b {
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                0 => out.extend_from_slice(b"\\0"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0c => out.extend_from_slice(b"\\f"),
                b => out.push(b),
            }
        }
    }
}

impl TsvField for String {
    fn write_tsv(&self, out: &mut Vec<u8>) {
        self.as_str().write_tsv(out);
    }
}

impl<T: TsvField + ?Sized> TsvField for &T {
    fn write_tsv(&self, out: &mut Vec<u8>) {
        (**self).write_tsv(out);
    }
}

/// `None` is `\N`: NULL in a `Nullable` column. (18.16 reads `\N` as the empty string in a
/// plain `String` column and as 0 in a number column, without an error.)
impl<T: TsvField> TsvField for Option<T> {
    fn write_tsv(&self, out: &mut Vec<u8>) {
        match self {
            Some(value) => value.write_tsv(out),
            None => out.extend_from_slice(b"\\N"),
        }
    }
}

macro_rules! display_fields {
    ($($t:ty),*) => {$(
        impl TsvField for $t {
            fn write_tsv(&self, out: &mut Vec<u8>) {
                // Infallible: the text of a number, a decimal or a date has nothing to escape.
                let mut text = String::new();
                let _ = write!(text, "{self}");
                out.extend_from_slice(text.as_bytes());
            }
        }
    )*};
}
display_fields!(i8, i16, i32, i64, u8, u16, u32, u64, Decimal, Date, DateTime);

/// Writes the fields of one row; [`TsvRow`] implementations call [`RowWriter::field`] once per
/// column, in the order of the insert's columns.
pub struct RowWriter<'a> {
    out: &'a mut Vec<u8>,
    fields: usize,
}

impl RowWriter<'_> {
    pub fn field(&mut self, value: impl TsvField) -> &mut Self {
        if self.fields > 0 {
            self.out.push(b'\t');
        }
        value.write_tsv(self.out);
        self.fields += 1;
        self
    }
}

/// One row of a bulk insert. Implemented for vectors and slices of one field type and for
/// tuples of up to 12 fields; a struct of the caller's implements it to write its columns.
pub trait TsvRow {
    fn write_row(&self, row: &mut RowWriter<'_>);
}

impl<T: TsvRow + ?Sized> TsvRow for &T {
    fn write_row(&self, row: &mut RowWriter<'_>) {
        (**self).write_row(row);
    }
}

impl<F: TsvField> TsvRow for [F] {
    fn write_row(&self, row: &mut RowWriter<'_>) {
        for value in self {
            row.field(value);
        }
    }
}

impl<F: TsvField> TsvRow for Vec<F> {
    fn write_row(&self, row: &mut RowWriter<'_>) {
        self.as_slice().write_row(row);
    }
}

macro_rules! tuple_rows {
    ($(($($name:ident),+)),*) => {$(
        impl<$($name: TsvField),+> TsvRow for ($($name,)+) {
            #[allow(non_snake_case)]
            fn write_row(&self, row: &mut RowWriter<'_>) {
                let ($($name,)+) = self;
                $(row.field($name);)+
            }
        }
    )*};
}
tuple_rows!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H),
    (A, B, C, D, E, F, G, H, I),
    (A, B, C, D, E, F, G, H, I, J),
    (A, B, C, D, E, F, G, H, I, J, K),
    (A, B, C, D, E, F, G, H, I, J, K, L)
);

/// Encodes rows into `TabSeparated` text, checking that each has one field per column.
#[derive(Debug)]
pub struct TsvEncoder {
    columns: usize,
    rows: u64,
}

impl TsvEncoder {
    pub fn new(columns: usize) -> Self {
        Self { columns, rows: 0 }
    }

    /// Appends one row (with its line feed) to `out`.
    pub fn write(&mut self, row: &impl TsvRow, out: &mut Vec<u8>) -> Result<(), TsvError> {
        let start = out.len();
        let mut writer = RowWriter { out, fields: 0 };
        row.write_row(&mut writer);
        let got = writer.fields;
        self.rows += 1;
        if got != self.columns {
            out.truncate(start);
            return Err(TsvError::RowWidth {
                row: self.rows,
                expected: self.columns,
                got,
            });
        }
        out.push(b'\n');
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }
}

// ------------------------------------------------------------------------------------ decoding

/// One row of an answer: its fields, `None` for NULL (`\N`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    number: usize,
    cells: Vec<Option<String>>,
}

impl Row {
    /// The row's 1-based position in the answer (for messages).
    pub fn number(&self) -> usize {
        self.number
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn cells(&self) -> &[Option<String>] {
        &self.cells
    }

    /// Column `index` (0-based), NULL included.
    pub fn opt(&self, index: usize) -> Result<Option<&str>, TsvError> {
        self.cells
            .get(index)
            .map(Option::as_deref)
            .ok_or(TsvError::NoColumn {
                row: self.number,
                index,
                len: self.cells.len(),
            })
    }

    /// Column `index` (0-based); NULL is an error.
    pub fn text(&self, index: usize) -> Result<&str, TsvError> {
        self.opt(index)?.ok_or(TsvError::Null {
            row: self.number,
            index,
        })
    }

    /// Column `index` parsed with `FromStr` (counts, integers).
    pub fn parse<T: std::str::FromStr>(&self, index: usize) -> Result<T, TsvError> {
        let text = self.text(index)?;
        text.parse().map_err(|_| TsvError::Parse {
            row: self.number,
            index,
            text: text.to_owned(),
            expected: std::any::type_name::<T>(),
        })
    }

    /// Column `index` as a decimal at `scale` (as ClickHouse writes a `Decimal(P, scale)`).
    pub fn decimal(&self, index: usize, scale: u32) -> Result<Decimal, TsvError> {
        let text = self.text(index)?;
        Decimal::parse(text, scale).map_err(|_| TsvError::Parse {
            row: self.number,
            index,
            text: text.to_owned(),
            expected: "a decimal",
        })
    }
}

/// Splits a whole `TabSeparated` answer into rows.
pub fn decode(body: &[u8]) -> Result<Vec<Row>, TsvError> {
    if body.is_empty() {
        return Ok(Vec::new());
    }
    let Some(body) = body.strip_suffix(b"\n") else {
        let row = body.iter().filter(|&&b| b == b'\n').count() + 1;
        return Err(TsvError::Malformed {
            row,
            reason: "the answer does not end with a line feed (cut short?)".to_owned(),
        });
    };
    body.split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, line)| {
            let number = i + 1;
            let cells = line
                .split(|&b| b == b'\t')
                .map(|field| decode_field(field, number))
                .collect::<Result<_, _>>()?;
            Ok(Row { number, cells })
        })
        .collect()
}

fn decode_field(field: &[u8], row: usize) -> Result<Option<String>, TsvError> {
    if field == b"\\N" {
        return Ok(None);
    }
    let malformed = |reason: String| TsvError::Malformed { row, reason };
    let mut out = Vec::with_capacity(field.len());
    let mut bytes = field.iter().copied();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let escaped = bytes
            .next()
            .ok_or_else(|| malformed("a field ends with a lone backslash".to_owned()))?;
        out.push(match escaped {
            b'\\' | b'\'' => escaped,
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'0' => 0,
            b'b' => 0x08,
            b'f' => 0x0c,
            b'a' => 0x07,
            b'v' => 0x0b,
            b'x' => {
                let hex = [bytes.next(), bytes.next()];
                let hex = match hex {
                    [Some(h), Some(l)] => [h, l],
                    _ => return Err(malformed("`\\x` without two hex digits".to_owned())),
                };
                std::str::from_utf8(&hex)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| malformed("`\\x` without two hex digits".to_owned()))?
            }
            other => {
                return Err(malformed(format!(
                    "unknown escape `\\{}`",
                    char::from(other).escape_default()
                )))
            }
        });
    }
    String::from_utf8(out)
        .map(Some)
        .map_err(|_| malformed("a field is not UTF-8".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn encode_rows<R: TsvRow>(columns: usize, rows: &[R]) -> Result<String, TsvError> {
        let mut encoder = TsvEncoder::new(columns);
        let mut out = Vec::new();
        for row in rows {
            encoder.write(row, &mut out)?;
        }
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn fields_escape_what_would_split_rows_or_fields() {
        let row = vec!["a\tb", "c\nd", r"e\f", "g\rh\0i", "\u{8}\u{c}", "it's €"];
        assert_eq!(
            encode_rows(6, &[row]).unwrap(),
            "a\\tb\tc\\nd\te\\\\f\tg\\rh\\0i\t\\b\\f\tit's €\n"
        );
    }

    #[test]
    fn tuples_write_numbers_decimals_dates_and_nulls() {
        let cost = Decimal::parse("1.5", 9).unwrap();
        let day = Date::new(chrono::NaiveDate::from_ymd_opt(2024, 1, 31).unwrap()).unwrap();
        let row = ("acme", day, cost, -3i64, None::<&str>, Some("x"));
        assert_eq!(
            encode_rows(6, &[row]).unwrap(),
            "acme\t2024-01-31\t1.500000000\t-3\t\\N\tx\n"
        );
    }

    #[test]
    fn a_row_of_the_wrong_width_is_refused_and_not_written() {
        let mut encoder = TsvEncoder::new(2);
        let mut out = Vec::new();
        encoder.write(&("a", "b"), &mut out).unwrap();
        let error = encoder.write(&("a", "b", "c"), &mut out).unwrap_err();
        assert_eq!(error.to_string(), "row 2 has 3 fields for 2 columns");
        assert_eq!(out, b"a\tb\n");
    }

    #[test]
    fn answers_decode_with_every_escape_clickhouse_writes() {
        // What 18.16 answered to SELECT 'a\'b\\c\td\ne\0f\x01g\ah\vi\bj\fk\rl', 'x''y', NULL.
        let body = b"a\\'b\\\\c\\td\\ne\\0f\x01g\x07h\x0bi\\bj\\fk\\rl\tx\\'y\t\\N\n";
        let rows = decode(body).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            rows[0].text(0).unwrap(),
            "a'b\\c\td\ne\0f\u{1}g\u{7}h\u{b}i\u{8}j\u{c}k\rl"
        );
        assert_eq!(rows[0].text(1).unwrap(), "x'y");
        assert_eq!(rows[0].opt(2).unwrap(), None);
        assert_eq!(
            rows[0].text(2).unwrap_err().to_string(),
            "column 2 is NULL in row 1"
        );
        assert_eq!(
            rows[0].text(3).unwrap_err().to_string(),
            "row 1 has no column 3 (it has 3)"
        );
        assert_eq!(
            decode(b"\\x41\\a\\v\n").unwrap()[0].text(0).unwrap(),
            "A\u{7}\u{b}"
        );
    }

    #[test]
    fn empty_lines_are_rows_of_one_empty_field_and_an_empty_answer_has_no_rows() {
        assert!(decode(b"").unwrap().is_empty());
        let rows = decode(b"\n\n").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].text(0).unwrap(), "");
        assert_eq!(rows[1].number(), 2);
    }

    #[test]
    fn typed_columns_parse_or_say_which_cell_is_wrong() {
        let rows = decode(b"42\t1.500000000\tx\n").unwrap();
        assert_eq!(rows[0].parse::<u64>(0).unwrap(), 42);
        assert_eq!(rows[0].decimal(1, 9).unwrap().as_str(), "1.500000000");
        let error = rows[0].parse::<u64>(2).unwrap_err().to_string();
        assert_eq!(error, "column 2 of row 1 (`x`) is not u64");
        assert!(rows[0].decimal(1, 2).is_err());
    }

    #[test]
    fn malformed_answers_are_refused() {
        let cases: [(&[u8], &str); 5] = [
            (
                b"a\tb",
                "at row 1: the answer does not end with a line feed",
            ),
            (b"ok\na\\\n", "at row 2: a field ends with a lone backslash"),
            (b"a\\q\n", "unknown escape `\\q`"),
            (b"\\x4\n", "`\\x` without two hex digits"),
            (b"\xff\n", "not UTF-8"),
        ];
        for (body, expected) in cases {
            let message = decode(body).unwrap_err().to_string();
            assert!(message.contains(expected), "{body:?}: {message}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

        #[test]
        fn encoded_rows_decode_to_themselves(
            rows in prop::collection::vec(
                prop::collection::vec(prop::option::of(any::<String>()), 1..5), 0..8),
        ) {
            let mut out = Vec::new();
            for row in &rows {
                TsvEncoder::new(row.len()).write(row, &mut out).unwrap();
            }
            let decoded: Vec<Vec<Option<String>>> =
                decode(&out).unwrap().into_iter().map(|r| r.cells).collect();
            prop_assert_eq!(decoded, rows);
        }
    }
}
