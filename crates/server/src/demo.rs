//! The demo tenant and its data, which `costscope demo` and `serve --demo` keep available.

use anyhow::Context;
use chrono::Duration;
use costscope_core::{Clock, Email, FullName, Password};
use costscope_engine::{CostEngine, LoadSummary};
use costscope_ingest::demo::write_demo_files;
use costscope_store::MetadataStore;

use crate::config::Config;
use crate::jobs::ingest::{load_directly, remove_upload, DirectLoad, LocalFile};
use crate::onboarding::{register_customer, Registration, TRIAL_DAYS};

pub const DEMO_EMAIL: &str = "demo@costscope.dev";
pub const DEMO_PASSWORD: &str = "costscope-demo";
pub const DEMO_USER_NAME: &str = "Demo User";
pub const DEMO_CUSTOMER_NAME: &str = "Demo Company";
/// Who the demo data loads are recorded as.
pub const DEMO_UPLOADER: &str = "demo";
/// Folder of the data directory where the demo files are generated, then loaded at once: this
/// replica's own, not the shared `uploads_dir`, where two replicas starting with `--demo`
/// would write over each other's.
const DEMO_FILES_DIR: &str = "demo-files";

/// The demo tenant as [`ensure_demo_tenant`] found or made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoTenant {
    pub customer_id: i64,
    pub owner_id: i64,
    /// Made by this call (so its demo budgets are still to be created).
    pub created: bool,
}

/// Creates the demo customer and owner if missing; otherwise renews its trial to 30 days.
#[tracing::instrument(skip_all)]
pub async fn ensure_demo_tenant(
    store: &dyn MetadataStore,
    clock: &dyn Clock,
) -> anyhow::Result<DemoTenant> {
    let email = Email::parse(DEMO_EMAIL).expect("valid demo e-mail");
    if let Some(existing) = store.find_login(&email).await? {
        let trial_end = clock.now() + Duration::days(TRIAL_DAYS);
        store
            .set_trial_end(existing.user.customer_id, trial_end)
            .await?;
        tracing::info!(
            customer_id = existing.user.customer_id,
            "renewed the demo trial"
        );
        return Ok(DemoTenant {
            customer_id: existing.user.customer_id,
            owner_id: existing.user.id,
            created: false,
        });
    }
    let registration = Registration {
        owner_name: FullName::parse(DEMO_USER_NAME).expect("valid demo name"),
        email,
        password: Password::parse(DEMO_PASSWORD).expect("valid demo password"),
        customer_name: Some(DEMO_CUSTOMER_NAME.to_owned()),
        is_demo: true,
    };
    let (customer, owner) = register_customer(store, clock, registration).await?;
    tracing::info!(customer_id = customer.id, "created the demo tenant");
    Ok(DemoTenant {
        customer_id: customer.id,
        owner_id: owner.id,
        created: true,
    })
}

/// Generates the demo exports for today (UTC) and loads them through the normal readers,
/// replacing the billing periods loaded before: loading twice gives the same data.
#[tracing::instrument(skip_all, fields(customer_id))]
pub async fn load_demo_data(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    clock: &dyn Clock,
    customer_id: i64,
    config: &Config,
) -> anyhow::Result<LoadSummary> {
    let today = clock.now().date_naive();
    let dir = config.data_dir.join(DEMO_FILES_DIR);
    remove_upload(&dir).await;
    let target = dir.clone();
    let paths = tokio::task::spawn_blocking(move || write_demo_files(&target, today))
        .await
        .context("generating the demo data")?
        .with_context(|| format!("writing the demo data into {}", dir.display()))?;
    let files: Vec<LocalFile> = paths
        .into_iter()
        .map(|path| LocalFile {
            display_name: path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default(),
            path,
        })
        .collect();
    let holder = crate::jobs::lease::HolderId::for_data_dir(&config.data_dir)?;
    let load = DirectLoad {
        customer_id,
        files: &files,
        format: None,
        created_by: DEMO_UPLOADER,
        progress: None,
        holder: &holder,
        lease: config.jobs.lease,
    };
    let loaded = load_directly(store, engine, clock, load)
        .await
        .context("loading the demo data");
    remove_upload(&dir).await;
    loaded
}

/// `serve --demo`: loads the demo data when the demo tenant has none or none up to today,
/// so that a demo restarted days later still shows current costs.
pub async fn ensure_demo_data(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    clock: &dyn Clock,
    customer_id: i64,
    config: &Config,
) -> anyhow::Result<()> {
    let today = clock.now().date_naive();
    let latest = engine
        .latest_charge_date(customer_id)
        .await
        .context("reading the demo data's latest day")?;
    if latest.is_some_and(|latest| latest >= today) {
        tracing::info!(customer_id, "the demo data is current");
        return Ok(());
    }
    let summary = load_demo_data(store, engine, clock, customer_id, config).await?;
    tracing::info!(customer_id, rows = summary.rows, "loaded the demo data");
    Ok(())
}

/// After the demo data: a new demo tenant gets its demo budgets (once; budgets the user deletes
/// stay deleted).
pub async fn ensure_demo_budgets(
    store: &dyn MetadataStore,
    engine: &dyn CostEngine,
    clock: &dyn Clock,
    tenant: DemoTenant,
) -> anyhow::Result<()> {
    if !tenant.created {
        return Ok(());
    }
    crate::budgets::demo::create_demo_budgets(
        store,
        engine,
        tenant.customer_id,
        tenant.owner_id,
        clock.now(),
    )
    .await
    .context("creating the demo budgets")
}
