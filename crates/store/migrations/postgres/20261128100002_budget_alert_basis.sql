-- Forecast alerts (docs/ANOMALIES.md "Forecast API and where it shows"): a budget alert is
-- reached by the spend (`Actual`, what every alert meant before) or by the forecast total
-- (`Forecasted`). The history records which, and a threshold is recorded once per period and
-- basis: an Actual and a Forecasted 100 % alert of the same budget are two rows. Rows
-- recorded before are `Actual`.
ALTER TABLE budget_alert_history
    ADD COLUMN basis TEXT NOT NULL DEFAULT 'Actual' CHECK (basis IN ('Actual', 'Forecasted'));

-- The old rule's name was generated (and truncated to 63 characters): find it.
DO $$
DECLARE
    rule TEXT;
BEGIN
    SELECT conname INTO rule FROM pg_constraint
    WHERE conrelid = 'budget_alert_history'::regclass AND contype = 'u';
    EXECUTE format('ALTER TABLE budget_alert_history DROP CONSTRAINT %I', rule);
END
$$;

ALTER TABLE budget_alert_history
    ADD CONSTRAINT budget_alert_history_once_per_basis
    UNIQUE (budget_id, period_start, threshold_type, threshold_value, basis);
