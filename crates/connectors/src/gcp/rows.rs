//! BigQuery's REST row format (`rows[].f[].v`, per `schema.fields`) written as one JSON object
//! per row, the shape of the Cloud Billing export that Costscope's GCP reader loads: nested
//! RECORDs as objects, REPEATED fields as arrays, numbers as JSON numbers (never in exponent
//! form), TIMESTAMPs as RFC 3339 UTC text.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Deserialize;
use serde_json::Value;

/// `schema` of a query answer.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
pub(crate) struct TableSchema {
    #[serde(default)]
    pub fields: Vec<FieldSchema>,
}

/// One field of a schema (a RECORD's sub-fields in `fields`).
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub(crate) struct FieldSchema {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub fields: Vec<FieldSchema>,
}

impl FieldSchema {
    fn repeated(&self) -> bool {
        self.mode
            .as_deref()
            .is_some_and(|mode| mode.eq_ignore_ascii_case("REPEATED"))
    }
}

/// Appends one row (`{"f": [...]}`) as a JSON object and a newline to `out`.
pub(crate) fn write_row_line(
    fields: &[FieldSchema],
    row: &Value,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    write_record(fields, row, out)?;
    out.push(b'\n');
    Ok(())
}

fn write_record(fields: &[FieldSchema], record: &Value, out: &mut Vec<u8>) -> Result<(), String> {
    let cells = record
        .get("f")
        .and_then(Value::as_array)
        .ok_or_else(|| "a row is not in BigQuery's {\"f\": [...]} form".to_owned())?;
    if cells.len() != fields.len() {
        return Err(format!(
            "a row has {} values but the schema has {} fields",
            cells.len(),
            fields.len()
        ));
    }
    out.push(b'{');
    for (index, (field, cell)) in fields.iter().zip(cells).enumerate() {
        if index > 0 {
            out.push(b',');
        }
        write_string(&field.name, out);
        out.push(b':');
        let value = cell.get("v").unwrap_or(&Value::Null);
        write_field(field, value, out).map_err(|error| format!("field {}: {error}", field.name))?;
    }
    out.push(b'}');
    Ok(())
}

fn write_field(field: &FieldSchema, value: &Value, out: &mut Vec<u8>) -> Result<(), String> {
    if !field.repeated() {
        return write_single(field, value, out);
    }
    match value {
        Value::Null => out.extend_from_slice(b"[]"),
        Value::Array(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_single(field, item.get("v").unwrap_or(&Value::Null), out)?;
            }
            out.push(b']');
        }
        _ => return Err("a REPEATED value is not a list".to_owned()),
    }
    Ok(())
}

fn write_single(field: &FieldSchema, value: &Value, out: &mut Vec<u8>) -> Result<(), String> {
    if value.is_null() {
        out.extend_from_slice(b"null");
        return Ok(());
    }
    let kind = field.kind.to_ascii_uppercase();
    if kind == "RECORD" || kind == "STRUCT" {
        return write_record(&field.fields, value, out);
    }
    let text = match value {
        Value::String(text) => text.clone(),
        Value::Number(_) | Value::Bool(_) => value.to_string(),
        _ => return Err(format!("a {kind} value is not a scalar")),
    };
    match kind.as_str() {
        "INTEGER" | "INT64" | "FLOAT" | "FLOAT64" | "NUMERIC" | "BIGNUMERIC" => {
            match plain_decimal(&text) {
                Some(number) => out.extend_from_slice(number.as_bytes()),
                // NaN and ±Infinity have no JSON number.
                None if is_non_finite(&text) => out.extend_from_slice(b"null"),
                None => return Err(format!("{text:?} is not a number")),
            }
        }
        "BOOLEAN" | "BOOL" => match text.to_ascii_lowercase().as_str() {
            "true" => out.extend_from_slice(b"true"),
            "false" => out.extend_from_slice(b"false"),
            _ => return Err(format!("{text:?} is not a boolean")),
        },
        "TIMESTAMP" => {
            let stamp =
                timestamp_text(&text).ok_or_else(|| format!("{text:?} is not a timestamp"))?;
            write_string(&stamp, out);
        }
        "JSON" => match serde_json::from_str::<Value>(&text) {
            Ok(json) => out.extend_from_slice(json.to_string().as_bytes()),
            Err(_) => write_string(&text, out),
        },
        _ => write_string(&text, out),
    }
    Ok(())
}

fn write_string(text: &str, out: &mut Vec<u8>) {
    // Serialising a &str cannot fail.
    out.extend_from_slice(serde_json::to_string(text).unwrap_or_default().as_bytes());
}

fn is_non_finite(text: &str) -> bool {
    let t = text
        .trim()
        .trim_start_matches(['+', '-'])
        .to_ascii_lowercase();
    t == "nan" || t == "inf" || t == "infinity"
}

/// A BigQuery number as it comes over REST (`"12"`, `"0.25"`, `"1.5E-7"`, `"-3e2"`) written
/// as a plain decimal JSON number (`12`, `0.25`, `0.00000015`, `-300`). `None` when it is not
/// a finite number.
pub(crate) fn plain_decimal(text: &str) -> Option<String> {
    let text = text.trim();
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => {
            let exponent: i32 = rest[at + 1..].parse().ok()?;
            (&rest[..at], exponent)
        }
        None => (rest, 0),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((int_part, frac_part)) => (int_part, frac_part),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !int_part
        .bytes()
        .chain(frac_part.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    if exponent.unsigned_abs() > 400 {
        return None;
    }
    let digits: String = format!("{int_part}{frac_part}");
    // Position of the decimal point within `digits`, after the exponent moves it.
    let point = int_part.len() as i64 + i64::from(exponent);
    let (mut whole, mut fraction) = if point <= 0 {
        (
            String::new(),
            format!("{}{digits}", "0".repeat(point.unsigned_abs() as usize)),
        )
    } else if point as usize >= digits.len() {
        (
            format!("{digits}{}", "0".repeat(point as usize - digits.len())),
            String::new(),
        )
    } else {
        let (w, f) = digits.split_at(point as usize);
        (w.to_owned(), f.to_owned())
    };
    let trimmed_whole = whole.trim_start_matches('0');
    whole = if trimmed_whole.is_empty() {
        "0".to_owned()
    } else {
        trimmed_whole.to_owned()
    };
    while fraction.ends_with('0') {
        fraction.pop();
    }
    let zero = whole == "0" && fraction.is_empty();
    let mut number = String::with_capacity(whole.len() + fraction.len() + 2);
    if negative && !zero {
        number.push('-');
    }
    number.push_str(&whole);
    if !fraction.is_empty() {
        number.push('.');
        number.push_str(&fraction);
    }
    Some(number)
}

/// A TIMESTAMP as it comes over REST: microseconds since the epoch (with
/// `formatOptions.useInt64Timestamp`) or seconds as a float (`"1.7297856E9"`), as RFC 3339
/// UTC text (`2026-10-01T00:00:00Z`).
pub(crate) fn timestamp_text(text: &str) -> Option<String> {
    let text = text.trim();
    let micros: i64 = if !text.is_empty()
        && text
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit())
    {
        text.parse().ok()?
    } else {
        let seconds: f64 = text.parse().ok()?;
        if !seconds.is_finite() {
            return None;
        }
        (seconds * 1_000_000.0).round() as i64
    };
    let at: DateTime<Utc> = DateTime::from_timestamp_micros(micros)?;
    Some(at.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_without_exponents() {
        assert_eq!(plain_decimal("12").as_deref(), Some("12"));
        assert_eq!(plain_decimal("0.25").as_deref(), Some("0.25"));
        assert_eq!(plain_decimal("1.5E-7").as_deref(), Some("0.00000015"));
        assert_eq!(plain_decimal("-3e2").as_deref(), Some("-300"));
        assert_eq!(plain_decimal("1.6069142E9").as_deref(), Some("1606914200"));
        assert_eq!(plain_decimal("-0.0").as_deref(), Some("0"));
        assert_eq!(plain_decimal("007.50").as_deref(), Some("7.5"));
        assert_eq!(plain_decimal(".5").as_deref(), Some("0.5"));
        assert_eq!(plain_decimal("NaN"), None);
        assert_eq!(plain_decimal("1e"), None);
        assert_eq!(plain_decimal("abc"), None);
        assert_eq!(plain_decimal(""), None);
    }

    #[test]
    fn timestamps_in_either_rest_form() {
        assert_eq!(
            timestamp_text("1790812800000000").as_deref(),
            Some("2026-10-01T00:00:00Z")
        );
        assert_eq!(
            timestamp_text("1.7908128E9").as_deref(),
            Some("2026-10-01T00:00:00Z")
        );
        assert_eq!(
            timestamp_text("1790812800123456").as_deref(),
            Some("2026-10-01T00:00:00.123456Z")
        );
        assert_eq!(timestamp_text("soon"), None);
    }

    #[test]
    fn nested_and_repeated_fields_follow_the_schema() {
        let schema: TableSchema = serde_json::from_value(serde_json::json!({"fields": [
            {"name": "cost", "type": "FLOAT", "mode": "NULLABLE"},
            {"name": "service", "type": "RECORD", "fields": [
                {"name": "description", "type": "STRING"}]},
            {"name": "labels", "type": "RECORD", "mode": "REPEATED", "fields": [
                {"name": "key", "type": "STRING"}, {"name": "value", "type": "STRING"}]},
            {"name": "flags", "type": "STRING", "mode": "REPEATED"},
            {"name": "usage_start_time", "type": "TIMESTAMP"},
            {"name": "ok", "type": "BOOLEAN"},
            {"name": "gone", "type": "STRING"}
        ]}))
        .unwrap();
        let row = serde_json::json!({"f": [
            {"v": "1.5E-7"},
            {"v": {"f": [{"v": "Compute \"Engine\""}]}},
            {"v": [{"v": {"f": [{"v": "app"}, {"v": "web"}]}}]},
            {"v": [{"v": "a"}, {"v": "b"}]},
            {"v": "1790812800000000"},
            {"v": "true"},
            {"v": null}
        ]});
        let mut out = Vec::new();
        write_row_line(&schema.fields, &row, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"cost\":0.00000015,\"service\":{\"description\":\"Compute \\\"Engine\\\"\"},\
             \"labels\":[{\"key\":\"app\",\"value\":\"web\"}],\"flags\":[\"a\",\"b\"],\
             \"usage_start_time\":\"2026-10-01T00:00:00Z\",\"ok\":true,\"gone\":null}\n"
        );
    }
}
