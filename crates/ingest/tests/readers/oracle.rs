//! An oracle independent of the readers: the test's own CSV parser and exact decimal sums
//! (integers of 10⁻⁹) over a FOCUS file, per day, provider and billing currency. It shares no
//! code with `costscope_ingest` (nor with `costscope_core`'s provider names).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

/// The records of a CSV file (plain or gzip; BOM, CRLF and quoted fields handled) as
/// header → value maps.
pub fn records(path: &Path) -> Vec<BTreeMap<String, String>> {
    let raw = std::fs::read(path).unwrap();
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    };
    let text = String::from_utf8(bytes).unwrap();
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut rows = parse(text).into_iter();
    let header = rows.next().expect("a header");
    rows.filter(|row| !(row.len() == 1 && row[0].is_empty()))
        .map(|row| {
            assert_eq!(row.len(), header.len(), "{}: ragged row", path.display());
            header.iter().cloned().zip(row).collect()
        })
        .collect()
}

fn parse(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A decimal text as an integer number of 10⁻⁹ (empty and `NULL` are 0); at most 9 decimals.
pub fn nanos(text: &str) -> i128 {
    let text = text.trim();
    if text.is_empty() || text.eq_ignore_ascii_case("null") {
        return 0;
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    assert!(fraction.len() <= 9, "{text}: more than 9 decimals");
    let value = whole.parse::<i128>().unwrap() * 1_000_000_000
        + format!("{fraction:0<9}").parse::<i128>().unwrap();
    if negative {
        -value
    } else {
        value
    }
}

/// `nanos` back as text with 9 decimals, as DuckDB prints a DECIMAL(38,9).
pub fn decimal(nanos: i128) -> String {
    let sign = if nanos < 0 { "-" } else { "" };
    let abs = nanos.unsigned_abs();
    format!("{sign}{}.{:09}", abs / 1_000_000_000, abs % 1_000_000_000)
}

/// The provider code a FOCUS provider name is stored as: the three clouds' codes, any other
/// name as given (the spec of DESIGN §4, written out here rather than taken from the code).
pub fn provider_code(name: &str) -> String {
    match name.trim() {
        "AWS" | "Amazon Web Services" | "Amazon Web Services, Inc." => "aws".into(),
        "Microsoft" | "Microsoft Azure" | "Azure" => "azure".into(),
        "Google Cloud" | "Google" | "GCP" => "gcp".into(),
        other => other.into(),
    }
}

/// Per (day, provider code, currency): [day, provider, currency, billed, effective], sorted.
pub fn daily_provider_currency_totals(path: &Path) -> Vec<[String; 5]> {
    let mut sums: BTreeMap<(String, String, String), (i128, i128)> = BTreeMap::new();
    for record in records(path) {
        let get = |names: &[&str]| -> String {
            names
                .iter()
                .find_map(|n| record.get(*n).filter(|v| !v.is_empty()))
                .cloned()
                .unwrap_or_default()
        };
        let day = get(&["ChargePeriodStart"])[..10].to_owned();
        let provider = provider_code(&get(&["ServiceProviderName", "ProviderName", "Provider"]));
        let currency = get(&["BillingCurrency"]);
        let entry = sums.entry((day, provider, currency)).or_default();
        entry.0 += nanos(&get(&["BilledCost"]));
        entry.1 += nanos(&get(&["EffectiveCost"]));
    }
    sums.into_iter()
        .map(|((day, provider, currency), (billed, effective))| {
            [day, provider, currency, decimal(billed), decimal(effective)]
        })
        .collect()
}

#[test]
fn the_oracle_reads_quotes_and_exact_decimals() {
    assert_eq!(
        parse("a,b\n\"x,\"\"y\"\"\",2\r\n"),
        [vec!["a", "b"], vec!["x,\"y\"", "2"]]
    );
    assert_eq!(nanos("-0.5"), -500_000_000);
    assert_eq!(nanos("12.000000001"), 12_000_000_001);
    assert_eq!(decimal(-500_000_000), "-0.500000000");
    assert_eq!(decimal(12_000_000_001), "12.000000001");
}
