//! The staged rows of one Arrow record batch (DuckDB's answer to [`super::select_list`])
//! encoded as `RowBinary` rows of [`super::sent_columns`], one writer per column kind of
//! [`ColumnKind`]: text, a `Date` (days), a `Decimal(18, 9)` (its unscaled `Int64`), a timestamp's
//! microseconds (`Int64`), a double's bits (`UInt64`, the same eight bytes as the `Float64`) and
//! a map as its keys and values (`Array(String)` each, plus `UInt8` present for a nullable map).

use std::sync::Arc;

use costscope_clickhouse::rowbinary;
use duckdb::arrow::array::{
    Array, ArrayRef, AsArray, Date32Array, Decimal128Array, Float64Array, Int64Array, ListArray,
    StringArray, StructArray,
};
use duckdb::arrow::compute::cast;
use duckdb::arrow::datatypes::{DataType, Field};

use crate::clickhouse_engine::schema::{normalised_columns, ColumnKind, NormalisedColumn};
use crate::LoadError;

/// The precision of the stored `Decimal(18, 9)` columns.
const DECIMAL_PRECISION: u8 = 18;
const DECIMAL_SCALE: i8 = 9;

/// One column of a batch, as the type its writer reads.
enum Column {
    Text(StringArray),
    Date(Date32Array),
    Decimal(Decimal128Array),
    /// A timestamp's microseconds since the epoch.
    Micros(Int64Array),
    /// Sent as its bits.
    Double(Float64Array),
    /// A map's keys and values (lists of strings), and whether the map may be NULL.
    Map {
        keys: ListArray,
        values: ListArray,
        nullable: bool,
    },
}

impl Column {
    /// The column's array (a map's keys, whose NULL is the map's).
    fn array(&self) -> &dyn Array {
        match self {
            Column::Text(a) => a,
            Column::Date(a) => a,
            Column::Decimal(a) => a,
            Column::Micros(a) => a,
            Column::Double(a) => a,
            Column::Map { keys, .. } => keys,
        }
    }
}

/// One column of the batch with what the stored column takes.
struct Encoded {
    name: &'static str,
    nullable: bool,
    column: Column,
}

fn engine(name: &str, reason: impl std::fmt::Display) -> LoadError {
    LoadError::Engine(format!("staged column {name}: {reason}"))
}

/// `array` as `to` (DuckDB's Arrow types can vary with its settings: a large string, a string
/// view), or why not.
fn as_type(name: &str, array: &ArrayRef, to: &DataType) -> Result<ArrayRef, LoadError> {
    if array.data_type() == to {
        return Ok(Arc::clone(array));
    }
    cast(array, to).map_err(|error| engine(name, format!("cannot be read as {to}: {error}")))
}

fn string_list() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
}

/// The batch's columns, in [`normalised_columns`]'s order (a map takes two: keys, values).
fn columns_of(batch: &StructArray) -> Result<Vec<Encoded>, LoadError> {
    let mut arrays = batch.columns().iter();
    let mut columns = Vec::new();
    for NormalisedColumn {
        name,
        kind,
        nullable,
    } in normalised_columns()
    {
        let mut next = |to: &DataType| {
            let array = arrays
                .next()
                .ok_or_else(|| engine(name, "missing from the staged batch"))?;
            as_type(name, array, to)
        };
        let column = match kind {
            ColumnKind::Text => Column::Text(next(&DataType::Utf8)?.as_string::<i32>().clone()),
            ColumnKind::Date => Column::Date(
                next(&DataType::Date32)?
                    .as_primitive::<duckdb::arrow::datatypes::Date32Type>()
                    .clone(),
            ),
            ColumnKind::Decimal => Column::Decimal(
                next(&DataType::Decimal128(DECIMAL_PRECISION, DECIMAL_SCALE))?
                    .as_primitive::<duckdb::arrow::datatypes::Decimal128Type>()
                    .clone(),
            ),
            ColumnKind::Timestamp => Column::Micros(
                next(&DataType::Int64)?
                    .as_primitive::<duckdb::arrow::datatypes::Int64Type>()
                    .clone(),
            ),
            ColumnKind::Double => Column::Double(
                next(&DataType::Float64)?
                    .as_primitive::<duckdb::arrow::datatypes::Float64Type>()
                    .clone(),
            ),
            ColumnKind::Map => {
                let keys = next(&string_list())?.as_list::<i32>().clone();
                let values = next(&string_list())?.as_list::<i32>().clone();
                Column::Map {
                    keys,
                    values,
                    nullable,
                }
            }
        };
        // A NULL where the stored column has none is a staging bug, not data to guess at.
        let nulls = match &column {
            Column::Map { keys, values, .. } => keys.null_count() + values.null_count(),
            other => other.array().null_count(),
        };
        if !nullable && nulls > 0 {
            return Err(engine(name, "NULL in a NOT NULL column"));
        }
        columns.push(Encoded {
            name,
            nullable,
            column,
        });
    }
    if arrays.next().is_some() {
        return Err(LoadError::Engine(
            "the staged batch has more columns than the stored rows".to_owned(),
        ));
    }
    Ok(columns)
}

/// The strings of list `row` of `lists` (none when it is NULL) as an `Array(String)`.
fn string_array(
    name: &str,
    lists: &ListArray,
    row: usize,
    out: &mut Vec<u8>,
) -> Result<(), LoadError> {
    if lists.is_null(row) {
        rowbinary::array_len(out, 0);
        return Ok(());
    }
    let items = lists.value(row);
    let items = items
        .as_string_opt::<i32>()
        .ok_or_else(|| engine(name, "a map of non-strings"))?;
    if items.null_count() > 0 {
        return Err(engine(name, "a NULL map key or value"));
    }
    rowbinary::array_len(out, items.len());
    for item in items.iter().flatten() {
        rowbinary::string(out, item.as_bytes());
    }
    Ok(())
}

impl Encoded {
    /// Writes row `row` of this column as its stored column(s) take it.
    fn write(&self, row: usize, out: &mut Vec<u8>) -> Result<(), LoadError> {
        let name = self.name;
        if let Column::Map {
            keys,
            values,
            nullable,
        } = &self.column
        {
            string_array(name, keys, row, out)?;
            string_array(name, values, row, out)?;
            if *nullable {
                rowbinary::uint8(out, u8::from(!self.column.array().is_null(row)));
            }
            return Ok(());
        }
        if self.nullable {
            let is_null = self.column.array().is_null(row);
            rowbinary::null_flag(out, is_null);
            if is_null {
                return Ok(());
            }
        }
        let range = |error: rowbinary::OutOfRange| engine(name, error);
        match &self.column {
            Column::Text(a) => rowbinary::string(out, a.value(row).as_bytes()),
            Column::Date(a) => rowbinary::date(out, i64::from(a.value(row))).map_err(range)?,
            Column::Decimal(a) => {
                rowbinary::decimal(out, u32::from(DECIMAL_PRECISION), a.value(row))
                    .map_err(range)?;
            }
            Column::Micros(a) => rowbinary::int64(out, a.value(row)),
            Column::Double(a) => rowbinary::uint64(out, a.value(row).to_bits()),
            Column::Map { .. } => unreachable!("maps are written above"),
        }
        Ok(())
    }
}

/// Appends the rows of `batch` to `out`, each as `customer_id`, `load_id`, then the normalised
/// columns; answers how many.
pub(crate) fn encode_batch(
    batch: &StructArray,
    customer: i64,
    load_id: &str,
    out: &mut Vec<u8>,
) -> Result<usize, LoadError> {
    let columns = columns_of(batch)?;
    for row in 0..batch.len() {
        rowbinary::int64(out, customer);
        rowbinary::string(out, load_id.as_bytes());
        for column in &columns {
            column.write(row, out)?;
        }
    }
    Ok(batch.len())
}
