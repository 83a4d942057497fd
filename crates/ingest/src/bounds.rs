//! The size bounds of one load, checked by streaming its files once before the engine reads
//! them: a gzip bomb is refused after a few megabytes of output, with memory flat (a 64 KiB
//! buffer), instead of after DuckDB has expanded it whole.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::rc::Rc;

use crate::IngestError;

/// What one load may hold (the server's `[uploads]` settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadBounds {
    /// All files of the load together, once decompressed.
    pub max_decompressed_bytes: u64,
    /// A compressed file expanding more than this many times is refused …
    pub max_compression_ratio: u64,
    /// … once this much of it was decompressed (small files compress well and are harmless).
    pub ratio_checked_after_bytes: u64,
    /// Data rows of all files of the load together.
    pub max_rows: u64,
}

/// What the files of a load came to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Measured {
    pub decompressed_bytes: u64,
    /// Data rows (records after the header; for Parquet, the rows its footer declares).
    pub rows: u64,
}

/// A file of a load: where it is and the name the uploader knows it by.
#[derive(Debug, Clone, Copy)]
pub struct BoundedFile<'a> {
    pub path: &'a Path,
    pub display_name: &'a str,
}

const BUFFER: usize = 64 * 1024;

/// Streams every file of a load, counting decompressed bytes and rows, and refuses the load at
/// the first bound passed (the message names the file and the limit).
pub fn check_bounds(
    files: &[BoundedFile<'_>],
    bounds: &LoadBounds,
) -> Result<Measured, IngestError> {
    let mut total = Measured::default();
    for file in files {
        measure_file(file, bounds, &mut total)?;
    }
    Ok(total)
}

fn measure_file(
    file: &BoundedFile<'_>,
    bounds: &LoadBounds,
    total: &mut Measured,
) -> Result<(), IngestError> {
    let name = file.display_name;
    let unreadable = |error: io::Error| {
        IngestError::with_detail(format!("{name}: cannot read the file"), error.to_string())
    };
    let mut head = [0u8; 4];
    let mut opened = File::open(file.path).map_err(unreadable)?;
    let head_len = read_up_to(&mut opened, &mut head).map_err(unreadable)?;
    let head = &head[..head_len];
    if head.starts_with(b"PAR1") {
        let size = std::fs::metadata(file.path).map_err(unreadable)?.len();
        add_bytes(total, size, bounds, name)?;
        let rows = parquet_rows(file.path).unwrap_or(0);
        return add_rows(total, rows, bounds, name);
    }
    let compressed = Rc::new(Cell::new(0u64));
    let source = CountingReader {
        inner: File::open(file.path).map_err(unreadable)?,
        count: Rc::clone(&compressed),
    };
    let gzip = head.starts_with(&[0x1f, 0x8b]);
    let mut reader: Box<dyn Read> = if gzip {
        Box::new(flate2::read::MultiGzDecoder::new(BufReader::with_capacity(
            BUFFER, source,
        )))
    } else {
        Box::new(source)
    };
    let mut records = RecordCounter::default();
    let mut buffer = vec![0u8; BUFFER];
    let mut expanded: u64 = 0;
    loop {
        let read = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) if gzip => {
                return Err(IngestError::with_detail(
                    format!("{name}: the gzip data is damaged or cut short"),
                    error.to_string(),
                ))
            }
            Err(error) => return Err(unreadable(error)),
        };
        expanded += read as u64;
        add_bytes(total, read as u64, bounds, name)?;
        if gzip
            && expanded > bounds.ratio_checked_after_bytes
            && expanded
                > compressed
                    .get()
                    .max(1)
                    .saturating_mul(bounds.max_compression_ratio)
        {
            return Err(IngestError::new(format!(
                "{name}: the file expands more than {} times when decompressed and was refused \
                 as a possible compression bomb",
                bounds.max_compression_ratio
            )));
        }
        records.feed(&buffer[..read]);
        // Rows are checked as they are counted, so that a file of tiny rows stops early too.
        if total.rows + records.data_rows() > bounds.max_rows {
            return add_rows(total, records.data_rows(), bounds, name);
        }
    }
    add_rows(total, records.data_rows(), bounds, name)
}

fn read_up_to(file: &mut File, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..])? {
            0 => break,
            read => filled += read,
        }
    }
    Ok(filled)
}

fn add_bytes(
    total: &mut Measured,
    bytes: u64,
    bounds: &LoadBounds,
    name: &str,
) -> Result<(), IngestError> {
    total.decompressed_bytes += bytes;
    if total.decompressed_bytes > bounds.max_decompressed_bytes {
        return Err(IngestError::new(format!(
            "{name}: the upload is larger than {} once decompressed, the most one load may \
             hold; split the export into smaller uploads",
            human_bytes(bounds.max_decompressed_bytes)
        )));
    }
    Ok(())
}

fn add_rows(
    total: &mut Measured,
    rows: u64,
    bounds: &LoadBounds,
    name: &str,
) -> Result<(), IngestError> {
    total.rows += rows;
    if total.rows > bounds.max_rows {
        return Err(IngestError::new(format!(
            "{name}: the upload has more than {} rows, the most one load may hold; split the \
             export into smaller uploads",
            thousands(bounds.max_rows)
        )));
    }
    Ok(())
}

/// The rows a Parquet file's footer declares (DuckDB reads only the footer).
fn parquet_rows(path: &Path) -> Option<u64> {
    let connection = duckdb::Connection::open_in_memory().ok()?;
    let path = crate::sql::quote_literal(&path.to_string_lossy());
    connection
        .query_row(
            &format!("SELECT CAST(sum(num_rows) AS BIGINT) FROM parquet_file_metadata({path})"),
            [],
            |row| row.get::<_, Option<i64>>(0),
        )
        .ok()
        .flatten()
        .map(i64::unsigned_abs)
}

/// Counts the records of CSV or newline-delimited JSON text as it streams past: line ends
/// outside double quotes (a quoted value may hold line breaks; `""` toggles twice), non-blank
/// lines only. The first record of a CSV file is its header.
#[derive(Debug, Default)]
struct RecordCounter {
    records: u64,
    in_quotes: bool,
    line_has_content: bool,
    json: Option<bool>,
}

impl RecordCounter {
    fn feed(&mut self, mut bytes: &[u8]) {
        if self.json.is_none() {
            let first = bytes
                .iter()
                .position(|b| !b.is_ascii_whitespace() && !matches!(b, 0xef | 0xbb | 0xbf));
            match first {
                Some(index) => self.json = Some(bytes[index] == b'{'),
                // Only blank lines so far: nothing to count.
                None => return,
            }
        }
        let quoted = self.json == Some(false);
        // Jumps from one line end or quote to the next (most bytes are looked at once).
        while !bytes.is_empty() {
            if self.in_quotes {
                let Some(index) = bytes.iter().position(|&b| b == b'"') else {
                    return;
                };
                self.in_quotes = false;
                bytes = &bytes[index + 1..];
                continue;
            }
            let next = bytes
                .iter()
                .position(|&b| b == b'\n' || (quoted && b == b'"'));
            let segment = &bytes[..next.unwrap_or(bytes.len())];
            if !self.line_has_content && segment.iter().any(|b| !matches!(b, b'\r' | b' ' | b'\t'))
            {
                self.line_has_content = true;
            }
            let Some(index) = next else {
                return;
            };
            if bytes[index] == b'"' {
                self.in_quotes = true;
                self.line_has_content = true;
            } else {
                if self.line_has_content {
                    self.records += 1;
                }
                self.line_has_content = false;
            }
            bytes = &bytes[index + 1..];
        }
    }

    fn data_rows(&self) -> u64 {
        let records = self.records + u64::from(self.line_has_content);
        match self.json {
            Some(true) => records,
            _ => records.saturating_sub(1),
        }
    }
}

struct CountingReader<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buffer)?;
        self.count.set(self.count.get() + read as u64);
        Ok(read)
    }
}

/// `20 GiB`, `64 MiB`, `1.5 KiB`, `512 bytes`: a size for messages.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [(&str, u64); 4] = [
        ("TiB", 1 << 40),
        ("GiB", 1 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
    ];
    for (unit, size) in UNITS {
        if bytes >= size {
            let value = bytes as f64 / size as f64;
            return if bytes % size == 0 {
                format!("{} {unit}", bytes / size)
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    format!("{bytes} bytes")
}

/// `200,000,000`: a count for messages.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows_of(text: &str) -> u64 {
        let mut counter = RecordCounter::default();
        counter.feed(text.as_bytes());
        counter.data_rows()
    }

    #[test]
    fn records_are_counted_outside_quotes() {
        assert_eq!(rows_of("a,b\n1,2\n3,4\n"), 2);
        assert_eq!(rows_of("a,b\n1,2\n3,4"), 2);
        assert_eq!(
            rows_of("a,b\r\n1,\"two\nlines\"\r\n3,\"say \"\"hi\"\"\"\n"),
            2
        );
        assert_eq!(rows_of("a,b\n\n1,2\n\n"), 1);
        assert_eq!(rows_of("a,b\n"), 0);
        assert_eq!(rows_of("{\"a\":1}\n{\"a\":2}\n"), 2);
        assert_eq!(rows_of(""), 0);
    }

    #[test]
    fn records_are_counted_the_same_whatever_the_chunks() {
        let text = "\u{feff}a,b\r\n1,\"two\nlines\"\r\n\n  \n3,\"say \"\"hi\"\"\"\n4,5";
        for size in 1..text.len() {
            let mut counter = RecordCounter::default();
            for chunk in text.as_bytes().chunks(size) {
                counter.feed(chunk);
            }
            assert_eq!(counter.data_rows(), 3, "chunks of {size}");
        }
        let mut counter = RecordCounter::default();
        counter.feed(b"\n\n  ");
        counter.feed(b"{\"a\":1}\n{\"a\":\"x\\\"y\"}\n");
        assert_eq!(counter.data_rows(), 2);
    }

    #[test]
    fn sizes_and_counts_read_well() {
        assert_eq!(human_bytes(20 << 30), "20 GiB");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(10), "10 bytes");
        assert_eq!(thousands(200_000_000), "200,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }
}
