//! Spend per resource (a budget's resources table): one query, turned into a page.

use costscope_core::cost::Provider;
use duckdb::types::Type;
use duckdb::{Connection, Row};

use super::read::query_rows;
use crate::query_builder;
use crate::{EngineError, ResourceSpend, ResourcesPage, ResourcesQuery};

pub(crate) fn resources(
    connection: &Connection,
    customer: i64,
    query: &ResourcesQuery,
) -> Result<ResourcesPage, EngineError> {
    let mut page = ResourcesPage::default();
    let rows = query_rows(
        connection,
        &query_builder::resources(customer, query),
        |row| {
            page.total_count = row.get::<_, i64>(0)?.max(0).unsigned_abs();
            page.resources_cost = row.get(1)?;
            page.total_cost = row.get(2)?;
            resource(row)
        },
    )?;
    page.rows = rows.into_iter().flatten().collect();
    Ok(page)
}

/// The resource of an answer row; `None` when the page is empty and the row only carries the
/// totals (NULL resource columns).
fn resource(row: &Row<'_>) -> duckdb::Result<Option<ResourceSpend>> {
    const PROVIDER: usize = 3;
    let Some(code) = row.get::<_, Option<String>>(PROVIDER)? else {
        return Ok(None);
    };
    // Loads store only parseable provider names; anything else is a damaged database.
    let provider = code.parse::<Provider>().map_err(|message| {
        duckdb::Error::FromSqlConversionFailure(PROVIDER, Type::Text, message.into())
    })?;
    Ok(Some(ResourceSpend {
        provider,
        account_id: row.get(4)?,
        account_name: row.get(5)?,
        resource_id: row.get(6)?,
        resource_name: row.get(7)?,
        resource_type: row.get(8)?,
        region: row.get(9)?,
        service: row.get(10)?,
        cost: row.get(11)?,
    }))
}
