//! Money as people read it in a message.

/// `$5,310.42`, `-$12.30`: US dollars with two decimals and thousands separators, no `-` on an
/// amount that rounds to zero.
pub fn dollars(value: f64) -> String {
    let text = format!("{:.2}", value.abs());
    let (whole, cents) = text.split_once('.').unwrap_or((&text, "00"));
    let groups: Vec<&str> = whole
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|group| std::str::from_utf8(group).unwrap_or_default())
        .collect();
    let sign = if value < 0.0 && text != "0.00" {
        "-"
    } else {
        ""
    };
    format!("{sign}${}.{cents}", groups.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_have_thousands_separators_and_cents() {
        assert_eq!(dollars(5310.42), "$5,310.42");
        assert_eq!(dollars(1_234_567.0), "$1,234,567.00");
        assert_eq!(dollars(999.999), "$1,000.00");
        assert_eq!(dollars(0.5), "$0.50");
        assert_eq!(dollars(-12.3), "-$12.30");
        assert_eq!(dollars(-0.001), "$0.00");
    }
}
