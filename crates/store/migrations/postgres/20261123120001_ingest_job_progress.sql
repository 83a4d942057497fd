-- Progress of a running load (docs/API.md, "Ingestion"): JSON text written by the store
-- (phase, file, rows read, bytes read of the total), NULL until the load first reports.
ALTER TABLE ingest_jobs ADD COLUMN progress TEXT;
