//! `stage`: one billing export file → a TEMP table (or view) of normalised rows.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use costscope_core::cost::Provider;
use duckdb::Connection;

use crate::plan::{ColumnKind, Exprs, Header, Plan, ProviderSource, MACROS};
use crate::readers;
use crate::sql::{quote_ident, quote_literal};
use crate::{Format, IngestError, NORMALISED_COLUMNS};

/// What `stage` loaded: the file's format and the number of normalised rows (a GCP line with
/// credits gives one row per credit besides its own); from `stage_view`, the data rows read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StagedFile {
    pub format: Format,
    pub rows: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Container {
    Csv { gzip: bool },
    Ndjson { gzip: bool },
    Parquet,
}

/// The GCP billing export fields read from newline-delimited JSON, by their flattened names.
const GCP_JSON_TEXT: &[&str] = &[
    "billing_account_id",
    "service.description",
    "sku.description",
    "sku.id",
    "usage_start_time",
    "usage_end_time",
    "project.id",
    "project.name",
    "location.location",
    "location.region",
    "location.zone",
    "cost",
    "cost_at_list",
    "currency",
    "usage.amount",
    "usage.unit",
    "usage.pricing_unit",
    "usage.amount_in_pricing_units",
    "invoice.month",
    "cost_type",
    "resource.name",
    "resource.global_name",
];
const GCP_JSON_NESTED: &[&str] = &["credits", "labels"];

/// What a loader does with a file's normalised rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    /// Copies them into a TEMP table (`stage`).
    Table,
    /// Leaves them as a TEMP view over the file's raw rows, read by the loader's one insert
    /// into its own table (`stage_view`): the rows are written once.
    View,
}

/// Reads `path` with DuckDB's own streaming scanners into a new TEMP table `table` (a safe
/// identifier chosen by the caller) whose columns are exactly NORMALISED_COLUMNS (same
/// order/types), checking every required column, number and date. `display_name` is used in
/// every message.
pub fn stage(
    conn: &Connection,
    path: &Path,
    display_name: &str,
    format: Option<Format>,
    table: &str,
) -> Result<StagedFile, IngestError> {
    let staged = stage_as(
        conn,
        path,
        display_name,
        format,
        table,
        &|_| {},
        Output::Table,
    );
    // The table holds the rows: the raw relation is no longer needed.
    unstage_raw(conn, table);
    staged
}

/// Checks `path` as [`stage`] does, calling `on_read` with the number of data rows once the file
/// has been read whole (before its rows are checked and normalised: the load's progress), then
/// creates the TEMP *view* `view` of its normalised rows (exactly NORMALISED_COLUMNS) instead of
/// copying them: the caller reads it once, in its own `INSERT … SELECT`, maps an error of that
/// insert with [`file_error`], and drops the view and what it reads with [`unstage`]. A Parquet
/// file is read again by that insert, so it must stay in place until then. `rows` is the number
/// of data rows read (a GCP line with credits becomes several normalised rows: the insert counts
/// those).
pub fn stage_view(
    conn: &Connection,
    path: &Path,
    display_name: &str,
    format: Option<Format>,
    view: &str,
    on_read: &dyn Fn(u64),
) -> Result<StagedFile, IngestError> {
    stage_as(
        conn,
        path,
        display_name,
        format,
        view,
        on_read,
        Output::View,
    )
}

/// Drops what [`stage`] or [`stage_view`] left under `name`: the table or view and the raw rows
/// a view reads. Missing objects are fine.
pub fn unstage(conn: &Connection, name: &str) {
    drop_relation(conn, &quote_ident(name));
    unstage_raw(conn, name);
}

/// The error of a statement reading the normalised rows of `display_name` (the loader's
/// insert from a [`stage_view`]): what went wrong in the uploader's terms, DuckDB's own text
/// only in `detail`, for the log.
pub fn file_error(display_name: &str, error: duckdb::Error) -> IngestError {
    // A Parquet file is scanned in place, so its read errors can surface here too.
    let raw = error.to_string();
    let message = match explain(&raw) {
        Some(problem) => format!("cannot load the file: {problem}"),
        None => "cannot load the file (the server log has the details)".to_owned(),
    };
    IngestError::with_detail(format!("{display_name}: {message}"), raw)
}

fn stage_as(
    conn: &Connection,
    path: &Path,
    display_name: &str,
    format: Option<Format>,
    table: &str,
    on_read: &dyn Fn(u64),
    output: Output,
) -> Result<StagedFile, IngestError> {
    let raw = quote_ident(&raw_name(table));
    let result = Stager {
        conn,
        path,
        display_name,
        raw: &raw,
        on_read,
    }
    .run(format, table, output);
    if result.is_err() {
        unstage(conn, table);
    }
    result
}

/// The relation holding a file's raw rows: a table, or a view over a Parquet file.
fn raw_name(table: &str) -> String {
    format!("{table}__raw")
}

fn unstage_raw(conn: &Connection, table: &str) {
    drop_relation(conn, &quote_ident(&raw_name(table)));
}

/// Drops the TEMP table or view `relation` (quoted), whichever it is, if it exists.
fn drop_relation(conn: &Connection, relation: &str) {
    // DuckDB refuses to drop a view as a table and the other way round.
    if conn
        .execute_batch(&format!("DROP VIEW IF EXISTS temp.{relation}"))
        .is_err()
    {
        let _ = conn.execute_batch(&format!("DROP TABLE IF EXISTS temp.{relation}"));
    }
}

struct Stager<'a> {
    conn: &'a Connection,
    path: &'a Path,
    display_name: &'a str,
    raw: &'a str,
    on_read: &'a dyn Fn(u64),
}

impl Stager<'_> {
    fn error(&self, message: impl std::fmt::Display) -> IngestError {
        IngestError::new(format!("{}: {message}", self.display_name))
    }

    /// A DuckDB error about reading the file: what went wrong and where, in the uploader's
    /// terms; DuckDB's own text (SQL, advice, the server-side path) only in `detail`, for the log.
    fn read_error(&self, what: &str, error: duckdb::Error) -> IngestError {
        let raw = error.to_string();
        let message = match explain(&raw) {
            Some(problem) => format!("cannot read the file as {what}: {problem}"),
            None => format!("cannot read the file as {what}"),
        };
        IngestError::with_detail(format!("{}: {message}", self.display_name), raw)
    }

    fn internal(&self, error: duckdb::Error) -> IngestError {
        file_error(self.display_name, error)
    }

    fn run(
        &self,
        format: Option<Format>,
        table: &str,
        output: Output,
    ) -> Result<StagedFile, IngestError> {
        let Some(container) = self.container()? else {
            return Err(self.error("the file is empty"));
        };
        for macro_sql in MACROS {
            self.conn
                .execute_batch(macro_sql)
                .map_err(|e| self.internal(e))?;
        }
        let header = self.read_header(container)?;
        if matches!(format, None | Some(Format::Focus)) {
            if let Some(dataset) = crate::focus::other_dataset(&header) {
                return Err(crate::focus::other_dataset_refusal(
                    self.display_name,
                    dataset,
                ));
            }
        }
        let format = match format.or_else(|| readers::detect(&header)) {
            Some(format) => format,
            None => {
                return Err(self.empty_or(
                    container,
                    self.error(
                        "unknown billing export format: the header matches none of FOCUS, \
                         AWS CUR, AWS CUR 2.0, GCP billing export, Azure cost details",
                    ),
                ))
            }
        };
        if matches!(container, Container::Ndjson { .. }) && format != Format::GcpBilling {
            return Err(self.error(format!(
                "newline-delimited JSON is read only for the GCP billing export, not for the {} format",
                format.display_name()
            )));
        }
        let plan = readers::plan(format, &header, self.display_name)
            .map_err(|error| self.empty_or(container, error))?;
        if let Container::Csv { gzip } = container {
            self.copy_csv(gzip, &used_columns(&header, &plan))?;
        }
        let rows: i64 = self
            .conn
            .query_row(&format!("SELECT count(*) FROM {}", self.raw), [], |r| {
                r.get(0)
            })
            .map_err(|e| self.internal(e))?;
        if rows == 0 {
            return Err(self.no_rows(container));
        }
        (self.on_read)(rows.unsigned_abs());
        let provider = match &plan.provider {
            ProviderSource::Fixed(provider) => quote_literal(provider.code()),
            ProviderSource::Column(column) => self.provider_expression(column)?,
        };
        self.run_checks(&plan.checks)?;

        let mut normalised = select(&plan.main, &provider, self.raw);
        if let Some((exprs, from)) = &plan.extra {
            normalised += " UNION ALL ";
            normalised += &select(exprs, &provider, &from.replace("{raw}", self.raw));
        }
        let target = quote_ident(table);
        if output == Output::View {
            self.conn
                .execute_batch(&format!("CREATE TEMP VIEW {target} AS {normalised}"))
                .map_err(|e| self.internal(e))?;
            return Ok(StagedFile {
                format,
                rows: rows.unsigned_abs(),
            });
        }
        let columns: Vec<String> = NORMALISED_COLUMNS
            .iter()
            .map(|(name, kind)| format!("{} {kind}", quote_ident(name)))
            .collect();
        self.conn
            .execute_batch(&format!(
                "CREATE TEMP TABLE {target} ({})",
                columns.join(", ")
            ))
            .map_err(|e| self.internal(e))?;
        let inserted = self
            .conn
            .execute(&format!("INSERT INTO {target} {normalised}"), [])
            .map_err(|e| self.internal(e))?;
        Ok(StagedFile {
            format,
            rows: inserted as u64,
        })
    }

    /// Sniffs the first bytes: Parquet magic, gzip magic (CSV or NDJSON inside), `{` for NDJSON,
    /// otherwise CSV. None for an empty file.
    fn container(&self) -> Result<Option<Container>, IngestError> {
        let mut file =
            File::open(self.path).map_err(|e| self.error(format!("cannot open the file: {e}")))?;
        let mut head = Vec::with_capacity(512);
        file.by_ref()
            .take(512)
            .read_to_end(&mut head)
            .map_err(|e| self.error(format!("cannot read the file: {e}")))?;
        if head.is_empty() {
            return Ok(None);
        }
        if head.starts_with(b"PAR1") {
            return Ok(Some(Container::Parquet));
        }
        if let Some(kind) = unsupported_container(&head) {
            return Err(self.error(format!("{kind} files are not supported; {UNPACK}")));
        }
        let gzip = head.starts_with(&[0x1f, 0x8b]);
        if gzip {
            let file = File::open(self.path)
                .map_err(|e| self.error(format!("cannot open the file: {e}")))?;
            head.clear();
            flate2::read::GzDecoder::new(file)
                .take(512)
                .read_to_end(&mut head)
                .map_err(|e| self.error(format!("cannot read the file as gzip: {e}")))?;
        }
        let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&head);
        if looks_binary(text) {
            return Err(self.error(format!(
                "the file is not UTF-8 text (it looks like binary data); {SUPPORTED}"
            )));
        }
        match text.iter().find(|b| !b.is_ascii_whitespace()) {
            None => Ok(None),
            Some(b'{') => Ok(Some(Container::Ndjson { gzip })),
            Some(_) => Ok(Some(Container::Csv { gzip })),
        }
    }

    /// The file's header. A Parquet file (and a GCP JSON file) becomes the raw relation right
    /// away; a CSV file is copied by `copy_csv` once the reader has said which columns it needs.
    fn read_header(&self, container: Container) -> Result<Header, IngestError> {
        let path = quote_literal(&self.path.to_string_lossy());
        let raw = self.raw;
        match container {
            Container::Csv { gzip } => {
                let described = self
                    .describe(&format!("SELECT * FROM {}", self.csv_source(gzip, true)))
                    .or_else(|error| {
                        // The dialect sniffer refuses some real exports (e.g. CRLF lines with a
                        // last line ending in LF); read those leniently.
                        if !error.to_string().contains("Error when sniffing") {
                            return Err(error);
                        }
                        self.describe(&format!("SELECT * FROM {}", self.csv_source(gzip, false)))
                            .map_err(|_| error)
                    })
                    .map_err(|e| self.read_error("CSV", e))?;
                Ok(Header::new(
                    described.into_iter().map(|(name, _)| name).collect(),
                ))
            }
            Container::Parquet => {
                let source = format!("read_parquet({path})");
                let described = self
                    .describe(&format!("SELECT * FROM {source}"))
                    .map_err(|e| self.read_error("Parquet", e))?;
                // A Parquet file is read in place: the raw rows are a view (every column as
                // VARCHAR, `rowid` the row's position in the file), scanned by each check and by
                // the insert, instead of a full VARCHAR copy of the file.
                let in_place = !described.iter().any(|(name, _)| {
                    name.eq_ignore_ascii_case("rowid")
                        || name.eq_ignore_ascii_case("file_row_number")
                });
                let mut columns: Vec<String> = described
                    .iter()
                    .map(|(name, kind)| {
                        let ident = quote_ident(name);
                        if ColumnKind::of_duckdb_type(kind).is_some() {
                            ident
                        } else if kind.starts_with("MAP")
                            || kind.starts_with("STRUCT")
                            || kind.ends_with(']')
                        {
                            format!("CAST(to_json({ident}) AS VARCHAR) AS {ident}")
                        } else {
                            format!("CAST({ident} AS VARCHAR) AS {ident}")
                        }
                    })
                    .collect();
                if in_place {
                    columns.push("file_row_number AS rowid".to_owned());
                    self.conn
                        .execute_batch(&format!(
                            "CREATE TEMP VIEW {raw} AS SELECT {} FROM \
                             read_parquet({path}, file_row_number = true)",
                            columns.join(", ")
                        ))
                        .map_err(|e| self.read_error("Parquet", e))?;
                    return Ok(Header::described(described));
                }
                self.conn
                    .execute_batch(&format!(
                        "CREATE TEMP TABLE {raw} AS SELECT {} FROM {source}",
                        columns.join(", ")
                    ))
                    .map_err(|e| self.read_error("Parquet", e))?;
                self.header_of_raw()
            }
            Container::Ndjson { gzip } => {
                let compression = if gzip { "gzip" } else { "uncompressed" };
                let source = format!("read_ndjson_objects({path}, compression = '{compression}')");
                // One parse of each object for every text field (a list of paths): a path per
                // call parses the object once per field, and held over 1 GiB for a 25 MB file.
                let paths: Vec<String> = GCP_JSON_TEXT
                    .iter()
                    .map(|name| quote_literal(&format!("$.{name}")))
                    .collect();
                let mut columns: Vec<String> = GCP_JSON_TEXT
                    .iter()
                    .enumerate()
                    .map(|(index, name)| format!("fields[{}] AS {}", index + 1, quote_ident(name)))
                    .collect();
                columns.extend(GCP_JSON_NESTED.iter().map(|name| {
                    format!(
                        "CAST(json_extract(json, {}) AS VARCHAR) AS {}",
                        quote_literal(&format!("$.{name}")),
                        quote_ident(name)
                    )
                }));
                self.conn
                    .execute_batch(&format!(
                        "CREATE TEMP TABLE {raw} AS SELECT {} FROM (SELECT json, \
                         json_extract_string(json, [{}]) AS fields FROM {source})",
                        columns.join(", "),
                        paths.join(", ")
                    ))
                    .map_err(|e| self.read_error("newline-delimited JSON", e))?;
                // The header is the set of fields the first object has.
                let keys: Vec<String> = self
                    .conn
                    .query_row(
                        &format!("SELECT CAST(json_keys(json) AS VARCHAR[]) FROM {source} LIMIT 1"),
                        [],
                        |r| r.get::<_, duckdb::types::Value>(0),
                    )
                    .map(|value| match value {
                        duckdb::types::Value::List(items) => items
                            .into_iter()
                            .filter_map(|item| match item {
                                duckdb::types::Value::Text(text) => Some(text),
                                _ => None,
                            })
                            .collect(),
                        _ => Vec::new(),
                    })
                    .map_err(|e| self.read_error("newline-delimited JSON", e))?;
                let present = |name: &str| {
                    let top = name.split('.').next().unwrap_or(name);
                    keys.iter().any(|k| k == top)
                };
                Ok(Header::new(
                    GCP_JSON_TEXT
                        .iter()
                        .chain(GCP_JSON_NESTED)
                        .filter(|name| present(name))
                        .map(|name| (*name).to_owned())
                        .collect(),
                ))
            }
        }
    }

    fn describe(&self, query: &str) -> Result<Vec<(String, String)>, duckdb::Error> {
        let mut stmt = self.conn.prepare(&format!("DESCRIBE {query}"))?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        rows.collect()
    }

    fn header_of_raw(&self) -> Result<Header, IngestError> {
        let described = self
            .describe(&format!("SELECT * FROM {}", self.raw))
            .map_err(|e| self.internal(e))?;
        Ok(Header::described(described))
    }

    /// A file without a data row is refused as empty whatever its header says; otherwise the
    /// header's own refusal stands.
    fn empty_or(&self, container: Container, refusal: IngestError) -> IngestError {
        let source = match container {
            Container::Csv { gzip } => self.csv_source(gzip, false),
            Container::Parquet | Container::Ndjson { .. } => self.raw.to_owned(),
        };
        let rows = self.conn.query_row(
            &format!("SELECT count(*) FROM (SELECT 1 FROM {source} LIMIT 1)"),
            [],
            |r| r.get::<_, i64>(0),
        );
        match rows {
            Ok(0) => self.no_rows(container),
            _ => refusal,
        }
    }

    /// A file that has its header (or schema) but not one data row: not "empty".
    fn no_rows(&self, container: Container) -> IngestError {
        match container {
            Container::Csv { .. } => self.error("the file has a header but no rows"),
            Container::Parquet | Container::Ndjson { .. } => self.error("the file has no rows"),
        }
    }

    /// DuckDB's CSV scanner over the file, every column as text.
    fn csv_source(&self, gzip: bool, strict: bool) -> String {
        let path = quote_literal(&self.path.to_string_lossy());
        let compression = if gzip { "gzip" } else { "none" };
        format!(
            "read_csv({path}, all_varchar = true, header = true, delim = ',', quote = '\"', \
             escape = '\"', compression = '{compression}', strict_mode = {strict})"
        )
    }

    /// Copies the columns the reader uses into the raw table, in file order, so that
    /// `rowid + 1` is the data row number. Only these columns are kept: a CUR file has hundreds.
    fn copy_csv(&self, gzip: bool, columns: &[String]) -> Result<(), IngestError> {
        let list = if columns.is_empty() {
            // Nothing to read but the row count (a reader that needs no column cannot exist,
            // but an empty select list is not SQL).
            "1 AS costscope_row".to_owned()
        } else {
            columns
                .iter()
                .map(String::as_str)
                .map(quote_ident)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let create = |strict: bool| {
            self.conn.execute_batch(&format!(
                "CREATE TEMP TABLE {} AS SELECT {list} FROM {}",
                self.raw,
                self.csv_source(gzip, strict)
            ))
        };
        match create(true) {
            Ok(()) => Ok(()),
            // Errors found while reading (a line with too many fields, an unterminated quote)
            // are not retried; only the sniffer's refusal is.
            Err(error) if error.to_string().contains("Error when sniffing") => {
                create(false).map_err(|_| self.read_error("CSV", error))
            }
            Err(error) => Err(self.read_error("CSV", error)),
        }
    }

    /// A CASE expression turning the provider names of the file into provider codes (the three
    /// clouds' codes, any other provider as named); a value that cannot be a provider name
    /// (empty, control characters, too long) refuses the file at its first row.
    fn provider_expression(&self, column: &str) -> Result<String, IngestError> {
        let ident = quote_ident(column);
        let sql = format!(
            "SELECT costscope_txt({ident}) AS name, min(rowid) + 1 AS row FROM {} GROUP BY name ORDER BY row",
            self.raw
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.internal(e))?;
        let names: Vec<(String, i64)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.internal(e))?;
        let mut case = format!("CASE costscope_txt({ident})");
        for (name, row) in names {
            match name.parse::<Provider>() {
                Ok(provider) => {
                    case += &format!(
                        " WHEN {} THEN {}",
                        quote_literal(&name),
                        quote_literal(provider.code())
                    )
                }
                Err(problem) => {
                    return Err(self.error(format!("row {row}, column \"{column}\": {problem}")))
                }
            }
        }
        Ok(case + " END")
    }

    /// Runs every check in one scan and refuses the file at the first bad row (the first
    /// check's column when several fail on that row).
    fn run_checks(&self, checks: &[crate::plan::Check]) -> Result<(), IngestError> {
        if checks.is_empty() {
            return Ok(());
        }
        let firsts: Vec<String> = checks
            .iter()
            .map(|check| format!("min(CASE WHEN {} THEN rowid END)", check.bad))
            .collect();
        let sql = format!("SELECT {} FROM {}", firsts.join(", "), self.raw);
        let found: Vec<Option<i64>> = self
            .conn
            .query_row(&sql, [], |r| {
                (0..checks.len())
                    .map(|i| r.get::<_, Option<i64>>(i))
                    .collect()
            })
            .map_err(|e| self.internal(e))?;
        let first = found
            .iter()
            .enumerate()
            .filter_map(|(i, rowid)| rowid.map(|rowid| (rowid, i)))
            .min();
        let Some((rowid, index)) = first else {
            return Ok(());
        };
        let check = &checks[index];
        let value: Option<String> = self
            .conn
            .query_row(
                &format!(
                    "SELECT CAST({} AS VARCHAR) FROM {} WHERE rowid = ?",
                    quote_ident(&check.column),
                    self.raw
                ),
                [rowid],
                |r| r.get(0),
            )
            .map_err(|e| self.internal(e))?;
        Err(self.error(format!(
            "row {}, column \"{}\": \"{}\" {}",
            rowid + 1,
            check.column,
            value.unwrap_or_default(),
            check.problem
        )))
    }
}

const SUPPORTED: &str = "upload CSV, .csv.gz, Parquet or newline-delimited JSON files";
const UNPACK: &str =
    "extract the export and upload the CSV, .csv.gz, Parquet or newline-delimited JSON files inside";

/// Archives and compressions other than gzip, by their magic bytes.
fn unsupported_container(head: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"PK\x03\x04", "zip"),
        (b"PK\x05\x06", "zip"),
        (b"PK\x07\x08", "zip"),
        (b"BZh", "bzip2"),
        (b"\xfd7zXZ\x00", "xz"),
        (b"\x28\xb5\x2f\xfd", "zstd"),
        (b"7z\xbc\xaf\x27\x1c", "7z"),
        (b"Rar!\x1a\x07", "rar"),
    ];
    MAGIC
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map(|(_, kind)| *kind)
}

/// NUL bytes or bytes that are not UTF-8 in the first bytes of a text file (a multi-byte
/// character cut by the end of the sample is fine).
fn looks_binary(head: &[u8]) -> bool {
    if head.contains(&0) {
        return true;
    }
    match std::str::from_utf8(head) {
        Ok(_) => false,
        Err(error) => error.error_len().is_some(),
    }
}

/// What a DuckDB read error means for the uploader (the line, the column count, the quote),
/// from its text; `None` when it says nothing the uploader can act on.
fn explain(raw: &str) -> Option<String> {
    let line = number_after(raw, "CSV Error on Line: ")
        .or_else(|| number_after(raw, " in line "))
        .or_else(|| number_after(raw, "Line: "));
    let at = line
        .map(|line| format!("line {line}: "))
        .unwrap_or_default();
    if raw.contains("Expected Number of Columns") {
        let expected = number_after(raw, "Expected Number of Columns: ")?;
        let found = number_after(raw, "Found: ")?;
        return Some(format!(
            "{at}expected {expected} columns as in the header, found {found}"
        ));
    }
    if raw.contains("unterminated quote") {
        return Some(format!("{at}a quoted value is never closed"));
    }
    if raw.contains("Invalid unicode") || raw.contains("invalid UTF-8") {
        return Some(format!("{at}the text is not UTF-8"));
    }
    if raw.contains("Maximum line size") {
        return Some(format!("{at}the line is too long"));
    }
    if raw.contains("Error when sniffing") {
        return Some(
            "its columns cannot be told apart; a CSV file needs a header row and \
             comma-separated values"
                .to_owned(),
        );
    }
    if raw.contains("Malformed JSON") || raw.contains("JSON") && raw.contains("malformed") {
        return Some(format!("{at}the line is not a valid JSON object"));
    }
    if raw.contains("Could not convert") || raw.contains("Conversion Error") {
        return Some(format!(
            "{at}a value is not the number, date or text its column needs"
        ));
    }
    if raw.contains("Out of Memory") {
        return Some(
            "the server ran out of memory reading it; upload it in smaller parts".to_owned(),
        );
    }
    if raw.contains("No magic bytes")
        || raw.contains("Invalid Parquet")
        || raw.contains("parquet") && raw.contains("corrupt")
    {
        return Some("the file is damaged or not a Parquet file".to_owned());
    }
    None
}

/// The number written right after `label` in `text`.
fn number_after(text: &str, label: &str) -> Option<u64> {
    let start = text.find(label)? + label.len();
    let digits: String = text[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The columns of the file that the plan's SQL names (as quoted identifiers).
fn used_columns(header: &Header, plan: &Plan) -> Vec<String> {
    let mut sql = select(&plan.main, "", "");
    if let Some((exprs, from)) = &plan.extra {
        sql += &select(exprs, "", from);
    }
    if let ProviderSource::Column(column) = &plan.provider {
        sql += &quote_ident(column);
    }
    for check in &plan.checks {
        sql += &check.bad;
        sql += &quote_ident(&check.column);
    }
    header
        .names()
        .iter()
        .filter(|name| sql.contains(&quote_ident(name)))
        .cloned()
        .collect()
}

fn select(exprs: &Exprs, provider: &str, from: &str) -> String {
    format!("SELECT {} FROM {from}", exprs.select_list(provider))
}
