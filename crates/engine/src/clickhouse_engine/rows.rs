//! Staged line items read from DuckDB as Arrow batches and sent as `RowBinary` rows of
//! [`super::schema::LINE_ITEMS`] ([`arrow_rows`]), streamed: a thread reads and encodes
//! them into chunks of about [`CHUNK_BYTES`] in a bounded channel, and the bulk insert sends the
//! chunks as they come, so a load's memory does not grow with its rows and reading overlaps
//! sending.

use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

use duckdb::types::Value;
use duckdb::Connection;
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::task::JoinHandle;

use super::schema::{normalised_columns, ColumnKind};
use crate::LoadError;
use arrow_rows::encode_batch;

mod arrow_rows;

/// A chunk is sent once it holds this many bytes (whole rows).
const CHUNK_BYTES: usize = 1 << 20;
/// Chunks waiting in the channel at most (the memory bound).
const CHUNKS_IN_FLIGHT: usize = 4;

/// The columns of [`LINE_ITEMS`](super::schema::LINE_ITEMS) a load sends, in the order of
/// [`LineItem`]'s fields.
pub(crate) fn sent_columns() -> Vec<String> {
    let mut columns = vec!["customer_id".to_owned(), "load_id".to_owned()];
    for column in normalised_columns() {
        columns.extend(column.sent());
    }
    columns
}

/// The DuckDB expressions that read a staged row as [`arrow_rows`] encodes it.
pub(crate) fn select_list() -> String {
    let mut exprs = Vec::new();
    for column in normalised_columns() {
        let name = column.name;
        match column.kind {
            ColumnKind::Text | ColumnKind::Double | ColumnKind::Date | ColumnKind::Decimal => {
                exprs.push(name.to_owned());
            }
            ColumnKind::Timestamp => exprs.push(format!("epoch_us({name})")),
            ColumnKind::Map => {
                exprs.push(format!("map_keys({name})"));
                exprs.push(format!("map_values({name})"));
            }
        }
    }
    exprs.join(", ")
}

/// The `RowBinary` chunks of `query`'s rows (a `SELECT` of [`select_list`] on a connection of
/// its own), read on a thread of their own. The iterator ends early when the read fails: the
/// thread's result says why.
pub(crate) struct RowChunks {
    receiver: Receiver<Vec<u8>>,
}

impl Iterator for RowChunks {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        // Blocks the insert's body stream until the reader has the next chunk; on a
        // multi-threaded runtime the worker hands its other tasks on while it waits, so the
        // runtime is not starved.
        let receiver = &self.receiver;
        match Handle::try_current().map(|runtime| runtime.runtime_flavor()) {
            Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| receiver.recv()),
            _ => receiver.recv(),
        }
        .ok()
    }
}

/// Starts reading `query` (with `params`) on `connection` on a blocking thread of the runtime;
/// see [`RowChunks`]. The handle answers the rows read, or why the read stopped.
pub(crate) fn stream(
    connection: Connection,
    query: String,
    params: Vec<Value>,
    customer: i64,
    load_id: Arc<str>,
) -> (RowChunks, JoinHandle<Result<u64, LoadError>>) {
    let (sender, receiver) = sync_channel::<Vec<u8>>(CHUNKS_IN_FLIGHT);
    let reader = tokio::task::spawn_blocking(move || -> Result<u64, LoadError> {
        let engine = |error: duckdb::Error| LoadError::Engine(error.to_string());
        let stopped = || LoadError::Engine("the insert stopped reading".to_owned());
        let mut statement = connection.prepare(&query).map_err(engine)?;
        // Streamed: DuckDB makes each batch as it is asked for, not the whole answer first.
        drop(
            statement
                .stream_arrow(duckdb::params_from_iter(params))
                .map_err(engine)?,
        );
        let mut chunk = Vec::with_capacity(CHUNK_BYTES + (CHUNK_BYTES >> 2));
        let mut read = 0u64;
        while let Some(batch) = statement.step().map_err(engine)? {
            read += encode_batch(&batch, customer, &load_id, &mut chunk)? as u64;
            if chunk.len() >= CHUNK_BYTES {
                let full = std::mem::replace(
                    &mut chunk,
                    Vec::with_capacity(CHUNK_BYTES + (CHUNK_BYTES >> 2)),
                );
                sender.send(full).map_err(|_| stopped())?;
            }
        }
        if !chunk.is_empty() {
            sender.send(chunk).map_err(|_| stopped())?;
        }
        Ok(read)
    });
    (RowChunks { receiver }, reader)
}

#[cfg(test)]
mod tests {
    use costscope_clickhouse::rowbinary;

    use super::*;

    /// A DuckDB table of the normalised columns (`NOT NULL` kept when `strict`) holding `rows`
    /// copies of one row: every nullable column NULL, the others set.
    fn staged(rows: usize, strict: bool) -> Connection {
        let connection = Connection::open_in_memory().unwrap();
        let columns: Vec<String> = costscope_ingest::NORMALISED_COLUMNS
            .iter()
            .map(|(name, kind)| match strict {
                true => format!("{name} {kind}"),
                false => format!("{name} {}", kind.trim_end_matches(" NOT NULL")),
            })
            .collect();
        connection
            .execute_batch(&format!("CREATE TABLE t ({})", columns.join(", ")))
            .unwrap();
        let values: Vec<String> = costscope_ingest::NORMALISED_COLUMNS
            .iter()
            .map(|(name, kind)| match (*name, *kind) {
                ("tags", _) => "MAP {'k': 'v\tw', 'a': ''}".to_owned(),
                (_, kind) if !kind.ends_with("NOT NULL") => "NULL".to_owned(),
                (_, kind) if kind.starts_with("TIMESTAMP") => {
                    "TIMESTAMP '2024-01-31 23:59:59.5'".to_owned()
                }
                (_, kind) if kind.starts_with("DATE") => "DATE '2024-01-01'".to_owned(),
                (_, kind) if kind.starts_with("DECIMAL") => "-1.25".to_owned(),
                (_, kind) if kind.starts_with("DOUBLE") => "0.1".to_owned(),
                (name, _) => format!("'{name}'"),
            })
            .collect();
        connection
            .execute_batch(&format!(
                "INSERT INTO t SELECT {} FROM range({rows})",
                values.join(", ")
            ))
            .unwrap();
        connection
    }

    /// The `RowBinary` bytes of one row of [`staged`] for customer 7 and load `load`, written
    /// column by column from the values `staged` put there.
    fn expected_row() -> Vec<u8> {
        let mut out = Vec::new();
        rowbinary::int64(&mut out, 7);
        rowbinary::string(&mut out, b"load");
        let strings = |out: &mut Vec<u8>, items: &[&str]| {
            rowbinary::array_len(out, items.len());
            for item in items {
                rowbinary::string(out, item.as_bytes());
            }
        };
        for column in normalised_columns() {
            match (column.name, column.kind, column.nullable) {
                ("tags", ..) => {
                    strings(&mut out, &["k", "a"]);
                    strings(&mut out, &["v\tw", ""]);
                }
                (_, ColumnKind::Map, _) => {
                    strings(&mut out, &[]);
                    strings(&mut out, &[]);
                    rowbinary::uint8(&mut out, 0);
                }
                (_, _, true) => rowbinary::null_flag(&mut out, true),
                (_, ColumnKind::Timestamp, _) => rowbinary::int64(&mut out, 1_706_745_599_500_000),
                (_, ColumnKind::Date, _) => rowbinary::date(&mut out, 19_723).unwrap(),
                (_, ColumnKind::Decimal, _) => {
                    rowbinary::decimal(&mut out, 18, -1_250_000_000).unwrap();
                }
                (_, ColumnKind::Double, _) => rowbinary::uint64(&mut out, 0.1f64.to_bits()),
                (name, ColumnKind::Text, _) => rowbinary::string(&mut out, name.as_bytes()),
            }
        }
        out
    }

    async fn read_all(connection: &Connection) -> (Vec<Vec<u8>>, Result<u64, LoadError>) {
        let (chunks, reader) = stream(
            connection.try_clone().unwrap(),
            format!("SELECT {} FROM t", select_list()),
            Vec::new(),
            7,
            Arc::from("load"),
        );
        let chunks: Vec<Vec<u8>> = chunks.collect();
        (chunks, reader.await.unwrap())
    }

    // Multi-threaded: the chunks wait for the reader in `block_in_place`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn staged_rows_become_row_binary_of_the_sent_columns_in_bounded_chunks() {
        let rows = 6_000;
        let (chunks, read) = read_all(&staged(rows, true)).await;
        assert_eq!(read.unwrap(), rows as u64);
        let row = expected_row();
        assert!(chunks.len() > 1, "{} chunks", chunks.len());
        for chunk in &chunks {
            assert!(
                chunk.len() < CHUNK_BYTES + 2_048 * row.len(),
                "a chunk of {}",
                chunk.len()
            );
            assert_eq!(chunk.len() % row.len(), 0, "chunks hold whole rows");
            for sent in chunk.chunks(row.len()) {
                assert_eq!(sent, &row[..]);
            }
        }
        let sent: usize = chunks.iter().map(Vec::len).sum();
        assert_eq!(sent, rows * row.len());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_null_where_the_stored_column_has_none_stops_the_read() {
        let connection = staged(1, false);
        connection
            .execute_batch("UPDATE t SET region = NULL")
            .unwrap();
        let (chunks, read) = read_all(&connection).await;
        assert!(chunks.is_empty());
        assert_eq!(
            read.unwrap_err().to_string(),
            LoadError::Engine("staged column region: NULL in a NOT NULL column".to_owned())
                .to_string()
        );
    }
}
