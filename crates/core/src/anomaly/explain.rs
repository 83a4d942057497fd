//! What is behind an anomaly: the parts (usage types, resources) whose cost rose the most.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One part of the difference between a day's cost and its expected cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contributor {
    /// The usage type, resource id or other value of the dimension.
    pub key: String,
    pub actual: f64,
    pub expected: f64,
    /// `actual - expected`: this part's share of the rise.
    pub difference: f64,
}

/// The `limit` parts that rose the most, largest rise first, from the day's cost by part and the
/// baseline's (e.g. the mean day of the baseline window by part).
///
/// When `expected_total` is given and the baseline has a positive total, the baseline parts are
/// scaled to it, so they describe the expected day the anomaly was judged against (its weekday,
/// its level): the differences of all parts then add up to `actual - expected` of the day when
/// the day's parts add up to its actual cost. Parts only on one side count 0 on the other (a
/// new resource is all rise). Parts that did not rise are left out.
pub fn explain(
    day: &[(String, f64)],
    baseline: &[(String, f64)],
    expected_total: Option<f64>,
    limit: usize,
) -> Vec<Contributor> {
    let baseline_total: f64 = baseline.iter().map(|(_, cost)| cost).sum();
    let scale = match expected_total {
        Some(total) if baseline_total > 0.0 && total.is_finite() => total / baseline_total,
        _ => 1.0,
    };
    let mut parts: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for (key, cost) in day {
        parts.entry(key).or_default().0 += cost;
    }
    for (key, cost) in baseline {
        parts.entry(key).or_default().1 += cost * scale;
    }
    let mut contributors: Vec<Contributor> = parts
        .into_iter()
        .map(|(key, (actual, expected))| Contributor {
            key: key.to_owned(),
            actual,
            expected,
            difference: actual - expected,
        })
        .filter(|c| c.difference > 0.0)
        .collect();
    // Largest rise first; equal rises in key order (the map's), so the answer is stable.
    contributors.sort_by(|a, b| b.difference.total_cmp(&a.difference));
    contributors.truncate(limit);
    contributors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(items: &[(&str, f64)]) -> Vec<(String, f64)> {
        items.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn the_largest_rises_come_first_and_falls_are_left_out() {
        let day = parts(&[("BoxUsage", 900.0), ("DataTransfer", 300.0), ("EBS", 50.0)]);
        let baseline = parts(&[("BoxUsage", 400.0), ("DataTransfer", 100.0), ("EBS", 100.0)]);
        let top = explain(&day, &baseline, None, 5);
        let keys: Vec<&str> = top.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["BoxUsage", "DataTransfer"]);
        assert_eq!(top[0].difference, 500.0);
        assert_eq!(top[1].expected, 100.0);
    }

    #[test]
    fn a_new_part_is_all_rise_and_limit_applies() {
        let day = parts(&[("i-new", 700.0), ("i-old", 210.0), ("i-other", 105.0)]);
        let baseline = parts(&[("i-old", 200.0), ("i-other", 100.0)]);
        let top = explain(&day, &baseline, None, 2);
        assert_eq!(top.len(), 2);
        assert_eq!(top[0].key, "i-new");
        assert_eq!(top[0].expected, 0.0);
        assert_eq!(top[1].key, "i-old");
    }

    #[test]
    fn scaled_to_the_expected_total_the_differences_add_up_to_the_excess() {
        // The window's mean day cost 300; the day was expected to cost 150 (a Sunday).
        let baseline = parts(&[("a", 200.0), ("b", 100.0)]);
        let day = parts(&[("a", 400.0), ("b", 50.0)]);
        let all = explain(&day, &baseline, Some(150.0), 10);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].key, "a");
        assert_eq!(all[0].expected, 100.0);
        // b fell by 0 (50 expected, 50 actual): the whole excess 450 - 150 is a's.
        assert_eq!(all[0].difference, 300.0);
    }

    #[test]
    fn duplicate_keys_add_up() {
        let day = parts(&[("a", 10.0), ("a", 15.0)]);
        let top = explain(&day, &[], Some(0.0), 3);
        assert_eq!(top[0].actual, 25.0);
    }
}
