//! Numbers and money as people read them: the command line, e-mails and notifications.

/// `1,234,567`.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|group| std::str::from_utf8(group).unwrap_or_default())
        .collect();
    groups.join(",")
}

/// `-1,234.57`: two decimals, thousands separators, no `-` on an amount that rounds to zero.
pub fn money(value: f64) -> String {
    let text = format!("{:.2}", value.abs());
    let (whole, cents) = text.split_once('.').unwrap_or((&text, "00"));
    let whole = thousands(whole.parse().unwrap_or(0));
    let sign = if value < 0.0 && text != "0.00" {
        "-"
    } else {
        ""
    };
    format!("{sign}{whole}.{cents}")
}

/// [`money`] in US dollars: `$5,310.42`, `-$12.30`.
pub fn dollars(value: f64) -> String {
    let text = money(value);
    match text.strip_prefix('-') {
        Some(amount) => format!("-${amount}"),
        None => format!("${text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_shown_with_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(money(-1234.567), "-1,234.57");
        assert_eq!(money(-0.001), "0.00");
        assert_eq!(money(12.5), "12.50");
    }

    #[test]
    fn dollars_have_thousands_separators_and_cents() {
        assert_eq!(dollars(5310.42), "$5,310.42");
        assert_eq!(dollars(1_234_567.0), "$1,234,567.00");
        assert_eq!(dollars(999.999), "$1,000.00");
        assert_eq!(dollars(0.5), "$0.50");
        assert_eq!(dollars(-0.001), "$0.00");
        assert_eq!(dollars(-12.3), "-$12.30");
    }
}
