//! ClickHouse's `RowBinary` format for bulk inserts (`INSERT … FORMAT RowBinary`, read by 18.16
//! and every newer release): each row is its values one after the other, in the insert's column
//! order, with no separators:
//!
//! * integers and `Float64` little-endian in their width (a `Float64` goes exactly: no text
//!   rounding, which 18.16's text parser gets one unit in the last place wrong);
//! * `Decimal(P, S)` as its unscaled integer in the width of `P` (32 bits up to 9 digits, 64 up
//!   to 18, 128 up to 38);
//! * `Date` as `UInt16` days since 1970-01-01, `DateTime` as `UInt32` seconds;
//! * `String` as its length (unsigned LEB128) then its bytes; `Array(T)` as its length then
//!   its items;
//! * `Nullable(T)`: a byte, 1 for NULL (nothing follows) or 0 then the `T`.
//!
//! The server checks nothing of this but the bytes' count: a value out of its type's range
//! would be stored as another value, so the writers here that can be out of range refuse it.

/// A value its ClickHouse type cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{value} is out of the range of ClickHouse's {kind}")]
pub struct OutOfRange {
    pub kind: &'static str,
    pub value: String,
}

fn out_of_range(kind: &'static str, value: impl ToString) -> OutOfRange {
    OutOfRange {
        kind,
        value: value.to_string(),
    }
}

/// An unsigned LEB128 number: string and array lengths.
pub fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A `String`: its length, then its bytes as they are (any bytes, not only UTF-8).
pub fn string(out: &mut Vec<u8>, bytes: &[u8]) {
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// The length of an `Array`, before its items.
pub fn array_len(out: &mut Vec<u8>, len: usize) {
    varint(out, len as u64);
}

/// The byte before a `Nullable` value: NULL (nothing follows) or not (the value follows).
pub fn null_flag(out: &mut Vec<u8>, is_null: bool) {
    out.push(u8::from(is_null));
}

pub fn uint8(out: &mut Vec<u8>, value: u8) {
    out.push(value);
}

pub fn uint32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

pub fn uint64(out: &mut Vec<u8>, value: u64) {
    out.extend_from_slice(&value.to_le_bytes());
}

pub fn int64(out: &mut Vec<u8>, value: i64) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// A `Float64`, bit for bit (NaN and the sign of zero included).
pub fn float64(out: &mut Vec<u8>, value: f64) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// A `Date`: `days` since 1970-01-01, which must fit its `UInt16` (a caller that keeps a
/// narrower range, as the cost engine does, checks it first).
pub fn date(out: &mut Vec<u8>, days: i64) -> Result<(), OutOfRange> {
    let days = u16::try_from(days).map_err(|_| out_of_range("Date (days)", days))?;
    out.extend_from_slice(&days.to_le_bytes());
    Ok(())
}

/// A `DateTime`: `seconds` since the epoch, which must fit a `UInt32`.
pub fn date_time(out: &mut Vec<u8>, seconds: i64) -> Result<(), OutOfRange> {
    let seconds =
        u32::try_from(seconds).map_err(|_| out_of_range("DateTime (seconds)", seconds))?;
    uint32(out, seconds);
    Ok(())
}

/// A `Decimal(precision, S)` of unscaled value `unscaled` (`1.5` at scale 9 is
/// `1_500_000_000`), in the width of `precision` (1 ..= 38), refused beyond `precision` digits.
pub fn decimal(out: &mut Vec<u8>, precision: u32, unscaled: i128) -> Result<(), OutOfRange> {
    let kind = "Decimal (unscaled, of its precision)";
    if !(1..=38).contains(&precision) || unscaled.unsigned_abs() >= 10u128.pow(precision) {
        return Err(out_of_range(kind, unscaled));
    }
    // In range for the precision, so in range for its width too.
    match precision {
        1..=9 => out.extend_from_slice(&(unscaled as i32).to_le_bytes()),
        10..=18 => out.extend_from_slice(&(unscaled as i64).to_le_bytes()),
        _ => out.extend_from_slice(&unscaled.to_le_bytes()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(write: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out);
        out
    }

    #[test]
    fn varints_are_unsigned_leb128() {
        assert_eq!(bytes(|o| varint(o, 0)), [0]);
        assert_eq!(bytes(|o| varint(o, 127)), [127]);
        assert_eq!(bytes(|o| varint(o, 128)), [0x80, 1]);
        assert_eq!(bytes(|o| varint(o, 300)), [0xac, 0x02]);
        assert_eq!(
            bytes(|o| varint(o, u64::MAX)),
            [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1]
        );
    }

    #[test]
    fn strings_and_arrays_are_length_prefixed() {
        assert_eq!(bytes(|o| string(o, b"")), [0]);
        assert_eq!(
            bytes(|o| string(o, "é\t".as_bytes())),
            [3, 0xc3, 0xa9, b'\t']
        );
        let long = vec![b'x'; 200];
        let encoded = bytes(|o| string(o, &long));
        assert_eq!(&encoded[..2], [0xc8, 0x01]);
        assert_eq!(&encoded[2..], &long[..]);
        assert_eq!(bytes(|o| array_len(o, 2)), [2]);
    }

    #[test]
    fn numbers_are_little_endian_in_their_width() {
        assert_eq!(bytes(|o| uint8(o, 7)), [7]);
        assert_eq!(bytes(|o| uint32(o, 0x0102_0304)), [4, 3, 2, 1]);
        assert_eq!(bytes(|o| uint64(o, 1)), [1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(
            bytes(|o| int64(o, -2)),
            [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        );
        assert_eq!(bytes(|o| float64(o, 0.1)), 0.1f64.to_bits().to_le_bytes());
        assert_eq!(
            bytes(|o| float64(o, -0.0)),
            (-0.0f64).to_bits().to_le_bytes()
        );
        assert_eq!(bytes(|o| null_flag(o, true)), [1]);
        assert_eq!(bytes(|o| null_flag(o, false)), [0]);
    }

    #[test]
    fn dates_and_times_are_refused_out_of_their_range() {
        assert_eq!(bytes(|o| date(o, 19_723).unwrap()), 19_723u16.to_le_bytes());
        assert_eq!(bytes(|o| date(o, 65_535).unwrap()), [0xff, 0xff]);
        assert!(date(&mut Vec::new(), -1).is_err());
        assert!(date(&mut Vec::new(), 65_536).is_err());
        assert_eq!(bytes(|o| date_time(o, 1).unwrap()), [1, 0, 0, 0]);
        let error = date_time(&mut Vec::new(), 1 << 32).unwrap_err();
        assert_eq!(
            error.to_string(),
            "4294967296 is out of the range of ClickHouse's DateTime (seconds)"
        );
        assert!(date_time(&mut Vec::new(), -1).is_err());
    }

    #[test]
    fn decimals_take_the_width_of_their_precision_and_no_more_digits() {
        assert_eq!(bytes(|o| decimal(o, 9, -1).unwrap()), (-1i32).to_le_bytes());
        assert_eq!(
            bytes(|o| decimal(o, 18, 999_999_999_999_999_999).unwrap()),
            999_999_999_999_999_999i64.to_le_bytes()
        );
        assert_eq!(
            bytes(|o| decimal(o, 38, -(10i128.pow(37))).unwrap()),
            (-(10i128.pow(37))).to_le_bytes()
        );
        assert!(decimal(&mut Vec::new(), 18, 10i128.pow(18)).is_err());
        assert!(decimal(&mut Vec::new(), 9, -(10i128.pow(9))).is_err());
        assert!(decimal(&mut Vec::new(), 39, 0).is_err());
        assert!(decimal(&mut Vec::new(), 0, 0).is_err());
    }
}
