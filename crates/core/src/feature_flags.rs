use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The console's feature flags (spec 1 §2.1), with the spec's defaults.
/// The JSON keys are exactly the spec's names, odd casing included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FeatureFlags {
    #[serde(rename = "oldCostDashboard")]
    pub old_cost_dashboard: bool,
    #[serde(rename = "newCostDashboard")]
    pub new_cost_dashboard: bool,
    #[serde(rename = "IAMTab")]
    pub iam_tab: bool,
    #[serde(rename = "ComplianceTab")]
    pub compliance_tab: bool,
    #[serde(rename = "DiscoverJobTrigger")]
    pub discover_job_trigger: bool,
    #[serde(rename = "SnapshotSuccessTime")]
    pub snapshot_success_time: bool,
    #[serde(rename = "missionControlDashboard")]
    pub mission_control_dashboard: bool,
}

impl Default for FeatureFlags {
    fn default() -> Self {
        Self {
            old_cost_dashboard: true,
            new_cost_dashboard: false,
            iam_tab: false,
            compliance_tab: false,
            discover_job_trigger: false,
            snapshot_success_time: true,
            mission_control_dashboard: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_spec_with_exact_keys() {
        let json = serde_json::to_value(FeatureFlags::default()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "oldCostDashboard": true, "newCostDashboard": false, "IAMTab": false,
                "ComplianceTab": false, "DiscoverJobTrigger": false,
                "SnapshotSuccessTime": true, "missionControlDashboard": true
            })
        );
    }

    #[test]
    fn missing_keys_keep_their_defaults() {
        let flags: FeatureFlags = serde_json::from_str(r#"{"IAMTab": true}"#).unwrap();
        assert!(flags.iam_tab);
        assert!(flags.old_cost_dashboard);
    }
}
