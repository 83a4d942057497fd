//! A [`ResourceQuery`] as SQL: fixed text with every value bound (nothing of the query is ever
//! spliced into the SQL). The pieces are backend-neutral; `sql.rs` pushes them onto the
//! backend's `sqlx::QueryBuilder` (`push` / `push_bind`). The two dialects differ only in JSON
//! path extraction (SQLite `json_extract` / `json_each`, PostgreSQL `jsonb` operators).

use chrono::{DateTime, Utc};
use costscope_core::inventory::{
    ParamCondition, ResourceOrder, ResourceQuery, ResourceState, TagCondition, TagOperator,
    DEFAULT_RESOURCE_COUNT, MAX_RESOURCE_COUNT,
};

use super::rows::RESOURCE_COLUMNS;

/// The SQL dialect a backend speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

/// A value bound to a placeholder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bind {
    I64(i64),
    Text(String),
    Time(DateTime<Utc>),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece {
    Sql(String),
    Bind(Bind),
}

/// SQL text and bound values, in order.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct SqlParts {
    pub pieces: Vec<Piece>,
}

impl SqlParts {
    fn sql(&mut self, text: &str) -> &mut Self {
        match self.pieces.last_mut() {
            Some(Piece::Sql(last)) => last.push_str(text),
            _ => self.pieces.push(Piece::Sql(text.to_owned())),
        }
        self
    }

    fn bind(&mut self, value: Bind) -> &mut Self {
        self.pieces.push(Piece::Bind(value));
        self
    }

    fn text(&mut self, value: &str) -> &mut Self {
        self.bind(Bind::Text(value.to_owned()))
    }

    fn time(&mut self, value: DateTime<Utc>) -> &mut Self {
        self.bind(Bind::Time(value))
    }

    /// `(?, ?, …)` of the texts (callers never pass an empty list).
    fn text_list(&mut self, values: &[String]) -> &mut Self {
        self.sql("(");
        for (n, value) in values.iter().enumerate() {
            if n > 0 {
                self.sql(", ");
            }
            self.text(value);
        }
        self.sql(")")
    }

    /// The SQL with `?` for each bound value (for tests and logs).
    #[cfg(test)]
    pub fn debug_sql(&self) -> String {
        self.pieces
            .iter()
            .map(|piece| match piece {
                Piece::Sql(text) => text.clone(),
                Piece::Bind(_) => "?".to_owned(),
            })
            .collect()
    }

    #[cfg(test)]
    pub fn binds(&self) -> Vec<Bind> {
        self.pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Bind(bind) => Some(bind.clone()),
                Piece::Sql(_) => None,
            })
            .collect()
    }
}

/// One page of resources matching the query, in its order.
pub(crate) fn resource_page(dialect: Dialect, customer_id: i64, query: &ResourceQuery) -> SqlParts {
    let mut parts = SqlParts::default();
    parts.sql(&format!(
        "SELECT {RESOURCE_COLUMNS} FROM resources r WHERE "
    ));
    push_filters(&mut parts, dialect, customer_id, query);
    let direction = if query.order_desc { "DESC" } else { "ASC" };
    let column = match query.order_by {
        ResourceOrder::CTime => "r.c_time",
        ResourceOrder::MTime => "r.m_time",
        ResourceOrder::DTime => "r.d_time",
        ResourceOrder::ResourceId => "r.resource_id",
        ResourceOrder::ResourceType => "r.resource_type",
        ResourceOrder::Region => "r.region",
        ResourceOrder::AccountId => "r.account_id",
    };
    // Live resources (no d_time) after the deleted ones whichever the direction.
    let nulls = if query.order_by == ResourceOrder::DTime {
        " NULLS LAST"
    } else {
        ""
    };
    parts.sql(&format!(
        " ORDER BY {column} {direction}{nulls}, r.account_id {direction}, r.region {direction}, \
         r.resource_type {direction}, r.resource_id {direction} LIMIT "
    ));
    let count = match query.count {
        0 => DEFAULT_RESOURCE_COUNT,
        count => count.min(MAX_RESOURCE_COUNT),
    };
    parts.bind(Bind::I64(i64::from(count)));
    parts.sql(" OFFSET ");
    parts.bind(Bind::I64(i64::from(query.offset)));
    parts
}

/// How many resources match the query's filters.
pub(crate) fn resource_count(
    dialect: Dialect,
    customer_id: i64,
    query: &ResourceQuery,
) -> SqlParts {
    let mut parts = SqlParts::default();
    parts.sql("SELECT COUNT(*) FROM resources r WHERE ");
    push_filters(&mut parts, dialect, customer_id, query);
    parts
}

fn push_filters(parts: &mut SqlParts, dialect: Dialect, customer_id: i64, query: &ResourceQuery) {
    parts.sql("r.customer_id = ");
    parts.bind(Bind::I64(customer_id));
    for (column, values) in [
        ("r.account_id", &query.account_ids),
        ("r.region", &query.regions),
        ("r.resource_type", &query.resource_types),
    ] {
        if !values.is_empty() {
            parts.sql(&format!(" AND {column} IN "));
            parts.text_list(values);
        }
    }
    match query.state {
        ResourceState::All => {}
        ResourceState::Live => {
            parts.sql(" AND r.d_time IS NULL");
        }
        ResourceState::Deleted => {
            parts.sql(" AND r.d_time IS NOT NULL");
        }
    }
    if let Some(before) = query.deleted_before {
        parts
            .sql(" AND r.d_time IS NOT NULL AND r.d_time < ")
            .time(before);
    }
    if let Some(before) = query.created_before {
        parts.sql(" AND r.c_time < ").time(before);
    }
    if let Some(end) = query.window_end {
        parts.sql(" AND r.c_time < ").time(end);
    }
    if let Some(start) = query.window_start {
        parts
            .sql(" AND (r.d_time IS NULL OR r.d_time >= ")
            .time(start)
            .sql(")");
    }
    if !query.resource_ids.is_empty() {
        parts.sql(" AND (r.resource_id IN ");
        parts.text_list(&query.resource_ids);
        parts.sql(" OR r.arn IN ");
        parts.text_list(&query.resource_ids);
        parts.sql(")");
    }
    if let Some(search) = query
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let pattern = format!("%{}%", escape_like(&search.to_lowercase()));
        parts.sql(" AND (lower(r.resource_id) LIKE ").text(&pattern);
        parts
            .sql(" ESCAPE '\\' OR lower(COALESCE(r.arn, '')) LIKE ")
            .text(&pattern);
        parts.sql(
            " ESCAPE '\\' OR EXISTS (SELECT 1 FROM resource_tags t WHERE t.resource = r.id \
             AND lower(t.value) LIKE ",
        );
        parts.text(&pattern).sql(" ESCAPE '\\'))");
    }
    for condition in &query.params {
        parts.sql(" AND ");
        push_param(parts, dialect, condition);
    }
    for condition in &query.tags {
        parts.sql(" AND ");
        push_tag(parts, customer_id, condition);
    }
    if query.not_tagged {
        parts.sql(" AND r.tags = '{}'");
    }
}

/// `%`, `_` and the escape itself taken literally (`ESCAPE '\'`).
fn escape_like(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

fn push_tag(parts: &mut SqlParts, customer_id: i64, condition: &TagCondition) {
    // The current tags, one row per key; customer_id leads the (customer_id, key, value) index.
    let exists = |parts: &mut SqlParts, negate: bool, value_rule: &dyn Fn(&mut SqlParts)| {
        parts.sql(if negate { "NOT EXISTS" } else { "EXISTS" });
        parts.sql(" (SELECT 1 FROM resource_tags t WHERE t.customer_id = ");
        parts.bind(Bind::I64(customer_id));
        parts
            .sql(" AND t.resource = r.id AND t.key = ")
            .text(&condition.key);
        value_rule(parts);
        parts.sql(")");
    };
    match condition.operator {
        TagOperator::Equal | TagOperator::NotEqual if condition.values.is_empty() => {
            // No value can match: Equal matches nothing, NotEqual everything.
            parts.sql(if condition.operator == TagOperator::Equal {
                "1 = 0"
            } else {
                "1 = 1"
            });
        }
        TagOperator::Equal | TagOperator::NotEqual => {
            exists(
                parts,
                condition.operator == TagOperator::NotEqual,
                &|parts| {
                    parts.sql(" AND t.value IN ");
                    parts.text_list(&condition.values);
                },
            );
        }
        TagOperator::Exists => exists(parts, false, &|_| {}),
        TagOperator::NotExists => exists(parts, true, &|_| {}),
        TagOperator::Empty => exists(parts, false, &|parts| {
            parts.sql(" AND t.value = ''");
        }),
        TagOperator::NotEmpty => exists(parts, false, &|parts| {
            parts.sql(" AND t.value <> ''");
        }),
    }
}

/// The flat path's object keys between list levels: `A.B[].C` is `[[A, B], [C]]`. `None`
/// when a key is empty or holds a character the path syntax cannot carry (`"`, `\`).
fn path_levels(flat_path: &str) -> Option<Vec<Vec<&str>>> {
    let mut levels = Vec::new();
    for (n, level) in flat_path.split("[]").enumerate() {
        let level = if n > 0 {
            match level.strip_prefix('.') {
                Some(rest) => rest,
                None if level.is_empty() => level,
                None => return None,
            }
        } else {
            level
        };
        let keys: Vec<&str> = if level.is_empty() {
            Vec::new()
        } else {
            level.split('.').collect()
        };
        if keys
            .iter()
            .any(|key| key.is_empty() || key.contains(['"', '\\']))
        {
            return None;
        }
        levels.push(keys);
    }
    if levels.first().is_some_and(Vec::is_empty) {
        return None;
    }
    Some(levels)
}

/// The value at the path equals the condition's value as text (`true`, `12`, `us-east-1a`);
/// through a list level, any item's does.
fn push_param(parts: &mut SqlParts, dialect: Dialect, condition: &ParamCondition) {
    let Some(levels) = path_levels(condition.flat_path.trim()) else {
        parts.sql("1 = 0");
        return;
    };
    match dialect {
        Dialect::Sqlite => {
            // Every level addresses the top document by path; json_each's `fullkey` names
            // each list item (`$."SecurityGroups"[0]`).
            let mut base = "'$'".to_owned();
            let last = levels.len() - 1;
            for (n, keys) in levels.iter().enumerate() {
                let rest: String = keys.iter().map(|key| format!(".\"{key}\"")).collect();
                if n == last {
                    parts.sql(&format!("(CASE json_type(r.properties, {base} || "));
                    parts.text(&rest);
                    parts.sql(&format!(
                        ") WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' \
                         ELSE CAST(json_extract(r.properties, {base} || "
                    ));
                    parts.text(&rest);
                    parts.sql(") AS TEXT) END) = ").text(&condition.value);
                } else {
                    parts.sql(&format!(
                        "EXISTS (SELECT 1 FROM json_each(r.properties, {base} || "
                    ));
                    parts.text(&rest);
                    parts.sql(&format!(") j{n} WHERE "));
                    base = format!("j{n}.fullkey");
                }
            }
            parts.sql(&")".repeat(last));
        }
        Dialect::Postgres => {
            let mut doc = "r.properties::jsonb".to_owned();
            let last = levels.len() - 1;
            for (n, keys) in levels.iter().enumerate() {
                let path = pg_text_array(keys);
                if n == last {
                    parts.sql(&format!("({doc} #>> "));
                    parts.text(&path);
                    parts.sql("::text[]) = ").text(&condition.value);
                } else {
                    parts.sql(&format!(
                        "EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof({doc} #> "
                    ));
                    parts.text(&path);
                    parts.sql(&format!("::text[]) = 'array' THEN {doc} #> "));
                    parts.text(&path);
                    parts.sql(&format!("::text[] ELSE '[]'::jsonb END) AS j{n}(v) WHERE "));
                    doc = format!("j{n}.v");
                }
            }
            parts.sql(&")".repeat(last));
        }
    }
}

/// A PostgreSQL array literal of the keys (`{"A","B"}`); keys hold no `"` or `\`.
fn pg_text_array(keys: &[&str]) -> String {
    let items: Vec<String> = keys.iter().map(|key| format!("\"{key}\"")).collect();
    format!("{{{}}}", items.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_levels_split_lists_and_refuse_bad_keys() {
        assert_eq!(
            path_levels("SecurityGroups[].GroupId"),
            Some(vec![vec!["SecurityGroups"], vec!["GroupId"]])
        );
        assert_eq!(
            path_levels("Placement.AvailabilityZone"),
            Some(vec![vec!["Placement", "AvailabilityZone"]])
        );
        assert_eq!(path_levels("Names[]"), Some(vec![vec!["Names"], vec![]]));
        assert_eq!(path_levels("a\"b"), None);
        assert_eq!(path_levels("a..b"), None);
        assert_eq!(path_levels("[].a"), None);
        assert_eq!(path_levels("a[]b"), None);
    }

    #[test]
    fn every_value_is_bound() {
        let query = ResourceQuery {
            account_ids: vec!["1'; DROP TABLE resources; --".to_owned()],
            search: Some("50%_off".to_owned()),
            tags: vec![TagCondition {
                key: "env".to_owned(),
                operator: TagOperator::Equal,
                values: vec!["prod".to_owned()],
            }],
            params: vec![ParamCondition {
                flat_path: "SecurityGroups[].GroupId".to_owned(),
                value: "sg-1".to_owned(),
            }],
            ..ResourceQuery::default()
        };
        for dialect in [Dialect::Sqlite, Dialect::Postgres] {
            let parts = resource_page(dialect, 7, &query);
            let sql = parts.debug_sql();
            assert!(!sql.contains("DROP"), "{sql}");
            assert!(!sql.contains("prod"), "{sql}");
            assert!(!sql.contains("sg-1"), "{sql}");
            assert!(!sql.contains("50"), "{sql}");
            assert!(parts
                .binds()
                .contains(&Bind::Text("%50\\%\\_off%".to_owned())));
        }
    }
}
