-- Cloud connections (issue 13): the cloud_accounts rows become connections that Costscope
-- syncs billing exports from. Settings are JSON without secrets; `secret` is encrypted by the
-- server (AES-256-GCM) before it is stored.
ALTER TABLE cloud_accounts ADD COLUMN organization_id TEXT;
ALTER TABLE cloud_accounts ADD COLUMN parent_id INTEGER REFERENCES cloud_accounts (id) ON DELETE CASCADE;
ALTER TABLE cloud_accounts ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE cloud_accounts ADD COLUMN secret TEXT;
ALTER TABLE cloud_accounts ADD COLUMN created_by_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL;
-- The registration check (spec 2 §3 registration job): state 1 running, 6 succeeded, 7 failed.
ALTER TABLE cloud_accounts ADD COLUMN registration_state INTEGER;
ALTER TABLE cloud_accounts ADD COLUMN registration_details TEXT;
ALTER TABLE cloud_accounts ADD COLUMN registration_started_at TEXT;
ALTER TABLE cloud_accounts ADD COLUMN registration_finished_at TEXT;
-- The sync: 'running', 'succeeded' or 'failed' (NULL: never synced).
ALTER TABLE cloud_accounts ADD COLUMN sync_state TEXT;
ALTER TABLE cloud_accounts ADD COLUMN sync_started_at TEXT;
ALTER TABLE cloud_accounts ADD COLUMN sync_finished_at TEXT;
ALTER TABLE cloud_accounts ADD COLUMN sync_error TEXT;
ALTER TABLE cloud_accounts ADD COLUMN sync_details TEXT;
ALTER TABLE cloud_accounts ADD COLUMN sync_requested_at TEXT;
CREATE INDEX cloud_accounts_parent_idx ON cloud_accounts (parent_id);

-- The fingerprint of each billing period's delivery at its last successful load.
CREATE TABLE sync_periods (
    cloud_account_id INTEGER NOT NULL REFERENCES cloud_accounts (id) ON DELETE CASCADE,
    billing_period   TEXT    NOT NULL,
    fingerprint      TEXT    NOT NULL,
    ingest_job_id    INTEGER REFERENCES ingest_jobs (id) ON DELETE SET NULL,
    synced_at        TEXT    NOT NULL,
    PRIMARY KEY (cloud_account_id, billing_period)
);

-- Each tenant's AWS external id (the onboarding role trusts only it).
ALTER TABLE customers ADD COLUMN aws_external_id TEXT;

-- Where a load came from: NULL for an upload or the command line; a sync's description.
ALTER TABLE ingest_jobs ADD COLUMN source TEXT;
ALTER TABLE ingest_jobs ADD COLUMN cloud_account_id INTEGER REFERENCES cloud_accounts (id) ON DELETE SET NULL;
