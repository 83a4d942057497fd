-- Budgets (spec 2 §3 Budget and Alert) and their configuration change history (§3
-- Configuration history item). Names are not unique: the spec does not ask for it.
-- `amount` is the dollar figure as the domain holds it (an f64, `BudgetAmount`): REAL stores
-- and returns it bit for bit, where NUMERIC or text would round-trip through a decimal
-- conversion the domain never does.
-- JSON columns hold text written by the store (filters, alerts, history values).
CREATE TABLE budgets (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id        INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    name               TEXT    NOT NULL,
    amount             REAL    NOT NULL CHECK (amount > 0),
    period             TEXT    NOT NULL CHECK (period IN ('Monthly', 'Quarterly', 'Yearly')),
    filters            TEXT    NOT NULL DEFAULT '[]',
    alerts             TEXT    NOT NULL DEFAULT '[]',
    created_by_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at         TEXT    NOT NULL,
    updated_at         TEXT    NOT NULL
);
CREATE INDEX budgets_customer_idx ON budgets (customer_id, id);

-- One row per creation (`field` = 'created', `new_value` the whole budget) and per changed
-- field of an edit. Deleting the budget deletes its history.
CREATE TABLE budget_config_history (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    budget_id          INTEGER NOT NULL REFERENCES budgets (id) ON DELETE CASCADE,
    customer_id        INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    changed_by_user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    changed_at         TEXT    NOT NULL,
    field              TEXT    NOT NULL
                       CHECK (field IN ('created', 'name', 'amount', 'period', 'filters', 'alerts')),
    old_value          TEXT,
    new_value          TEXT
);
CREATE INDEX budget_config_history_budget_idx ON budget_config_history (budget_id, changed_at, id);
