-- Billing data uploads and their background loads (docs/API-COST.md "Ingestion").
-- `receiving`: the files are still arriving; such a job is neither listed nor claimed.
-- JSON columns hold text written by the store (files, billing periods, totals).
CREATE TABLE ingest_jobs (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id        INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    status             TEXT    NOT NULL
                       CHECK (status IN ('receiving', 'queued', 'running', 'succeeded', 'failed')),
    format             TEXT,
    files              TEXT    NOT NULL DEFAULT '[]',
    rows               INTEGER NOT NULL DEFAULT 0,
    replaced_rows      INTEGER NOT NULL DEFAULT 0,
    billing_periods    TEXT    NOT NULL DEFAULT '[]',
    totals             TEXT    NOT NULL DEFAULT '[]',
    error              TEXT,
    created_by_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_by         TEXT    NOT NULL,
    created_at         TEXT    NOT NULL,
    started_at         TEXT,
    finished_at        TEXT
);
CREATE INDEX ingest_jobs_customer_idx ON ingest_jobs (customer_id, id);
CREATE INDEX ingest_jobs_status_idx ON ingest_jobs (status, id);
