-- Resource inventory (issue 14): what discovery finds in each AWS account, its property
-- snapshots, its current tags (for tag filters), standard tags, discovery runs and dismissed
-- savings recommendations. Properties, tags and metrics are JSON text (canonical: object keys
-- sorted, so equal text means equal content).
CREATE TABLE resources (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id   INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    connection_id INTEGER NOT NULL REFERENCES cloud_accounts (id) ON DELETE CASCADE,
    account_id    TEXT    NOT NULL,
    region        TEXT    NOT NULL,
    resource_type TEXT    NOT NULL,
    resource_id   TEXT    NOT NULL,
    arn           TEXT,
    c_time        TEXT    NOT NULL,
    m_time        TEXT    NOT NULL,
    d_time        TEXT,
    last_seen     TEXT    NOT NULL,
    properties    TEXT    NOT NULL,
    tags          TEXT    NOT NULL,
    metrics       TEXT,
    UNIQUE (customer_id, account_id, region, resource_type, resource_id)
);
CREATE INDEX resources_c_time_idx ON resources (customer_id, c_time);
CREATE INDEX resources_m_time_idx ON resources (customer_id, m_time);
CREATE INDEX resources_d_time_idx ON resources (customer_id, d_time);
CREATE INDEX resources_type_idx ON resources (customer_id, resource_type, c_time);
CREATE INDEX resources_resource_id_idx ON resources (customer_id, resource_id);
CREATE INDEX resources_arn_idx ON resources (customer_id, arn);
CREATE INDEX resources_connection_idx ON resources (connection_id);

-- One row per change seen (the first sighting, each change of properties or tags, a revival).
CREATE TABLE resource_snapshots (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    resource    INTEGER NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
    c_time      TEXT    NOT NULL,
    properties  TEXT    NOT NULL,
    tags        TEXT    NOT NULL
);
CREATE INDEX resource_snapshots_resource_idx ON resource_snapshots (resource, c_time);

-- The current tags of each resource, one row per key (tag filters and the search).
CREATE TABLE resource_tags (
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    resource    INTEGER NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
    key         TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    PRIMARY KEY (resource, key)
);
CREATE INDEX resource_tags_key_idx ON resource_tags (customer_id, key, value);

-- Spec 1 §2.9: a tag key every resource should carry, with its allowed values (a JSON list).
CREATE TABLE standard_tags (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    key         TEXT    NOT NULL,
    tag_values  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (customer_id, key)
);

-- Discovery runs: trigger 'on_demand' or 'scheduled'; state 'queued', 'running', 'succeeded',
-- 'partial' or 'failed'. At most one queued or running run per tenant.
CREATE TABLE discovery_runs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id  INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    run_trigger  TEXT    NOT NULL CHECK (run_trigger IN ('on_demand', 'scheduled')),
    state        TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'partial', 'failed')),
    requested_at TEXT    NOT NULL,
    started_at   TEXT,
    finished_at  TEXT,
    summary      TEXT
);
CREATE UNIQUE INDEX discovery_runs_active_key ON discovery_runs (customer_id)
    WHERE state IN ('queued', 'running');
CREATE INDEX discovery_runs_customer_idx ON discovery_runs (customer_id, requested_at);

-- Savings recommendations a user dismissed (remembered per tenant).
CREATE TABLE dismissed_recommendations (
    customer_id       INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    recommendation_id TEXT    NOT NULL,
    user_id           INTEGER REFERENCES users (id) ON DELETE SET NULL,
    dismissed_at      TEXT    NOT NULL,
    PRIMARY KEY (customer_id, recommendation_id)
);
