//! Throwaway PostgreSQL databases, one per test, so that tests can run in parallel.

use std::sync::atomic::{AtomicU32, Ordering};

use sqlx::{Connection, PgConnection};

/// The environment variable naming a PostgreSQL server for tests
/// (e.g. `postgres://postgres@127.0.0.1:5432/test`).
pub const POSTGRES_URL_VAR: &str = "COSTSCOPE_TEST_POSTGRES_URL";

/// A freshly created, uniquely named database. Call [`TestDatabase::drop_database`] when done.
#[derive(Debug)]
pub struct TestDatabase {
    server_url: String,
    name: String,
    url: String,
}

impl TestDatabase {
    /// Creates a database on the server named by [`POSTGRES_URL_VAR`], if it is set.
    pub async fn create_if_configured() -> Option<Self> {
        let server_url = std::env::var(POSTGRES_URL_VAR).ok()?;
        Some(Self::create(&server_url).await)
    }

    pub async fn create(server_url: &str) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "costscope_test_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            chrono::Utc::now().timestamp_micros()
        );
        let mut admin = PgConnection::connect(server_url)
            .await
            .expect("connect to the test PostgreSQL server");
        // The name is generated above from digits and underscores only.
        sqlx::query(&format!("CREATE DATABASE \"{name}\""))
            .execute(&mut admin)
            .await
            .expect("create test database");
        admin.close().await.expect("close admin connection");
        let base = server_url.split('?').next().unwrap_or(server_url);
        let (server, _) = base.rsplit_once('/').expect("the URL names a database");
        Self {
            server_url: server_url.to_owned(),
            url: format!("{server}/{name}"),
            name,
        }
    }

    /// The URL of the new database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Drops the database, closing any connection still open on it.
    pub async fn drop_database(self) {
        let mut admin = PgConnection::connect(&self.server_url)
            .await
            .expect("connect to the test PostgreSQL server");
        sqlx::query(&format!("DROP DATABASE \"{}\" WITH (FORCE)", self.name))
            .execute(&mut admin)
            .await
            .expect("drop test database");
        admin.close().await.expect("close admin connection");
    }
}

/// A tenant's inventory to generate in bulk (benchmarks and tests): `resources` resources
/// (`gen-0000000`, …) spread over the accounts, six regions and every resource type, each with
/// `snapshots_per_resource` snapshots an hour apart, first seen a minute apart up to `now`;
/// every tenth deleted a day after it was first seen (when that is before `now`); every fifth
/// untagged, the others tagged `env` (`prod`, `staging`, `dev`) and `team` (`web`, `data`,
/// `ops`, `ml`). The customer and the connection must exist.
#[derive(Debug, Clone)]
pub struct InventoryFixture {
    pub customer_id: i64,
    pub connection_id: i64,
    pub account_ids: Vec<String>,
    pub resources: usize,
    pub snapshots_per_resource: usize,
    pub now: chrono::DateTime<chrono::Utc>,
}

/// The regions [`generate_inventory`] spreads resources over.
pub const FIXTURE_REGIONS: [&str; 6] = [
    "us-east-1",
    "us-west-2",
    "eu-west-1",
    "eu-central-1",
    "ap-south-1",
    "ap-northeast-1",
];

struct FixtureResource {
    account_id: String,
    region: &'static str,
    resource_type: &'static str,
    resource_id: String,
    c_time: chrono::DateTime<chrono::Utc>,
    m_time: chrono::DateTime<chrono::Utc>,
    d_time: Option<chrono::DateTime<chrono::Utc>>,
    properties: String,
    tags: std::collections::BTreeMap<String, String>,
}

fn fixture_resource(fixture: &InventoryFixture, n: usize) -> FixtureResource {
    use costscope_core::inventory::resource_types::ALL;
    let minutes_before = i64::try_from(fixture.resources - n).unwrap_or(i64::MAX);
    let c_time = fixture.now - chrono::Duration::minutes(minutes_before);
    let snapshots = i64::try_from(fixture.snapshots_per_resource.max(1)).unwrap_or(1);
    let m_time = c_time + chrono::Duration::hours(snapshots - 1);
    let deleted = c_time + chrono::Duration::days(1);
    let d_time = (n % 10 == 9 && deleted < fixture.now).then_some(deleted);
    let mut tags = std::collections::BTreeMap::new();
    if n % 5 != 0 {
        tags.insert(
            "env".to_owned(),
            ["prod", "staging", "dev"][n % 3].to_owned(),
        );
        tags.insert(
            "team".to_owned(),
            ["web", "data", "ops", "ml"][n % 4].to_owned(),
        );
    }
    let properties = serde_json::json!({
        "Name": format!("gen-{n:07}"),
        "State": (["running", "stopped", "available"][n % 3]),
        "InstanceType": (["t3.micro", "m5.large", "c6g.xlarge", "r5.2xlarge"][n % 4]),
        "Size": n % 500,
        "Placement": { "AvailabilityZone": format!("{}a", FIXTURE_REGIONS[(n / 16) % 6]) },
    });
    FixtureResource {
        account_id: fixture.account_ids[n % fixture.account_ids.len().max(1)].clone(),
        region: FIXTURE_REGIONS[(n / 16) % FIXTURE_REGIONS.len()],
        resource_type: ALL[n % ALL.len()],
        resource_id: format!("gen-{n:07}"),
        c_time,
        m_time,
        d_time,
        properties: crate::inventory::canonical_json(&properties),
        tags,
    }
}

macro_rules! generate_with {
    ($connection:ident, $db:ty, $fixture:ident, $snapshots:ident) => {{
        let mut tx = $connection.begin().await?;
        const CHUNK: usize = 1000;
        let mut start = 0;
        while start < $fixture.resources {
            let end = (start + CHUNK).min($fixture.resources);
            let chunk: Vec<FixtureResource> = (start..end)
                .map(|n| fixture_resource($fixture, n))
                .collect();
            let mut builder = sqlx::QueryBuilder::<$db>::new(
                "INSERT INTO resources (customer_id, connection_id, account_id, region, \
                 resource_type, resource_id, arn, c_time, m_time, d_time, last_seen, properties, \
                 tags, metrics) ",
            );
            builder.push_values(&chunk, |mut row, resource| {
                row.push_bind($fixture.customer_id)
                    .push_bind($fixture.connection_id)
                    .push_bind(resource.account_id.clone())
                    .push_bind(resource.region)
                    .push_bind(resource.resource_type)
                    .push_bind(resource.resource_id.clone())
                    .push_bind(None::<String>)
                    .push_bind(resource.c_time)
                    .push_bind(resource.m_time)
                    .push_bind(resource.d_time)
                    .push_bind(resource.d_time.unwrap_or(resource.m_time))
                    .push_bind(resource.properties.clone())
                    .push_bind(crate::inventory::tags_json(&resource.tags))
                    .push_bind(None::<String>);
            });
            builder.push(" RETURNING id");
            let ids: Vec<i64> = builder.build_query_scalar().fetch_all(&mut *tx).await?;
            let tags: Vec<(i64, &String, &String)> = ids
                .iter()
                .zip(&chunk)
                .flat_map(|(id, resource)| resource.tags.iter().map(move |(k, v)| (*id, k, v)))
                .collect();
            for tag_chunk in tags.chunks(CHUNK * 2) {
                let mut builder = sqlx::QueryBuilder::<$db>::new(
                    "INSERT INTO resource_tags (customer_id, resource, key, value) ",
                );
                builder.push_values(tag_chunk, |mut row, (id, key, value)| {
                    row.push_bind($fixture.customer_id)
                        .push_bind(*id)
                        .push_bind((*key).clone())
                        .push_bind((*value).clone());
                });
                builder.build().execute(&mut *tx).await?;
            }
            start = end;
        }
        sqlx::query($snapshots)
            .bind(i64::try_from($fixture.snapshots_per_resource.max(1)).unwrap_or(1))
            .bind($fixture.customer_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }};
}

/// Writes the fixture's resources, their current tags and snapshots straight into the store at
/// `url` (multi-row INSERTs in one transaction; snapshots copied in SQL), fast enough for
/// 100k resources and 1M snapshots.
pub async fn generate_inventory(
    url: &str,
    fixture: &InventoryFixture,
) -> Result<(), crate::StoreError> {
    if fixture.account_ids.is_empty() {
        return Err(crate::StoreError::Corrupt(
            "InventoryFixture.account_ids: name at least one account".to_owned(),
        ));
    }
    if url.starts_with("sqlite:") {
        let mut connection = sqlx::SqliteConnection::connect(url).await?;
        generate_with!(connection, sqlx::Sqlite, fixture, SQLITE_SNAPSHOTS);
        connection.close().await?;
    } else {
        let mut connection = sqlx::PgConnection::connect(url).await?;
        generate_with!(connection, sqlx::Postgres, fixture, POSTGRES_SNAPSHOTS);
        connection.close().await?;
    }
    Ok(())
}

/// Each generated resource's snapshots, an hour apart from its `c_time` ($1: how many per
/// resource, $2: the customer).
const SQLITE_SNAPSHOTS: &str = "WITH RECURSIVE k(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM k WHERE n + 1 < $1) \
     INSERT INTO resource_snapshots (customer_id, resource, c_time, properties, tags) \
     SELECT r.customer_id, r.id, strftime('%Y-%m-%dT%H:%M:%S+00:00', r.c_time, '+' || k.n || ' hours'), \
     r.properties, r.tags FROM resources r, k WHERE r.customer_id = $2 AND r.resource_id LIKE 'gen-%'";
const POSTGRES_SNAPSHOTS: &str =
    "INSERT INTO resource_snapshots (customer_id, resource, c_time, properties, tags) \
     SELECT r.customer_id, r.id, r.c_time + k.n * interval '1 hour', r.properties, r.tags \
     FROM resources r CROSS JOIN generate_series(0, $1 - 1) AS k(n) \
     WHERE r.customer_id = $2 AND r.resource_id LIKE 'gen-%'";
