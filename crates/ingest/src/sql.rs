//! Quoting for the SQL this crate builds. Identifiers that come from a file's header and any
//! literal that is not bound with `?` go through these two functions, never pasted raw.

/// `name` as a DuckDB identifier: wrapped in double quotes, inner double quotes doubled.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// `value` as a DuckDB string literal: wrapped in single quotes, inner single quotes doubled.
/// DuckDB string literals have no backslash escapes, so nothing else needs escaping.
pub fn quote_literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_ident_wraps_and_doubles_double_quotes() {
        assert_eq!(
            quote_ident("lineItem/UnblendedCost"),
            "\"lineItem/UnblendedCost\""
        );
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
        assert_eq!(quote_ident("\""), "\"\"\"\"");
        assert_eq!(quote_ident(""), "\"\"");
        assert_eq!(quote_ident("it's"), "\"it's\"");
    }

    #[test]
    fn quote_literal_wraps_and_doubles_single_quotes() {
        assert_eq!(quote_literal("/tmp/a.csv"), "'/tmp/a.csv'");
        assert_eq!(quote_literal("O'Brien"), "'O''Brien'");
        assert_eq!(quote_literal("''"), "''''''");
        assert_eq!(quote_literal("a\\'b"), "'a\\''b'");
        assert_eq!(quote_literal("x\"y"), "'x\"y'");
    }

    #[test]
    fn quoted_values_round_trip_through_duckdb() {
        let conn = duckdb::Connection::open_in_memory().unwrap();
        for value in [
            "plain",
            "O'Brien",
            "'); DROP TABLE x; --",
            "a\"b",
            "\\'",
            "",
        ] {
            let sql = format!("SELECT {}", quote_literal(value));
            let back: String = conn.query_row(&sql, [], |r| r.get(0)).unwrap();
            assert_eq!(back, value);
            let sql = format!("SELECT 1 AS {}", quote_ident(value));
            let stmt = conn.prepare(&sql);
            if !value.is_empty() {
                let mut stmt = stmt.unwrap();
                stmt.execute([]).unwrap();
                assert_eq!(stmt.column_name(0).unwrap(), value);
            }
        }
    }
}
