//! The native exports fill the FOCUS detail columns they have an equivalent of, and leave the
//! others NULL (values from the first data row of each fixture).

use crate::support::*;

fn first_row(name: &str, columns: &str) -> Vec<String> {
    let (conn, _) = load(name, None);
    rows(
        &conn,
        &format!("SELECT {columns} FROM staged ORDER BY rowid LIMIT 1"),
    )
    .remove(0)
}

#[test]
fn aws_cur_fills_period_end_description_unit_sku_zone_and_location() {
    assert_eq!(
        first_row(
            "koku/aws_cur_legacy_2023-06-01.csv",
            "CAST(billing_period_end AS VARCHAR), charge_description, pricing_unit, sku_id, \
             availability_zone, region_name, CAST(sku_price_id IS NULL AS VARCHAR), \
             CAST(extra IS NULL AS VARCHAR), CAST(contracted_cost IS NULL AS VARCHAR)"
        ),
        [
            "2023-07-01 00:00:00",
            "$10 per On Demand Linux m5.large Instance Hour",
            "Hrs",
            "VEAJHRNKTJZA",
            "us-west-1a",
            "US West (N. California)",
            "true",
            "true",
            "true"
        ]
    );
}

#[test]
fn gcp_export_fills_sku_and_pricing_units() {
    assert_eq!(
        first_row(
            "koku/gcp_bq_export_2022-08-01_5.csv",
            "sku_id, charge_description, pricing_unit, CAST(pricing_quantity AS VARCHAR), \
             CAST(availability_zone IS NULL AS VARCHAR), CAST(billing_period_end IS NULL AS VARCHAR)"
        ),
        [
            "6B8F-E63D-832B",
            "Network Internet Egress from Americas to APAC",
            "gibibyte",
            "1.385e-05",
            "true",
            "true"
        ]
    );
}

#[test]
fn azure_export_fills_account_name_period_end_units_and_focus_values() {
    assert_eq!(
        first_row(
            "finops-toolkit/EA_ActualCost_Small.csv",
            "billing_account_name, CAST(billing_period_end AS VARCHAR), pricing_unit, \
             CAST(pricing_quantity AS VARCHAR), commitment_discount_id, charge_frequency, \
             pricing_category"
        ),
        [
            "Trey Research Demo (DO NOT USE)",
            "2023-09-30 00:00:00",
            "1 Hour",
            "1.0",
            // BenefitId, preferred over ReservationId.
            "/providers/Microsoft.Capacity/reservationOrders/49ed0e4d-8e0c-4f1f-af2c-67c865056615/reservations/",
            "Recurring",
            "Committed"
        ]
    );
}
