//! Budgets and their configuration history, on every backend: SQLite always, PostgreSQL when
//! `COSTSCOPE_TEST_POSTGRES_URL` names a server (each test gets its own database).

mod support;
use support::{create_customer, for_each_backend, now};

use chrono::{DateTime, Duration, Utc};
use costscope_core::budget::{
    AlertBasis, AlertThreshold, Alerts, BudgetAmount, BudgetFilter, BudgetFilterType,
    BudgetFilters, BudgetName, BudgetPeriod, ThresholdType,
};
use costscope_core::{Email, Role};
use costscope_store::{BudgetChanges, BudgetConfigField, NewBudget, NewInvitation};
use serde_json::json;

fn amount(value: f64) -> BudgetAmount {
    BudgetAmount::parse(value).unwrap()
}

fn filters(filter_type: BudgetFilterType, values: &[&str]) -> BudgetFilters {
    BudgetFilters::parse(vec![BudgetFilter {
        filter_type,
        values: values.iter().map(|value| (*value).to_owned()).collect(),
    }])
    .unwrap()
}

fn percent(value: f64) -> AlertThreshold {
    AlertThreshold {
        threshold_type: ThresholdType::Percentage,
        value,
        basis: AlertBasis::Actual,
    }
}

fn new_budget(name: &str, value: f64, at: DateTime<Utc>) -> NewBudget {
    NewBudget {
        name: BudgetName::parse(name).unwrap(),
        amount: amount(value),
        period: BudgetPeriod::Monthly,
        filters: filters(BudgetFilterType::Account, &["123456789012"]),
        alerts: Alerts::parse(vec![percent(80.0), percent(100.0)], amount(value)).unwrap(),
        now: at,
    }
}

#[tokio::test]
async fn budgets_are_created_read_listed_updated_and_deleted() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let created_at = now();
        let budget = store
            .create_budget(
                customer_id,
                owner.id,
                new_budget("Prod AWS", 1500.25, created_at),
            )
            .await
            .unwrap();
        assert_eq!(budget.customer_id, customer_id);
        assert_eq!(budget.name.as_str(), "Prod AWS");
        assert_eq!(budget.amount.value(), 1500.25);
        assert_eq!(budget.period, BudgetPeriod::Monthly);
        assert_eq!(
            budget.filters,
            filters(BudgetFilterType::Account, &["123456789012"]).into_inner()
        );
        assert_eq!(budget.alerts, vec![percent(80.0), percent(100.0)]);
        assert_eq!(budget.created_by_user_id, Some(owner.id));
        assert_eq!(budget.created_at, created_at);
        assert_eq!(budget.updated_at, created_at);
        assert_eq!(
            store.get_budget(customer_id, budget.id).await.unwrap(),
            Some(budget.clone())
        );

        // Names are not unique.
        let second = store
            .create_budget(customer_id, owner.id, new_budget("Prod AWS", 10.0, now()))
            .await
            .unwrap();
        assert_eq!(
            store.list_budgets(customer_id).await.unwrap(),
            vec![budget.clone(), second.clone()]
        );

        let edited_at = created_at + Duration::minutes(5);
        let mut changes = BudgetChanges::at(edited_at);
        changes.name = Some(BudgetName::parse("Prod AWS (all)").unwrap());
        changes.period = Some(BudgetPeriod::Quarterly);
        let updated = store
            .update_budget(customer_id, owner.id, budget.id, changes)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(updated.name.as_str(), "Prod AWS (all)");
        assert_eq!(updated.period, BudgetPeriod::Quarterly);
        assert_eq!(updated.amount, budget.amount);
        assert_eq!(updated.filters, budget.filters);
        assert_eq!(updated.alerts, budget.alerts);
        assert_eq!(updated.created_at, created_at);
        assert_eq!(updated.updated_at, edited_at);
        assert_eq!(
            store.get_budget(customer_id, budget.id).await.unwrap(),
            Some(updated)
        );

        assert!(store.delete_budget(customer_id, budget.id).await.unwrap());
        assert!(store
            .get_budget(customer_id, budget.id)
            .await
            .unwrap()
            .is_none());
        assert!(!store.delete_budget(customer_id, budget.id).await.unwrap());
        assert!(store
            .update_budget(customer_id, owner.id, budget.id, BudgetChanges::at(now()))
            .await
            .unwrap()
            .is_none());
        assert_eq!(store.list_budgets(customer_id).await.unwrap(), vec![second]);
    })
    .await;
}

#[tokio::test]
async fn creation_and_each_changed_field_are_recorded_with_who_and_old_and_new_values() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let address = Email::parse("pat@acme.test").unwrap();
        store
            .invite_user(NewInvitation {
                customer_id,
                email: &address,
                role: Role::Admin,
                invited_by: owner.id,
                token_hash: "token",
                expires_at: now() + Duration::days(7),
                now: now(),
            })
            .await
            .unwrap();
        let editor = store
            .accept_invitation("token", "Pat Editor", "hash", now())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(editor.name, "Pat Editor");

        let created_at = now();
        let budget = store
            .create_budget(
                customer_id,
                owner.id,
                new_budget("Prod AWS", 1000.0, created_at),
            )
            .await
            .unwrap();
        let history = store
            .budget_config_history(customer_id, budget.id)
            .await
            .unwrap();
        assert_eq!(history.len(), 1);
        let created = &history[0];
        assert_eq!(created.budget_id, budget.id);
        assert_eq!(created.field, BudgetConfigField::Created);
        assert_eq!(created.old_value, None);
        assert_eq!(
            created.new_value,
            Some(json!({
                "name": "Prod AWS",
                "amount": 1000.0,
                "period": "Monthly",
                "filters": [{"filterType": "account", "filterValues": ["123456789012"]}],
                "alerts": [
                    {"thresholdType": "Percentage", "thresholdValue": 80.0, "basis": "Actual"},
                    {"thresholdType": "Percentage", "thresholdValue": 100.0, "basis": "Actual"},
                ],
            }))
        );
        assert_eq!(created.changed_by_user_id, Some(owner.id));
        assert_eq!(created.changed_by.as_deref(), Some("Olive Owner"));
        assert_eq!(created.changed_at, created_at);

        // The name and period are sent unchanged: only amount, filters and alerts are recorded.
        let edited_at = created_at + Duration::hours(1);
        let mut changes = BudgetChanges::at(edited_at);
        changes.name = Some(BudgetName::parse("Prod AWS").unwrap());
        changes.period = Some(BudgetPeriod::Monthly);
        changes.amount = Some(amount(2000.5));
        changes.filters = Some(filters(BudgetFilterType::Region, &["us-east-1"]));
        changes.alerts = Some(
            Alerts::parse(
                vec![AlertThreshold {
                    threshold_type: ThresholdType::Absolute,
                    value: 1500.0,
                    basis: AlertBasis::Actual,
                }],
                amount(2000.5),
            )
            .unwrap(),
        );
        store
            .update_budget(customer_id, editor.id, budget.id, changes)
            .await
            .unwrap()
            .unwrap();

        let history = store
            .budget_config_history(customer_id, budget.id)
            .await
            .unwrap();
        let fields: Vec<BudgetConfigField> = history.iter().map(|change| change.field).collect();
        assert_eq!(history.len(), 4, "{fields:?}");
        // Newest first: the edit's rows, then the creation.
        assert_eq!(history[3].field, BudgetConfigField::Created);
        for change in &history[..3] {
            assert_eq!(change.changed_by_user_id, Some(editor.id));
            assert_eq!(change.changed_by.as_deref(), Some("Pat Editor"));
            assert_eq!(change.changed_at, edited_at);
        }
        let find = |field| {
            history
                .iter()
                .find(|change| change.field == field)
                .unwrap_or_else(|| panic!("no {field:?} row"))
        };
        let amount_row = find(BudgetConfigField::Amount);
        assert_eq!(amount_row.old_value, Some(json!(1000.0)));
        assert_eq!(amount_row.new_value, Some(json!(2000.5)));
        let filters_row = find(BudgetConfigField::Filters);
        assert_eq!(
            filters_row.old_value,
            Some(json!([{"filterType": "account", "filterValues": ["123456789012"]}]))
        );
        assert_eq!(
            filters_row.new_value,
            Some(json!([{"filterType": "region", "filterValues": ["us-east-1"]}]))
        );
        let alerts_row = find(BudgetConfigField::Alerts);
        assert_eq!(
            alerts_row.old_value,
            Some(json!([
                {"thresholdType": "Percentage", "thresholdValue": 80.0, "basis": "Actual"},
                {"thresholdType": "Percentage", "thresholdValue": 100.0, "basis": "Actual"},
            ]))
        );
        assert_eq!(
            alerts_row.new_value,
            Some(
                json!([{"thresholdType": "Absolute", "thresholdValue": 1500.0, "basis": "Actual"}])
            )
        );

        // A later rename is newest.
        let mut rename = BudgetChanges::at(edited_at + Duration::hours(1));
        rename.name = Some(BudgetName::parse("Renamed").unwrap());
        store
            .update_budget(customer_id, owner.id, budget.id, rename)
            .await
            .unwrap()
            .unwrap();
        let history = store
            .budget_config_history(customer_id, budget.id)
            .await
            .unwrap();
        assert_eq!(history.len(), 5);
        assert_eq!(history[0].field, BudgetConfigField::Name);
        assert_eq!(history[0].old_value, Some(json!("Prod AWS")));
        assert_eq!(history[0].new_value, Some(json!("Renamed")));
        assert_eq!(history[0].changed_by.as_deref(), Some("Olive Owner"));
    })
    .await;
}

#[tokio::test]
async fn an_edit_that_changes_nothing_records_nothing() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let created_at = now();
        let budget = store
            .create_budget(
                customer_id,
                owner.id,
                new_budget("Prod AWS", 500.0, created_at),
            )
            .await
            .unwrap();
        let new = new_budget("Prod AWS", 500.0, created_at);
        let same = BudgetChanges {
            name: Some(new.name),
            amount: Some(new.amount),
            period: Some(new.period),
            filters: Some(new.filters),
            alerts: Some(new.alerts),
            now: created_at + Duration::hours(1),
        };
        let unchanged = store
            .update_budget(customer_id, owner.id, budget.id, same)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(unchanged, budget);
        let empty = store
            .update_budget(customer_id, owner.id, budget.id, BudgetChanges::at(now()))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(empty, budget);
        let history = store
            .budget_config_history(customer_id, budget.id)
            .await
            .unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].field, BudgetConfigField::Created);
    })
    .await;
}

#[tokio::test]
async fn a_customer_cannot_see_change_or_delete_another_customers_budget() {
    for_each_backend(|store| async move {
        let (acme, olive) = create_customer(store.as_ref(), "olive@acme.test").await;
        let (other, mallory) = create_customer(store.as_ref(), "mallory@other.test").await;
        let budget = store
            .create_budget(acme, olive.id, new_budget("Prod AWS", 500.0, now()))
            .await
            .unwrap();

        assert!(store.list_budgets(other).await.unwrap().is_empty());
        assert!(store.get_budget(other, budget.id).await.unwrap().is_none());
        let mut changes = BudgetChanges::at(now());
        changes.name = Some(BudgetName::parse("Hijacked").unwrap());
        assert!(store
            .update_budget(other, mallory.id, budget.id, changes)
            .await
            .unwrap()
            .is_none());
        assert!(!store.delete_budget(other, budget.id).await.unwrap());
        assert!(store
            .budget_config_history(other, budget.id)
            .await
            .unwrap()
            .is_empty());

        assert_eq!(
            store.get_budget(acme, budget.id).await.unwrap(),
            Some(budget.clone())
        );
        assert_eq!(
            store
                .budget_config_history(acme, budget.id)
                .await
                .unwrap()
                .len(),
            1
        );
    })
    .await;
}

#[tokio::test]
async fn deleting_a_budget_removes_its_history() {
    for_each_backend(|store| async move {
        let (customer_id, owner) = create_customer(store.as_ref(), "olive@acme.test").await;
        let budget = store
            .create_budget(customer_id, owner.id, new_budget("Prod AWS", 500.0, now()))
            .await
            .unwrap();
        let kept = store
            .create_budget(customer_id, owner.id, new_budget("Dev AWS", 50.0, now()))
            .await
            .unwrap();
        let mut changes = BudgetChanges::at(now());
        changes.amount = Some(amount(600.0));
        store
            .update_budget(customer_id, owner.id, budget.id, changes)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            store
                .budget_config_history(customer_id, budget.id)
                .await
                .unwrap()
                .len(),
            2
        );

        assert!(store.delete_budget(customer_id, budget.id).await.unwrap());
        assert!(store
            .budget_config_history(customer_id, budget.id)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            store
                .budget_config_history(customer_id, kept.id)
                .await
                .unwrap()
                .len(),
            1
        );
    })
    .await;
}
