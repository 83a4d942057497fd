//! SQL literals and identifiers that ClickHouse 18.16 and current releases both read back as
//! exactly the value given. 18.16 has no query parameters (`{name:Type}`), so every value that
//! goes into SQL text goes through here; nothing else in Costscope quotes for ClickHouse.
//!
//! The syntax (ClickHouse docs, "Syntax › String"): a string is single-quoted and a backslash
//! starts an escape: `\\`, `\'`, `\b \f \r \n \t \0 \a \v` and `\xHH` for one byte; any
//! other byte stands for itself, UTF-8 included. Identifiers are backquoted with the same escapes.
//! We escape the backslash, the quote of the kind in use (both kinds, in fact) and every ASCII
//! control character, so that a literal is one line of printable text: logs and error messages
//! that quote the SQL stay readable.

use std::fmt::Write;

use crate::value::{Date, DateTime, Decimal};

/// `'…'`: a String literal.
pub fn string(value: &str) -> String {
    quoted(value, '\'')
}

/// `` `…` ``: a database, table or column name, whatever characters it has.
pub fn identifier(name: &str) -> String {
    quoted(name, '`')
}

/// An integer literal (any signed or unsigned integer up to 64 bits).
pub fn integer(value: impl Into<i128>) -> String {
    value.into().to_string()
}

/// `toDecimal128('12.500000000', 9)`: exact, whatever the digits (a bare `12.5` would be read
/// as a Float64).
pub fn decimal(value: &Decimal) -> String {
    format!(
        "toDecimal128({}, {})",
        string(value.as_str()),
        value.scale()
    )
}

/// `toDate('2024-01-31')`.
pub fn date(value: Date) -> String {
    format!("toDate({})", string(&value.to_string()))
}

/// `toDateTime('2024-01-31 12:00:00', 'UTC')`: the instant, whatever the server's time zone.
pub fn date_time(value: DateTime) -> String {
    format!("toDateTime({}, 'UTC')", string(&value.to_string()))
}

fn quoted(value: &str, quote: char) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push(quote);
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '`' => out.push_str("\\`"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if c.is_ascii_control() => {
                // Infallible: writing to a String.
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{NaiveDate, TimeZone, Utc};
    use proptest::prelude::*;

    #[test]
    fn strings_escape_backslash_quotes_and_control_characters() {
        let cases = [
            ("", "''"),
            ("plain text", "'plain text'"),
            ("it's", r"'it\'s'"),
            (r"C:\dir\", r"'C:\\dir\\'"),
            ("a\nb\tc\rd\0e", r"'a\nb\tc\rd\0e'"),
            ("\u{1}\u{7}\u{b}\u{1b}\u{7f}", r"'\x01\x07\x0B\x1B\x7F'"),
            ("back`quote", r"'back\`quote'"),
            ("€ 😀 ünïcödé", "'€ 😀 ünïcödé'"),
            ("\u{85}\u{2028}", "'\u{85}\u{2028}'"),
            (r"'; DROP TABLE t; --", r"'\'; DROP TABLE t; --'"),
        ];
        for (value, expected) in cases {
            assert_eq!(string(value), expected, "{value:?}");
        }
    }

    #[test]
    fn identifiers_are_backquoted_with_the_same_escapes() {
        assert_eq!(identifier("cost_items"), "`cost_items`");
        assert_eq!(identifier("a`b"), r"`a\`b`");
        assert_eq!(identifier(r"a\b"), r"`a\\b`");
        assert_eq!(identifier("it's"), r"`it\'s`");
    }

    #[test]
    fn numbers_decimals_and_dates() {
        assert_eq!(integer(-42i64), "-42");
        assert_eq!(integer(u64::MAX), "18446744073709551615");
        let d = Decimal::parse("-1.5", 9).unwrap();
        assert_eq!(decimal(&d), "toDecimal128('-1.500000000', 9)");
        let day = Date::new(NaiveDate::from_ymd_opt(2024, 1, 31).unwrap()).unwrap();
        assert_eq!(date(day), "toDate('2024-01-31')");
        let at = DateTime::new(Utc.with_ymd_and_hms(2024, 1, 31, 12, 0, 1).unwrap()).unwrap();
        assert_eq!(date_time(at), "toDateTime('2024-01-31 12:00:01', 'UTC')");
    }

    /// Reads a literal the way ClickHouse's lexer and string parser do (the escapes listed in
    /// the module documentation); `None` when the text is not one well-formed literal.
    fn read_back(literal: &str, quote: char) -> Option<String> {
        let body = literal.strip_prefix(quote)?.strip_suffix(quote)?;
        let mut bytes = Vec::new();
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next()? {
                    'n' => bytes.push(b'\n'),
                    't' => bytes.push(b'\t'),
                    'r' => bytes.push(b'\r'),
                    '0' => bytes.push(0),
                    'x' => {
                        let hex: String = chars.by_ref().take(2).collect();
                        bytes.push(u8::from_str_radix(&hex, 16).ok()?);
                    }
                    other => bytes.extend(other.to_string().as_bytes()),
                },
                c if c == quote => return None, // an unescaped quote would end the literal early
                c if c.is_ascii_control() => return None, // we promise one printable line
                c => bytes.extend(c.to_string().as_bytes()),
            }
        }
        String::from_utf8(bytes).ok()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

        #[test]
        fn any_string_reads_back_as_itself(value in any::<String>()) {
            prop_assert_eq!(read_back(&string(&value), '\''), Some(value.clone()));
            prop_assert_eq!(read_back(&identifier(&value), '`'), Some(value));
        }

        #[test]
        fn strings_of_quotes_and_backslashes_read_back_as_themselves(
            value in "[\\\\'`\"\\x00-\\x1f a]{0,24}",
        ) {
            prop_assert_eq!(read_back(&string(&value), '\''), Some(value.clone()));
        }
    }
}
