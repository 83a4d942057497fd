//! The inventory's SQL, shared by both backends like `sql_store.rs`: the macro stamps
//! [`crate::inventory::InventoryStore`] onto each backend's store. `$dialect` picks the JSON
//! path syntax of the query builder; `$skip_locked` is appended to the claim's row lookup
//! (PostgreSQL's `FOR UPDATE SKIP LOCKED`; SQLite's single writer needs none).

macro_rules! impl_inventory_store {
    ($store:ty, $db:ty, $dialect:expr, $skip_locked:literal) => {
        /// The query's pieces on this backend's builder: text pushed, values bound.
        fn inventory_builder(
            parts: crate::inventory::query::SqlParts,
        ) -> sqlx::QueryBuilder<'static, $db> {
            use crate::inventory::query::{Bind, Piece};
            let mut builder = sqlx::QueryBuilder::<$db>::new("");
            for piece in parts.pieces {
                match piece {
                    Piece::Sql(text) => {
                        builder.push(text);
                    }
                    Piece::Bind(Bind::I64(value)) => {
                        builder.push_bind(value);
                    }
                    Piece::Bind(Bind::Text(value)) => {
                        builder.push_bind(value);
                    }
                    Piece::Bind(Bind::Time(value)) => {
                        builder.push_bind(value);
                    }
                }
            }
            builder
        }

        /// Replaces a resource's current tags.
        async fn replace_resource_tags(
            tx: &mut sqlx::Transaction<'_, $db>,
            customer_id: i64,
            resource: i64,
            tags: &std::collections::BTreeMap<String, String>,
        ) -> Result<(), crate::StoreError> {
            sqlx::query("DELETE FROM resource_tags WHERE resource = $1")
                .bind(resource)
                .execute(&mut **tx)
                .await?;
            insert_resource_tags(tx, customer_id, resource, tags).await
        }

        async fn insert_resource_tags(
            tx: &mut sqlx::Transaction<'_, $db>,
            customer_id: i64,
            resource: i64,
            tags: &std::collections::BTreeMap<String, String>,
        ) -> Result<(), crate::StoreError> {
            if tags.is_empty() {
                return Ok(());
            }
            let mut builder = sqlx::QueryBuilder::<$db>::new(
                "INSERT INTO resource_tags (customer_id, resource, key, value) ",
            );
            builder.push_values(tags, |mut row, (key, value)| {
                row.push_bind(customer_id)
                    .push_bind(resource)
                    .push_bind(key.clone())
                    .push_bind(value.clone());
            });
            builder.build().execute(&mut **tx).await?;
            Ok(())
        }

        async fn insert_snapshot(
            tx: &mut sqlx::Transaction<'_, $db>,
            customer_id: i64,
            resource: i64,
            now: chrono::DateTime<chrono::Utc>,
            properties: &str,
            tags: &str,
        ) -> Result<(), crate::StoreError> {
            sqlx::query(
                "INSERT INTO resource_snapshots (customer_id, resource, c_time, properties, tags) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(customer_id)
            .bind(resource)
            .bind(now)
            .bind(properties)
            .bind(tags)
            .execute(&mut **tx)
            .await?;
            Ok(())
        }

        #[async_trait::async_trait]
        impl crate::inventory::InventoryStore for $store {
            #[tracing::instrument(skip_all, fields(customer_id = write.customer_id, account_id = write.account_id))]
            async fn record_discovery(
                &self,
                write: crate::inventory::DiscoveryWrite<'_>,
            ) -> Result<crate::inventory::DiscoveryDiff, crate::StoreError> {
                use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
                use crate::inventory::rows::KnownResourceRow;
                use crate::inventory::{canonical_json, tags_json, DiscoveryDiff};
                let now = write.now;
                // The last listing of a resource wins.
                let mut found: BTreeMap<(&str, &str, &str, &str), &costscope_core::inventory::DiscoveredResource> =
                    BTreeMap::new();
                for resource in write.resources {
                    found.insert(
                        (
                            resource.account_id.as_str(),
                            resource.region.as_str(),
                            resource.resource_type.as_str(),
                            resource.resource_id.as_str(),
                        ),
                        resource,
                    );
                }
                let accounts: BTreeSet<&str> = found
                    .keys()
                    .map(|key| key.0)
                    .chain(std::iter::once(write.account_id))
                    .collect();
                let mut tx = self.begin_write().await?;
                // SQLite: a write first takes the write lock, so nothing changes between the
                // reads below and the writes after them. PostgreSQL: a no-op.
                sqlx::query("UPDATE resources SET last_seen = last_seen WHERE id = -1")
                    .execute(&mut *tx)
                    .await?;
                let mut known: HashMap<(String, String, String, String), KnownResourceRow> =
                    HashMap::new();
                for account in &accounts {
                    let rows: Vec<KnownResourceRow> = sqlx::query_as(
                        "SELECT id, region, resource_type, resource_id, d_time, properties, tags \
                         FROM resources WHERE customer_id = $1 AND account_id = $2",
                    )
                    .bind(write.customer_id)
                    .bind(*account)
                    .fetch_all(&mut *tx)
                    .await?;
                    for row in rows {
                        known.insert(
                            (
                                (*account).to_owned(),
                                row.region.clone(),
                                row.resource_type.clone(),
                                row.resource_id.clone(),
                            ),
                            row,
                        );
                    }
                }
                let mut diff = DiscoveryDiff::default();
                for (key, resource) in &found {
                    let properties = canonical_json(&resource.properties);
                    let tags = tags_json(&resource.tags);
                    let metrics = resource.metrics.as_ref().map(canonical_json);
                    let owned_key = (
                        key.0.to_owned(),
                        key.1.to_owned(),
                        key.2.to_owned(),
                        key.3.to_owned(),
                    );
                    match known.remove(&owned_key) {
                        None => {
                            let id: i64 = sqlx::query_scalar(
                                "INSERT INTO resources (customer_id, connection_id, account_id, \
                                 region, resource_type, resource_id, arn, c_time, m_time, d_time, \
                                 last_seen, properties, tags, metrics) \
                                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, NULL, $8, $9, $10, $11) \
                                 RETURNING id",
                            )
                            .bind(write.customer_id)
                            .bind(write.connection_id)
                            .bind(&resource.account_id)
                            .bind(&resource.region)
                            .bind(&resource.resource_type)
                            .bind(&resource.resource_id)
                            .bind(resource.arn.as_deref())
                            .bind(now)
                            .bind(&properties)
                            .bind(&tags)
                            .bind(metrics.as_deref())
                            .fetch_one(&mut *tx)
                            .await?;
                            insert_snapshot(&mut tx, write.customer_id, id, now, &properties, &tags)
                                .await?;
                            insert_resource_tags(&mut tx, write.customer_id, id, &resource.tags)
                                .await?;
                            diff.created += 1;
                        }
                        Some(row) => {
                            let revived = row.d_time.is_some();
                            let tags_changed = row.tags != tags;
                            if revived || tags_changed || row.properties != properties {
                                sqlx::query(
                                    "UPDATE resources SET connection_id = $1, arn = $2, m_time = $3, \
                                     d_time = NULL, last_seen = $3, properties = $4, tags = $5, \
                                     metrics = $6 WHERE id = $7",
                                )
                                .bind(write.connection_id)
                                .bind(resource.arn.as_deref())
                                .bind(now)
                                .bind(&properties)
                                .bind(&tags)
                                .bind(metrics.as_deref())
                                .bind(row.id)
                                .execute(&mut *tx)
                                .await?;
                                insert_snapshot(
                                    &mut tx,
                                    write.customer_id,
                                    row.id,
                                    now,
                                    &properties,
                                    &tags,
                                )
                                .await?;
                                if tags_changed {
                                    replace_resource_tags(
                                        &mut tx,
                                        write.customer_id,
                                        row.id,
                                        &resource.tags,
                                    )
                                    .await?;
                                }
                                if revived {
                                    diff.revived += 1;
                                } else {
                                    diff.changed += 1;
                                }
                            } else {
                                sqlx::query(
                                    "UPDATE resources SET connection_id = $1, arn = $2, \
                                     last_seen = $3, metrics = $4 WHERE id = $5",
                                )
                                .bind(write.connection_id)
                                .bind(resource.arn.as_deref())
                                .bind(now)
                                .bind(metrics.as_deref())
                                .bind(row.id)
                                .execute(&mut *tx)
                                .await?;
                                diff.unchanged += 1;
                            }
                        }
                    }
                }
                // Not found: deleted only where the scan was complete.
                let scopes: HashSet<(&str, &str)> = write
                    .complete_scopes
                    .iter()
                    .map(|(region, resource_type)| (region.as_str(), resource_type.as_str()))
                    .collect();
                for ((account, region, resource_type, _), row) in &known {
                    if account == write.account_id
                        && row.d_time.is_none()
                        && scopes.contains(&(region.as_str(), resource_type.as_str()))
                    {
                        sqlx::query("UPDATE resources SET d_time = $1 WHERE id = $2")
                            .bind(now)
                            .bind(row.id)
                            .execute(&mut *tx)
                            .await?;
                        diff.deleted += 1;
                    }
                }
                tx.commit().await?;
                Ok(diff)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_resources(
                &self,
                customer_id: i64,
                query: &costscope_core::inventory::ResourceQuery,
            ) -> Result<Vec<costscope_core::inventory::Resource>, crate::StoreError> {
                use crate::inventory::rows::ResourceRow;
                let mut builder = inventory_builder(crate::inventory::query::resource_page(
                    $dialect,
                    customer_id,
                    query,
                ));
                let rows: Vec<ResourceRow> =
                    builder.build_query_as().fetch_all(&self.pool).await?;
                crate::inventory::rows::resources(rows)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn count_matching_resources(
                &self,
                customer_id: i64,
                query: &costscope_core::inventory::ResourceQuery,
            ) -> Result<u64, crate::StoreError> {
                let mut builder = inventory_builder(crate::inventory::query::resource_count(
                    $dialect,
                    customer_id,
                    query,
                ));
                let count: i64 = builder.build_query_scalar().fetch_one(&self.pool).await?;
                Ok(u64::try_from(count).unwrap_or(0))
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn get_resource(
                &self,
                customer_id: i64,
                key: &costscope_core::inventory::ResourceKey,
            ) -> Result<Option<costscope_core::inventory::Resource>, crate::StoreError> {
                use crate::inventory::rows::{ResourceRow, RESOURCE_COLUMNS};
                let row: Option<ResourceRow> = sqlx::query_as(&format!(
                    "SELECT {RESOURCE_COLUMNS} FROM resources r WHERE r.customer_id = $1 \
                     AND r.account_id = $2 AND r.region = $3 AND r.resource_type = $4 \
                     AND r.resource_id = $5"
                ))
                .bind(customer_id)
                .bind(&key.account_id)
                .bind(&key.region)
                .bind(&key.resource_type)
                .bind(&key.resource_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id, count))]
            async fn resource_snapshots(
                &self,
                customer_id: i64,
                key: &costscope_core::inventory::ResourceKey,
                count: u32,
                newest_first: bool,
            ) -> Result<Vec<costscope_core::inventory::PropertySnapshot>, crate::StoreError> {
                use crate::inventory::rows::SnapshotRow;
                let direction = if newest_first { "DESC" } else { "ASC" };
                let rows: Vec<SnapshotRow> = sqlx::query_as(&format!(
                    "SELECT s.id, s.c_time, s.properties, s.tags FROM resource_snapshots s \
                     JOIN resources r ON r.id = s.resource \
                     WHERE r.customer_id = $1 AND s.customer_id = $1 AND r.account_id = $2 \
                     AND r.region = $3 AND r.resource_type = $4 AND r.resource_id = $5 \
                     ORDER BY s.c_time {direction}, s.id {direction} LIMIT $6"
                ))
                .bind(customer_id)
                .bind(&key.account_id)
                .bind(&key.region)
                .bind(&key.resource_type)
                .bind(&key.resource_id)
                .bind(i64::from(count))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn resource_type_counts(
                &self,
                customer_id: i64,
                account_ids: &[String],
                include_deleted: bool,
            ) -> Result<Vec<crate::inventory::ResourceTypeCount>, crate::StoreError> {
                let mut builder = sqlx::QueryBuilder::<$db>::new(
                    "SELECT account_id, region, resource_type, COUNT(*) FROM resources \
                     WHERE customer_id = ",
                );
                builder.push_bind(customer_id);
                if !include_deleted {
                    builder.push(" AND d_time IS NULL");
                }
                if !account_ids.is_empty() {
                    builder.push(" AND account_id IN (");
                    let mut list = builder.separated(", ");
                    for account_id in account_ids {
                        list.push_bind(account_id.clone());
                    }
                    builder.push(")");
                }
                builder.push(
                    " GROUP BY account_id, region, resource_type \
                     ORDER BY account_id, region, resource_type",
                );
                let rows: Vec<(String, String, String, i64)> =
                    builder.build_query_as().fetch_all(&self.pool).await?;
                Ok(rows
                    .into_iter()
                    .map(|(account_id, region, resource_type, count)| {
                        crate::inventory::ResourceTypeCount {
                            account_id,
                            region,
                            resource_type,
                            count: u64::try_from(count).unwrap_or(0),
                        }
                    })
                    .collect())
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn resource_params(
                &self,
                customer_id: i64,
                resource_types: &[String],
            ) -> Result<Vec<(String, costscope_core::inventory::ResourceParam)>, crate::StoreError> {
                let types: Vec<String> = if resource_types.is_empty() {
                    sqlx::query_scalar(
                        "SELECT DISTINCT resource_type FROM resources \
                         WHERE customer_id = $1 AND d_time IS NULL ORDER BY resource_type",
                    )
                    .bind(customer_id)
                    .fetch_all(&self.pool)
                    .await?
                } else {
                    let mut types = resource_types.to_vec();
                    types.sort();
                    types.dedup();
                    types
                };
                let mut params = Vec::new();
                for resource_type in types {
                    let samples: Vec<(i64, String)> = sqlx::query_as(
                        "SELECT id, properties FROM resources \
                         WHERE customer_id = $1 AND resource_type = $2 AND d_time IS NULL \
                         ORDER BY m_time DESC, id DESC LIMIT 50",
                    )
                    .bind(customer_id)
                    .bind(&resource_type)
                    .fetch_all(&self.pool)
                    .await?;
                    let samples = samples
                        .into_iter()
                        .map(|(id, properties)| {
                            crate::inventory::rows::parse_json(
                                &properties,
                                "resources.properties",
                                id,
                            )
                        })
                        .collect::<Result<Vec<serde_json::Value>, _>>()?;
                    params.extend(
                        costscope_core::inventory::params::flat_paths_of(&samples)
                            .into_iter()
                            .map(|param| (resource_type.clone(), param)),
                    );
                }
                Ok(params)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn resource_trend(
                &self,
                customer_id: i64,
                account_ids: &[String],
                from: chrono::NaiveDate,
                to: chrono::NaiveDate,
            ) -> Result<Vec<crate::inventory::ResourceTrendPoint>, crate::StoreError> {
                if to < from {
                    return Ok(Vec::new());
                }
                let end_of = |day: chrono::NaiveDate| {
                    (day + chrono::Duration::days(1))
                        .and_time(chrono::NaiveTime::MIN)
                        .and_utc()
                };
                let mut builder = sqlx::QueryBuilder::<$db>::new(
                    "SELECT resource_type, c_time, d_time FROM resources WHERE customer_id = ",
                );
                builder.push_bind(customer_id);
                builder.push(" AND c_time < ");
                builder.push_bind(end_of(to));
                builder.push(" AND (d_time IS NULL OR d_time >= ");
                builder.push_bind(end_of(from));
                builder.push(")");
                if !account_ids.is_empty() {
                    builder.push(" AND account_id IN (");
                    let mut list = builder.separated(", ");
                    for account_id in account_ids {
                        list.push_bind(account_id.clone());
                    }
                    builder.push(")");
                }
                let rows: Vec<(
                    String,
                    chrono::DateTime<chrono::Utc>,
                    Option<chrono::DateTime<chrono::Utc>>,
                )> = builder.build_query_as().fetch_all(&self.pool).await?;
                Ok(crate::inventory::trend_points(rows, from, to))
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn resource_identifiers(
                &self,
                customer_id: i64,
            ) -> Result<Vec<String>, crate::StoreError> {
                let rows: Vec<(String, Option<String>)> = sqlx::query_as(
                    "SELECT resource_id, arn FROM resources WHERE customer_id = $1",
                )
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .into_iter()
                    .flat_map(|(id, arn)| std::iter::once(id).chain(arn))
                    .collect())
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn live_resources(
                &self,
                customer_id: i64,
                resource_types: &[String],
            ) -> Result<Vec<costscope_core::inventory::Resource>, crate::StoreError> {
                use crate::inventory::rows::{ResourceRow, RESOURCE_COLUMNS};
                let mut builder = sqlx::QueryBuilder::<$db>::new(format!(
                    "SELECT {RESOURCE_COLUMNS} FROM resources r WHERE r.d_time IS NULL \
                     AND r.customer_id = "
                ));
                builder.push_bind(customer_id);
                if !resource_types.is_empty() {
                    builder.push(" AND r.resource_type IN (");
                    let mut list = builder.separated(", ");
                    for resource_type in resource_types {
                        list.push_bind(resource_type.clone());
                    }
                    builder.push(")");
                }
                builder.push(" ORDER BY r.account_id, r.region, r.resource_type, r.resource_id");
                let rows: Vec<ResourceRow> =
                    builder.build_query_as().fetch_all(&self.pool).await?;
                crate::inventory::rows::resources(rows)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn list_standard_tags(
                &self,
                customer_id: i64,
            ) -> Result<Vec<costscope_core::inventory::StandardTag>, crate::StoreError> {
                use crate::inventory::rows::{StandardTagRow, STANDARD_TAG_COLUMNS};
                let rows: Vec<StandardTagRow> = sqlx::query_as(&format!(
                    "SELECT {STANDARD_TAG_COLUMNS} FROM standard_tags WHERE customer_id = $1 ORDER BY id"
                ))
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn create_standard_tag(
                &self,
                customer_id: i64,
                tag: &costscope_core::inventory::StandardTagInput,
            ) -> Result<costscope_core::inventory::StandardTag, crate::StoreError> {
                use crate::inventory::rows::{StandardTagRow, STANDARD_TAG_COLUMNS};
                let values = serde_json::to_string(&tag.values)
                    .map_err(|err| crate::StoreError::Corrupt(err.to_string()))?;
                let row: StandardTagRow = sqlx::query_as(&format!(
                    "INSERT INTO standard_tags (customer_id, key, tag_values, created_at) \
                     VALUES ($1, $2, $3, $4) RETURNING {STANDARD_TAG_COLUMNS}"
                ))
                .bind(customer_id)
                .bind(&tag.key)
                .bind(values)
                .bind(chrono::Utc::now())
                .fetch_one(&self.pool)
                .await?;
                row.try_into()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn update_standard_tag(
                &self,
                customer_id: i64,
                id: i64,
                tag: &costscope_core::inventory::StandardTagInput,
            ) -> Result<Option<costscope_core::inventory::StandardTag>, crate::StoreError> {
                use crate::inventory::rows::{StandardTagRow, STANDARD_TAG_COLUMNS};
                let values = serde_json::to_string(&tag.values)
                    .map_err(|err| crate::StoreError::Corrupt(err.to_string()))?;
                let row: Option<StandardTagRow> = sqlx::query_as(&format!(
                    "UPDATE standard_tags SET key = $1, tag_values = $2 \
                     WHERE customer_id = $3 AND id = $4 RETURNING {STANDARD_TAG_COLUMNS}"
                ))
                .bind(&tag.key)
                .bind(values)
                .bind(customer_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(TryInto::try_into).transpose()
            }

            #[tracing::instrument(skip_all, fields(customer_id, id))]
            async fn delete_standard_tag(
                &self,
                customer_id: i64,
                id: i64,
            ) -> Result<bool, crate::StoreError> {
                let deleted =
                    sqlx::query("DELETE FROM standard_tags WHERE customer_id = $1 AND id = $2")
                        .bind(customer_id)
                        .bind(id)
                        .execute(&self.pool)
                        .await?;
                Ok(deleted.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn request_discovery(
                &self,
                customer_id: i64,
                now: chrono::DateTime<chrono::Utc>,
                daily_limit: u32,
            ) -> Result<crate::inventory::DiscoveryRequest, crate::StoreError> {
                use crate::inventory::DiscoveryRequest;
                let mut tx = self.begin_write().await?;
                // A write on the customer's row first: SQLite takes its write lock, PostgreSQL
                // locks the row, so the customer's requests run one after the other and two
                // clicks never queue two runs (the unique index on active runs backs this up).
                sqlx::query("UPDATE customers SET tier = tier WHERE id = $1")
                    .bind(customer_id)
                    .execute(&mut *tx)
                    .await?;
                let active: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM discovery_runs \
                     WHERE customer_id = $1 AND state IN ('queued', 'running')",
                )
                .bind(customer_id)
                .fetch_one(&mut *tx)
                .await?;
                if active > 0 {
                    tx.commit().await?;
                    return Ok(DiscoveryRequest::AlreadyRunning);
                }
                let day_start = now.date_naive().and_time(chrono::NaiveTime::MIN).and_utc();
                let used: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM discovery_runs WHERE customer_id = $1 \
                     AND run_trigger = 'on_demand' AND requested_at >= $2",
                )
                .bind(customer_id)
                .bind(day_start)
                .fetch_one(&mut *tx)
                .await?;
                if used >= i64::from(daily_limit) {
                    tx.commit().await?;
                    return Ok(DiscoveryRequest::LimitReached);
                }
                let id: Option<i64> = sqlx::query_scalar(
                    "INSERT INTO discovery_runs (customer_id, run_trigger, state, requested_at) \
                     VALUES ($1, 'on_demand', 'queued', $2) ON CONFLICT DO NOTHING RETURNING id",
                )
                .bind(customer_id)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(id.map_or(DiscoveryRequest::AlreadyRunning, DiscoveryRequest::Queued))
            }

            #[tracing::instrument(skip_all, fields(limit))]
            async fn claim_due_discoveries(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                interval: chrono::Duration,
                limit: usize,
            ) -> Result<Vec<crate::inventory::DiscoveryClaim>, crate::StoreError> {
                use crate::inventory::{DiscoveryClaim, DiscoveryTrigger};
                if limit == 0 {
                    return Ok(Vec::new());
                }
                let mut tx = self.begin_write().await?;
                // SQLite: take the write lock before reading (see claim_due_syncs).
                sqlx::query("UPDATE discovery_runs SET state = state WHERE id = -1")
                    .execute(&mut *tx)
                    .await?;
                let queued: Vec<(i64, i64)> = sqlx::query_as(&format!(
                    "SELECT id, customer_id FROM discovery_runs WHERE state = 'queued' \
                     ORDER BY requested_at, id LIMIT $1{}",
                    $skip_locked
                ))
                .bind(i64::try_from(limit).unwrap_or(i64::MAX))
                .fetch_all(&mut *tx)
                .await?;
                let mut claims = Vec::with_capacity(queued.len());
                for (run_id, customer_id) in queued {
                    sqlx::query(
                        "UPDATE discovery_runs SET state = 'running', started_at = $1 WHERE id = $2",
                    )
                    .bind(now)
                    .bind(run_id)
                    .execute(&mut *tx)
                    .await?;
                    claims.push(DiscoveryClaim {
                        run_id,
                        customer_id,
                        trigger: DiscoveryTrigger::OnDemand,
                    });
                }
                if interval > chrono::Duration::zero() && claims.len() < limit {
                    let due_before = now - interval;
                    let due: Vec<i64> = sqlx::query_scalar(
                        "SELECT c.id FROM customers c \
                         WHERE EXISTS (SELECT 1 FROM cloud_accounts a \
                             WHERE a.customer_id = c.id AND a.provider = 'aws') \
                         AND NOT EXISTS (SELECT 1 FROM discovery_runs d WHERE d.customer_id = c.id \
                             AND (d.state IN ('queued', 'running') OR d.finished_at > $1)) \
                         ORDER BY (SELECT MAX(d.finished_at) FROM discovery_runs d \
                             WHERE d.customer_id = c.id) NULLS FIRST, c.id \
                         LIMIT $2",
                    )
                    .bind(due_before)
                    .bind(i64::try_from(limit - claims.len()).unwrap_or(i64::MAX))
                    .fetch_all(&mut *tx)
                    .await?;
                    for customer_id in due {
                        // A run another server just started for the customer wins (the unique
                        // index on active runs): nothing inserted, nothing claimed.
                        let run_id: Option<i64> = sqlx::query_scalar(
                            "INSERT INTO discovery_runs \
                             (customer_id, run_trigger, state, requested_at, started_at) \
                             VALUES ($1, 'scheduled', 'running', $2, $2) \
                             ON CONFLICT DO NOTHING RETURNING id",
                        )
                        .bind(customer_id)
                        .bind(now)
                        .fetch_optional(&mut *tx)
                        .await?;
                        if let Some(run_id) = run_id {
                            claims.push(DiscoveryClaim {
                                run_id,
                                customer_id,
                                trigger: DiscoveryTrigger::Scheduled,
                            });
                        }
                    }
                }
                tx.commit().await?;
                Ok(claims)
            }

            #[tracing::instrument(skip_all, fields(run_id))]
            async fn finish_discovery(
                &self,
                run_id: i64,
                finished: crate::inventory::DiscoveryFinish,
            ) -> Result<(), crate::StoreError> {
                sqlx::query(
                    "UPDATE discovery_runs SET state = $1, finished_at = $2, summary = $3 \
                     WHERE id = $4 AND state = 'running' \
                     AND $1 IN ('succeeded', 'partial', 'failed')",
                )
                .bind(finished.state.as_str())
                .bind(finished.now)
                .bind(finished.summary.to_string())
                .bind(run_id)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all)]
            async fn fail_interrupted_discoveries(
                &self,
                now: chrono::DateTime<chrono::Utc>,
                started_before: chrono::DateTime<chrono::Utc>,
            ) -> Result<u64, crate::StoreError> {
                let summary =
                    serde_json::json!({ "error": crate::inventory::INTERRUPTED_DISCOVERY });
                let failed = sqlx::query(
                    "UPDATE discovery_runs SET state = 'failed', finished_at = $1, summary = $2 \
                     WHERE state = 'running' AND started_at < $3",
                )
                .bind(now)
                .bind(summary.to_string())
                .bind(started_before)
                .execute(&self.pool)
                .await?;
                Ok(failed.rows_affected())
            }

            #[tracing::instrument(skip_all, fields(customer_id, limit))]
            async fn list_discovery_runs(
                &self,
                customer_id: i64,
                limit: u32,
            ) -> Result<Vec<crate::inventory::DiscoveryRun>, crate::StoreError> {
                use crate::inventory::rows::{DiscoveryRunRow, DISCOVERY_RUN_COLUMNS};
                let rows: Vec<DiscoveryRunRow> = sqlx::query_as(&format!(
                    "SELECT {DISCOVERY_RUN_COLUMNS} FROM discovery_runs WHERE customer_id = $1 \
                     ORDER BY requested_at DESC, id DESC LIMIT $2"
                ))
                .bind(customer_id)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter().map(TryInto::try_into).collect()
            }

            #[tracing::instrument(skip_all, fields(customer_id, user_id))]
            async fn dismiss_recommendation(
                &self,
                customer_id: i64,
                recommendation_id: &str,
                user_id: i64,
                now: chrono::DateTime<chrono::Utc>,
            ) -> Result<(), crate::StoreError> {
                // The user must be one of the customer's (NULL otherwise: nobody to name).
                sqlx::query(
                    "INSERT INTO dismissed_recommendations \
                     (customer_id, recommendation_id, user_id, dismissed_at) \
                     VALUES ($1, $2, (SELECT id FROM users WHERE id = $3 AND customer_id = $1), $4) \
                     ON CONFLICT (customer_id, recommendation_id) DO NOTHING",
                )
                .bind(customer_id)
                .bind(recommendation_id)
                .bind(user_id)
                .bind(now)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn restore_recommendation(
                &self,
                customer_id: i64,
                recommendation_id: &str,
            ) -> Result<bool, crate::StoreError> {
                let deleted = sqlx::query(
                    "DELETE FROM dismissed_recommendations \
                     WHERE customer_id = $1 AND recommendation_id = $2",
                )
                .bind(customer_id)
                .bind(recommendation_id)
                .execute(&self.pool)
                .await?;
                Ok(deleted.rows_affected() > 0)
            }

            #[tracing::instrument(skip_all, fields(customer_id))]
            async fn dismissed_recommendations(
                &self,
                customer_id: i64,
            ) -> Result<Vec<String>, crate::StoreError> {
                let ids: Vec<String> = sqlx::query_scalar(
                    "SELECT recommendation_id FROM dismissed_recommendations \
                     WHERE customer_id = $1 ORDER BY recommendation_id",
                )
                .bind(customer_id)
                .fetch_all(&self.pool)
                .await?;
                Ok(ids)
            }
        }
    };
}

pub(crate) use impl_inventory_store;
