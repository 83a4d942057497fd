//! Quoting for the DuckDB SQL built around staged rows (the readers' and the cost engine's).
//! Identifiers that come from a file's header and any literal that is not bound with `?` go
//! through these two functions, never pasted raw.

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
}
