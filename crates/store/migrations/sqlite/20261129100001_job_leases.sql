-- Job leases (issue 18, DESIGN §6): with several `serve` replicas on one database, each named
-- job (budget evaluation, anomaly scan, digests, notification delivery) runs its rounds only on
-- the replica holding its lease. The holder renews it well before `expires_at`; once that has
-- passed, another replica may take it. `wakes` counts the rounds other replicas asked the
-- holder for (a load finished on them).
CREATE TABLE job_leases (
    name       TEXT    PRIMARY KEY,
    holder     TEXT    NOT NULL,
    expires_at TEXT    NOT NULL,
    wakes      INTEGER NOT NULL DEFAULT 0
);
-- A running load's holder (the replica loading it) and its lease, renewed while it loads; a
-- running job whose lease has expired was left by a stopped replica and is taken over.
ALTER TABLE ingest_jobs ADD COLUMN lease_holder TEXT;
ALTER TABLE ingest_jobs ADD COLUMN lease_expires_at TEXT;
