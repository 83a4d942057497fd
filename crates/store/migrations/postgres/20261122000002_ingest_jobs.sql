-- Billing data uploads and their background loads (docs/API-COST.md "Ingestion").
-- `receiving`: the files are still arriving; such a job is neither listed nor claimed.
-- JSON columns hold text written by the store (files, billing periods, totals), the same
-- text on both backends.
CREATE TABLE ingest_jobs (
    id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id        BIGINT      NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    status             TEXT        NOT NULL
                       CHECK (status IN ('receiving', 'queued', 'running', 'succeeded', 'failed')),
    format             TEXT,
    files              TEXT        NOT NULL DEFAULT '[]',
    rows               BIGINT      NOT NULL DEFAULT 0,
    replaced_rows      BIGINT      NOT NULL DEFAULT 0,
    billing_periods    TEXT        NOT NULL DEFAULT '[]',
    totals             TEXT        NOT NULL DEFAULT '[]',
    error              TEXT,
    created_by_user_id BIGINT      REFERENCES users (id) ON DELETE SET NULL,
    created_by         TEXT        NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    started_at         TIMESTAMPTZ,
    finished_at        TIMESTAMPTZ
);
CREATE INDEX ingest_jobs_customer_idx ON ingest_jobs (customer_id, id);
CREATE INDEX ingest_jobs_status_idx ON ingest_jobs (status, id);
