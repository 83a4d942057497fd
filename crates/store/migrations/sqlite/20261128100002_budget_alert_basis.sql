-- Forecast alerts (docs/ANOMALIES.md "Forecast API and where it shows"): a budget alert is
-- reached by the spend (`Actual`, what every alert meant before) or by the forecast total
-- (`Forecasted`). The history records which, and a threshold is recorded once per period and
-- basis: an Actual and a Forecasted 100 % alert of the same budget are two rows.
--
-- Rows recorded before are `Actual`. SQLite cannot change a table's UNIQUE rule, so the table
-- is rebuilt: nothing references it by a foreign key (the outbox keeps `budget_alert_id` as a
-- plain column), so dropping the old table deletes nothing else.
CREATE TABLE budget_alert_history_with_basis (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    budget_id        INTEGER NOT NULL REFERENCES budgets (id) ON DELETE CASCADE,
    customer_id      INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    period_start     TEXT    NOT NULL,
    threshold_type   TEXT    NOT NULL CHECK (threshold_type IN ('Percentage', 'Absolute')),
    threshold_value  REAL    NOT NULL,
    spent_amount     REAL    NOT NULL,
    spend_percentage REAL    NOT NULL,
    triggered_at     TEXT    NOT NULL,
    basis            TEXT    NOT NULL DEFAULT 'Actual' CHECK (basis IN ('Actual', 'Forecasted')),
    UNIQUE (budget_id, period_start, threshold_type, threshold_value, basis)
);
INSERT INTO budget_alert_history_with_basis
    (id, budget_id, customer_id, period_start, threshold_type, threshold_value, spent_amount,
     spend_percentage, triggered_at, basis)
SELECT id, budget_id, customer_id, period_start, threshold_type, threshold_value, spent_amount,
       spend_percentage, triggered_at, 'Actual'
FROM budget_alert_history;
DROP TABLE budget_alert_history;
ALTER TABLE budget_alert_history_with_basis RENAME TO budget_alert_history;
CREATE INDEX budget_alert_history_budget_idx ON budget_alert_history (budget_id, triggered_at, id);
