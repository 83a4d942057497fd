//! Building and running the server (zero2prod style: bind first, run later).

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use costscope_connectors::Mailer;
use costscope_core::rate_limit::KeyHasher;
use costscope_core::{Clock, SystemClock};
use costscope_engine::CostEngine;
use costscope_store::MetadataStore;
use secrecy::ExposeSecret;
use tokio::net::TcpListener;
use tokio::sync::Notify;

use crate::auth::password::PasswordChecker;
use crate::auth::rate_limit::{LimitCounts, LoginLimiter, RequestLimits};
use crate::auth::secret;
use crate::auth::tokens::AccessTokens;
use crate::config::Config;
use crate::jobs::anomalies::AnomalyDetection;
use crate::jobs::budgets::BudgetEvaluator;
use crate::jobs::digests::DigestJob;
use crate::jobs::discovery::DiscoveryWorker;
use crate::jobs::ingest::{reconcile_interrupted, IngestWorker};
use crate::jobs::lease::HolderId;
use crate::jobs::notifications::NotificationDelivery;
use crate::jobs::sync::SyncWorker;
use crate::metrics::Metrics;
use crate::state::AppState;

pub struct Application {
    listener: TcpListener,
    local_addr: SocketAddr,
    router: axum::Router,
    state: AppState,
}

impl Application {
    /// Opens and migrates the store, opens the cost engine, names this process in the job
    /// leases, settles the uploads a previous run of this replica left unfinished, prepares the
    /// demo tenant and its data if asked, and binds the listener (port 0 picks a free port).
    /// Nothing is served until `run_until_stopped`.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        std::fs::create_dir_all(&config.data_dir).with_context(|| {
            format!("creating the data directory {}", config.data_dir.display())
        })?;
        let store = open_store(&config).await?;
        store.migrate().await.context("migrating the database")?;
        let cost_engine = crate::cost_engine::open_explained(&config).await?;
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        let holder = HolderId::for_data_dir(&config.data_dir)?;
        tracing::info!(%holder, "job lease holder");
        // A load a crash interrupted is recorded as what the cost engine holds of it.
        reconcile_interrupted(
            store.as_ref(),
            cost_engine.as_dyn(),
            clock.as_ref(),
            &config.uploads_dir,
            &holder,
        )
        .await?;
        let engine: Arc<dyn CostEngine> = cost_engine.shared();
        if config.demo {
            let tenant = crate::demo::ensure_demo_tenant(store.as_ref(), clock.as_ref()).await?;
            crate::demo::ensure_demo_data(
                store.as_ref(),
                engine.as_ref(),
                clock.as_ref(),
                tenant.customer_id,
                &config,
            )
            .await?;
            crate::demo::ensure_demo_budgets(
                store.as_ref(),
                engine.as_ref(),
                clock.as_ref(),
                tenant,
            )
            .await?;
        }
        for key in secret::unshared_keys(&config) {
            tracing::warn!(
                key,
                "metadata is on PostgreSQL but this key is generated into the data directory: \
                 give every replica the same one, or each refuses the others' sessions and secrets"
            );
        }
        let auth_secret = secret::load_or_create(config.auth_secret.as_ref(), &config.data_dir)?;
        let secrets = crate::secrets::SecretBox::load_or_create(
            config.secrets_key.as_ref(),
            &config.data_dir,
        )?;
        let mailer = match &config.smtp {
            Some(smtp) => Some(
                Mailer::new(smtp.url.expose_secret(), &smtp.from).context("configuring SMTP")?,
            ),
            None => None,
        };

        let listener = TcpListener::bind(&config.addr)
            .await
            .with_context(|| format!("binding {}", config.addr))?;
        let local_addr = listener.local_addr()?;
        let live_data = crate::backup::LiveData::publish(
            &config.data_dir,
            &config.database_url,
            local_addr,
            cost_engine,
        )?;
        let public_url = config
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{local_addr}"));
        // Rate limits count in the store, under keys every replica sharing the secret hashes alike.
        let limit_counts = Arc::new(LimitCounts::new(
            store.clone(),
            KeyHasher::from_secret(auth_secret.expose_secret().as_bytes()),
            config.rate_limits.max_tracked_keys,
        ));
        let state = AppState {
            store,
            engine,
            clock,
            mailer,
            access_tokens: Arc::new(AccessTokens::new(auth_secret.expose_secret().as_bytes())),
            passwords: Arc::new(PasswordChecker::new().await?),
            login_limiter: Arc::new(LoginLimiter::new(
                config.login_rate_limit,
                limit_counts.clone(),
            )),
            request_limits: Arc::new(RequestLimits::new(config.rate_limits, limit_counts)),
            metrics: Arc::new(Metrics::new()),
            public_url: public_url.trim_end_matches('/').to_owned(),
            ingest_wake: Arc::new(Notify::new()),
            budget_wake: Arc::new(Notify::new()),
            anomaly_wake: Arc::new(Notify::new()),
            notification_wake: Arc::new(Notify::new()),
            sync_wake: Arc::new(Notify::new()),
            discovery_wake: Arc::new(Notify::new()),
            secrets: Arc::new(secrets),
            sources: Arc::new(crate::cloud::sources::Sources::default()),
            live_data: Arc::new(live_data),
            holder,
            config: Arc::new(config),
        };
        let router = crate::http::router(state.clone());
        Ok(Self {
            listener,
            local_addr,
            router,
            state,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    pub fn port(&self) -> u16 {
        self.local_addr.port()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves the API and runs the job workers until SIGTERM or Ctrl-C (the requests in
    /// flight are finished; a load in flight is abandoned: settled at the next start, or taken
    /// over by another replica once its lease has expired) or until one of them fails.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        tracing::info!(addr = %self.local_addr, "listening");
        let service = self
            .router
            .into_make_service_with_connect_info::<SocketAddr>();
        let server = axum::serve(self.listener, service)
            .with_graceful_shutdown(shutdown_signal())
            .into_future();
        let ingest = IngestWorker::from_state(&self.state).run(self.state.ingest_wake.clone());
        let budgets = BudgetEvaluator::from_state(&self.state).run(self.state.budget_wake.clone());
        let anomalies =
            AnomalyDetection::from_state(&self.state).run(self.state.anomaly_wake.clone());
        let notifications =
            NotificationDelivery::from_state(&self.state).run(self.state.notification_wake.clone());
        let digests = DigestJob::from_state(&self.state).run();
        let syncs = SyncWorker::from_state(&self.state).run(self.state.sync_wake.clone());
        let discovery =
            DiscoveryWorker::from_state(&self.state).run(self.state.discovery_wake.clone());
        let result = tokio::select! {
            served = server => {
                tracing::info!("the HTTP server stopped");
                served.context("serving HTTP")
            }
            worked = ingest => {
                tracing::error!("the ingest worker stopped");
                worked.context("running the ingest worker")
            }
            evaluated = budgets => {
                tracing::error!("the budget evaluation job stopped");
                evaluated.context("running the budget evaluation job")
            }
            detected = anomalies => {
                tracing::error!("the anomaly detection job stopped");
                detected.context("running the anomaly detection job")
            }
            delivered = notifications => {
                tracing::error!("the notification delivery job stopped");
                delivered.context("running the notification delivery job")
            }
            digested = digests => {
                tracing::error!("the digest job stopped");
                digested.context("running the digest job")
            }
            synced = syncs => {
                tracing::error!("the cloud sync job stopped");
                synced.context("running the cloud sync job")
            }
            discovered = discovery => {
                tracing::error!("the discovery job stopped");
                discovered.context("running the discovery job")
            }
        };
        self.state.store.close().await;
        result
    }
}

pub async fn open_store(config: &Config) -> anyhow::Result<Arc<dyn MetadataStore>> {
    if config.database_url.expose_secret().starts_with("sqlite:") {
        std::fs::create_dir_all(&config.data_dir).with_context(|| {
            format!("creating the data directory {}", config.data_dir.display())
        })?;
    }
    costscope_store::connect(config.database_url.expose_secret())
        .await
        .context("opening the metadata database")
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("Ctrl-C received, shutting down"),
        () = terminate => tracing::info!("SIGTERM received, shutting down"),
    }
}
