//! Quoting for the SQL this crate builds (`costscope_core::normalised::sql`): identifiers that
//! come from a file's header and any literal that is not bound with `?` go through these two
//! functions, never pasted raw.

pub use costscope_core::normalised::sql::{quote_ident, quote_literal};

#[cfg(test)]
mod tests {
    use super::*;

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
