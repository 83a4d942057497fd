//! Spend per resource (a budget's resources table): one query, turned into a page.

use costscope_core::cost::{CurrencyCode, Provider};
use duckdb::types::{Type, Value};
use duckdb::{Connection, Row};

use super::currency;
use super::read::{query_rows, RollupPays};
use crate::query_builder;
use crate::{EngineError, ResourceSpend, ResourcesPage, ResourcesQuery};

pub(crate) fn resources(
    connection: &Connection,
    customer: i64,
    query: &ResourcesQuery,
    display: Option<&CurrencyCode>,
) -> Result<ResourcesPage, EngineError> {
    let plan = RollupPays::default().plan(connection, customer, display)?;
    let conversion = plan.conversion();
    let mut page = ResourcesPage {
        currency: plan.as_is_note(connection, customer)?,
        ..ResourcesPage::default()
    };
    let mut others = (Value::Null, Value::Null);
    let rows = query_rows(
        connection,
        &query_builder::resources_with(customer, query, conversion),
        |row| {
            page.total_count = row.get::<_, i64>(0)?.max(0).unsigned_abs();
            page.resources_cost = row.get(1)?;
            page.total_cost = row.get(2)?;
            if conversion.is_some() {
                others = (row.get(12)?, row.get(13)?);
                page.currency.converted = row.get::<_, Option<bool>>(14)?.unwrap_or_default();
            }
            resource(row)
        },
    )?;
    page.currency.other_currencies = currency::other_currencies(&others.0, &others.1);
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
