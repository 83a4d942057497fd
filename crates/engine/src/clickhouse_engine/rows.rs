//! Staged line items read from DuckDB and written as `TabSeparated` rows of
//! [`super::schema::LINE_ITEMS`], streamed: a thread reads them in batches into a bounded
//! channel and the bulk insert encodes them as it sends, so a load's memory does not grow with
//! its rows.

use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

use costscope_clickhouse::{literal, RowWriter, TsvField, TsvRow};
use duckdb::types::Value;
use duckdb::Connection;
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::task::JoinHandle;

use super::schema::{normalised_columns, ColumnKind, NormalisedColumn};
use crate::LoadError;

/// Rows per message between the reading thread and the insert.
const BATCH_ROWS: usize = 2_048;
/// Batches waiting in the channel at most (the memory bound).
const BATCHES_IN_FLIGHT: usize = 4;

/// One value as ClickHouse reads it in a `TabSeparated` field.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    /// Text, a date or a decimal (DuckDB's text of them is ClickHouse's); `None` is NULL.
    Text(Option<String>),
    /// Microseconds since the epoch, or a `Float64`'s bits.
    Int(Option<i64>),
    Bits(Option<u64>),
    /// An `Array(String)`: `['a','b']`, each element a quoted literal.
    Strings(Vec<String>),
    Flag(bool),
}

/// An `Array(String)` field. ClickHouse parses an array of a `TabSeparated` row from the row's
/// bytes as `[` quoted strings `]`: the elements are written as SQL literals, whose escapes keep
/// tabs and line feeds out of the field (so the field itself is not escaped again).
struct StringArray<'a>(&'a [String]);

impl TsvField for StringArray<'_> {
    fn write_tsv(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (index, item) in self.0.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            out.extend_from_slice(literal::string(item).as_bytes());
        }
        out.push(b']');
    }
}

/// One line item: the tenant, the load and its normalised columns as sent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LineItem {
    customer: i64,
    load_id: Arc<str>,
    cells: Vec<Cell>,
}

impl TsvRow for LineItem {
    fn write_row(&self, row: &mut RowWriter<'_>) {
        row.field(self.customer).field(&*self.load_id);
        for cell in &self.cells {
            match cell {
                Cell::Text(text) => row.field(text.as_deref()),
                Cell::Int(value) => row.field(*value),
                Cell::Bits(value) => row.field(*value),
                Cell::Strings(items) => row.field(StringArray(items)),
                Cell::Flag(flag) => row.field(u8::from(*flag)),
            };
        }
    }
}

/// The columns of [`LINE_ITEMS`](super::schema::LINE_ITEMS) a load sends, in the order of
/// [`LineItem`]'s fields.
pub(crate) fn sent_columns() -> Vec<String> {
    let mut columns = vec!["customer_id".to_owned(), "load_id".to_owned()];
    for column in normalised_columns() {
        columns.extend(column.sent());
    }
    columns
}

/// The DuckDB expressions that read a staged row as [`LineItem::from_values`] takes it.
pub(crate) fn select_list() -> String {
    let mut exprs = Vec::new();
    for NormalisedColumn { name, kind, .. } in normalised_columns() {
        match kind {
            ColumnKind::Text | ColumnKind::Double => exprs.push(name.to_owned()),
            ColumnKind::Date | ColumnKind::Decimal => {
                exprs.push(format!("CAST({name} AS VARCHAR)"));
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

fn unexpected(column: &str, value: &Value) -> LoadError {
    LoadError::Engine(format!(
        "staged column {column}: unexpected value {value:?}"
    ))
}

fn strings(column: &str, value: Value) -> Result<Option<Vec<String>>, LoadError> {
    match value {
        Value::Null => Ok(None),
        Value::List(items) => items
            .into_iter()
            .map(|item| match item {
                Value::Text(text) => Ok(text),
                other => Err(unexpected(column, &other)),
            })
            .collect::<Result<_, _>>()
            .map(Some),
        other => Err(unexpected(column, &other)),
    }
}

impl LineItem {
    /// A row of [`select_list`]'s values.
    fn from_values(
        customer: i64,
        load_id: &Arc<str>,
        columns: &[NormalisedColumn],
        mut values: impl Iterator<Item = Value>,
    ) -> Result<Self, LoadError> {
        let mut cells = Vec::with_capacity(columns.len() + 4);
        for column in columns {
            let name = column.name;
            let mut next = || {
                values
                    .next()
                    .ok_or_else(|| LoadError::Engine(format!("staged row lacks {name}")))
            };
            let value = next()?;
            let cell = match (column.kind, value) {
                (_, Value::Null) if column.kind != ColumnKind::Map => match column.kind {
                    ColumnKind::Timestamp => Cell::Int(None),
                    ColumnKind::Double => Cell::Bits(None),
                    _ => Cell::Text(None),
                },
                (ColumnKind::Text | ColumnKind::Date | ColumnKind::Decimal, Value::Text(text)) => {
                    Cell::Text(Some(text))
                }
                (ColumnKind::Timestamp, Value::BigInt(micros)) => Cell::Int(Some(micros)),
                (ColumnKind::Double, Value::Double(value)) => Cell::Bits(Some(value.to_bits())),
                (ColumnKind::Map, keys) => {
                    let keys = strings(name, keys)?;
                    let values = strings(name, next()?)?;
                    let present = keys.is_some();
                    cells.push(Cell::Strings(keys.unwrap_or_default()));
                    cells.push(Cell::Strings(values.unwrap_or_default()));
                    if column.nullable {
                        cells.push(Cell::Flag(present));
                    }
                    continue;
                }
                (_, other) => return Err(unexpected(name, &other)),
            };
            cells.push(cell);
        }
        Ok(Self {
            customer,
            load_id: Arc::clone(load_id),
            cells,
        })
    }
}

/// The line items of `query` (a `SELECT` of [`select_list`] on `connection`, a connection of
/// its own), read on a thread of their own. The iterator ends early when the read fails: the
/// thread's result says why.
pub(crate) struct LineItems {
    receiver: Receiver<Vec<LineItem>>,
    batch: std::vec::IntoIter<LineItem>,
}

impl Iterator for LineItems {
    type Item = LineItem;

    fn next(&mut self) -> Option<LineItem> {
        loop {
            if let Some(item) = self.batch.next() {
                return Some(item);
            }
            // Blocks the insert's body stream until the reader has the next batch (DuckDB
            // reads far faster than the rows are sent); on a multi-threaded runtime the worker
            // hands its other tasks on while it waits, so the runtime is not starved.
            let receiver = &self.receiver;
            let next = match Handle::try_current().map(|runtime| runtime.runtime_flavor()) {
                Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| receiver.recv()),
                _ => receiver.recv(),
            };
            self.batch = next.ok()?.into_iter();
        }
    }
}

/// Starts reading `query` (with `params`) on `connection` on a blocking thread of the runtime;
/// see [`LineItems`]. The handle answers the rows read, or why the read stopped.
pub(crate) fn stream(
    connection: Connection,
    query: String,
    params: Vec<Value>,
    customer: i64,
    load_id: Arc<str>,
) -> (LineItems, JoinHandle<Result<u64, LoadError>>) {
    let (sender, receiver) = sync_channel::<Vec<LineItem>>(BATCHES_IN_FLIGHT);
    let reader = tokio::task::spawn_blocking(move || -> Result<u64, LoadError> {
        let columns = normalised_columns();
        let width: usize = columns
            .iter()
            .map(|c| if c.kind == ColumnKind::Map { 2 } else { 1 })
            .sum();
        let engine = |error: duckdb::Error| LoadError::Engine(error.to_string());
        let mut statement = connection.prepare(&query).map_err(engine)?;
        let mut rows = statement
            .query(duckdb::params_from_iter(params))
            .map_err(engine)?;
        let mut batch = Vec::with_capacity(BATCH_ROWS);
        let mut read = 0u64;
        while let Some(row) = rows.next().map_err(engine)? {
            let values = (0..width)
                .map(|index| row.get::<_, Value>(index))
                .collect::<Result<Vec<_>, _>>()
                .map_err(engine)?;
            batch.push(LineItem::from_values(
                customer,
                &load_id,
                &columns,
                values.into_iter(),
            )?);
            read += 1;
            if batch.len() == BATCH_ROWS {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_ROWS));
                if sender.send(full).is_err() {
                    return Err(LoadError::Engine("the insert stopped reading".to_owned()));
                }
            }
        }
        if !batch.is_empty() && sender.send(batch).is_err() {
            return Err(LoadError::Engine("the insert stopped reading".to_owned()));
        }
        Ok(read)
    });
    (
        LineItems {
            receiver,
            batch: Vec::new().into_iter(),
        },
        reader,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(item: &LineItem) -> String {
        let mut out = Vec::new();
        let mut encoder = costscope_clickhouse::tsv::TsvEncoder::new(sent_columns().len());
        encoder.write(item, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn string_arrays_are_quoted_literals_with_nothing_raw_in_the_field() {
        let mut out = Vec::new();
        let items = [
            "a'b".to_owned(),
            "tab\there\nline".to_owned(),
            r"back\slash".to_owned(),
        ];
        StringArray(&items).write_tsv(&mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r"['a\'b','tab\there\nline','back\\slash']"
        );
        let mut out = Vec::new();
        StringArray(&[]).write_tsv(&mut out);
        assert_eq!(out, b"[]");
    }

    // Multi-threaded: the items wait for the reader's batches in `block_in_place`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_staged_row_becomes_one_field_per_sent_column() {
        let connection = Connection::open_in_memory().unwrap();
        let columns: Vec<String> = costscope_ingest::NORMALISED_COLUMNS
            .iter()
            .map(|(name, kind)| format!("{name} {kind}"))
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
            .execute_batch(&format!("INSERT INTO t VALUES ({})", values.join(", ")))
            .unwrap();
        let (items, reader) = stream(
            connection.try_clone().unwrap(),
            format!("SELECT {} FROM t", select_list()),
            Vec::new(),
            7,
            Arc::from("load"),
        );
        let items: Vec<LineItem> = items.collect();
        assert_eq!(reader.await.unwrap().unwrap(), 1);
        let text = encode(&items[0]);
        let fields: Vec<&str> = text.trim_end().split('\t').collect();
        let sent = sent_columns();
        assert_eq!(fields.len(), sent.len());
        let field = |name: &str| fields[sent.iter().position(|c| c == name).unwrap()];
        assert_eq!(field("customer_id"), "7");
        assert_eq!(field("load_id"), "load");
        assert_eq!(field("provider"), "provider");
        assert_eq!(field("charge_period_start_us"), "1706745599500000");
        assert_eq!(field("billing_period_start"), "2024-01-01");
        assert_eq!(field("billed_cost"), "-1.250000000");
        assert_eq!(field("usage_quantity_bits"), 0.1f64.to_bits().to_string());
        assert_eq!(field("tags_keys"), "['k','a']");
        assert_eq!(field("tags_values"), r"['v\tw','']");
        assert_eq!(field("sku_id"), r"\N");
        assert_eq!(field("pricing_quantity_bits"), r"\N");
        assert_eq!(field("billing_period_end_us"), r"\N");
        assert_eq!(field("extra_keys"), "[]");
        assert_eq!(field("extra_present"), "0");
    }
}
