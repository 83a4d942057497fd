-- The currency a tenant's cost answers are shown in (docs/CURRENCY.md): a three-letter ISO 4217
-- code, or NULL for the tenant's main currency without conversion.
ALTER TABLE customers ADD COLUMN display_currency TEXT;
