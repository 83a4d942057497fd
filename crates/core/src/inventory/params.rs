//! Resource params (spec 1 §3 Resource param): the searchable property paths of a resource
//! type, derived from the properties discovery stored.
//!
//! A flat path names a leaf of the property tree: object keys joined by `.`, a list marked by
//! `[]` after its key (`SecurityGroups[].GroupId`, a list of texts `SecurityGroupIds[]`). Its
//! display name is the same steps joined by ` › ` without the list marks
//! (`Placement › AvailabilityZone`). A key that contains `.`, `[` or `]`, or is empty, cannot be
//! named by a flat path and is left out, as is what lies deeper than [`MAX_PARAM_DEPTH`] steps.
//! At most [`MAX_PARAMS`] paths are answered per resource type.

use std::collections::BTreeSet;

use serde_json::Value;

use super::ResourceParam;

/// The deepest path (in object keys) offered.
pub const MAX_PARAM_DEPTH: usize = 8;
/// The most paths offered for one resource type.
pub const MAX_PARAMS: usize = 500;
/// The longest flat path accepted in a query, in characters.
pub const MAX_FLAT_PATH_CHARS: usize = 512;

/// The flat paths of one resource's properties, sorted by path, without duplicates.
pub fn flat_paths(properties: &Value) -> Vec<ResourceParam> {
    flat_paths_of([properties])
}

/// The union of the flat paths of several resources' properties (a sample of one type),
/// sorted by path, at most [`MAX_PARAMS`].
pub fn flat_paths_of<'a>(samples: impl IntoIterator<Item = &'a Value>) -> Vec<ResourceParam> {
    let mut paths = BTreeSet::new();
    for properties in samples {
        if let Value::Object(map) = properties {
            for (key, value) in map {
                if addressable(key) {
                    collect(value, key.clone(), 1, &mut paths);
                }
            }
        }
    }
    paths
        .into_iter()
        .take(MAX_PARAMS)
        .map(|flat_path| ResourceParam {
            display_name: display_name(&flat_path),
            flat_path,
        })
        .collect()
}

/// What the search menu shows for a flat path: its steps joined by ` › `, list marks dropped.
pub fn display_name(flat_path: &str) -> String {
    flat_path
        .split('.')
        .map(|step| step.trim_end_matches("[]"))
        .collect::<Vec<_>>()
        .join(" › ")
}

/// Whether `flat_path` is well formed: steps separated by `.`, each a non-empty key optionally
/// followed by one `[]`, at most [`MAX_PARAM_DEPTH`] steps and [`MAX_FLAT_PATH_CHARS`]
/// characters, no control characters.
pub fn is_flat_path(flat_path: &str) -> bool {
    if flat_path.is_empty()
        || flat_path.chars().count() > MAX_FLAT_PATH_CHARS
        || flat_path.chars().any(char::is_control)
    {
        return false;
    }
    let steps: Vec<&str> = flat_path.split('.').collect();
    steps.len() <= MAX_PARAM_DEPTH
        && steps.iter().all(|step| {
            let key = step.strip_suffix("[]").unwrap_or(step);
            addressable(key)
        })
}

/// The values a flat path reaches: each item of a marked list is followed, so
/// `SecurityGroups[].GroupId` gives every group id. Missing steps give nothing; a `null` leaf
/// is given as `null`.
pub fn values_at<'a>(properties: &'a Value, flat_path: &str) -> Vec<&'a Value> {
    let mut current = vec![properties];
    for step in flat_path.split('.') {
        let (key, is_list) = match step.strip_suffix("[]") {
            Some(key) => (key, true),
            None => (step, false),
        };
        let mut next = Vec::new();
        for value in current {
            let Some(child) = value.get(key) else {
                continue;
            };
            if is_list {
                if let Value::Array(items) = child {
                    next.extend(items.iter());
                }
            } else {
                next.push(child);
            }
        }
        current = next;
    }
    current
}

/// A leaf value as text, the way a `resource_params` condition compares it: strings as they
/// are, numbers and booleans as JSON writes them; `null`, objects and lists give `None`.
pub fn leaf_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

fn addressable(key: &str) -> bool {
    !key.is_empty() && !key.contains(['.', '[', ']']) && !key.chars().any(char::is_control)
}

fn collect(value: &Value, path: String, depth: usize, paths: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if depth >= MAX_PARAM_DEPTH {
                return;
            }
            for (key, child) in map {
                if addressable(key) {
                    collect(child, format!("{path}.{key}"), depth + 1, paths);
                }
            }
        }
        Value::Array(items) => {
            let list_path = format!("{path}[]");
            for item in items {
                collect_item(item, &list_path, depth, paths);
            }
        }
        _ => {
            paths.insert(path);
        }
    }
}

/// A list item: an object continues the path; a text, number, … makes the list itself a leaf;
/// a list of lists cannot be named and is left out.
fn collect_item(item: &Value, list_path: &str, depth: usize, paths: &mut BTreeSet<String>) {
    match item {
        Value::Object(_) => collect(item, list_path.to_owned(), depth, paths),
        Value::Array(_) => {}
        _ => {
            paths.insert(list_path.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn paths(value: &Value) -> Vec<(String, String)> {
        flat_paths(value)
            .into_iter()
            .map(|p| (p.flat_path, p.display_name))
            .collect()
    }

    #[test]
    fn nested_objects_and_lists_give_dotted_paths() {
        let properties = json!({
            "InstanceId": "i-1",
            "Placement": {"AvailabilityZone": "us-east-1a", "Tenancy": "default"},
            "SecurityGroups": [{"GroupId": "sg-1"}, {"GroupId": "sg-2", "GroupName": "web"}],
            "SecurityGroupIds": ["sg-1"],
            "PublicIpAddress": null,
            "EbsOptimized": false,
        });
        assert_eq!(
            paths(&properties),
            vec![
                ("EbsOptimized".into(), "EbsOptimized".into()),
                ("InstanceId".into(), "InstanceId".into()),
                (
                    "Placement.AvailabilityZone".into(),
                    "Placement › AvailabilityZone".into()
                ),
                ("Placement.Tenancy".into(), "Placement › Tenancy".into()),
                ("PublicIpAddress".into(), "PublicIpAddress".into()),
                ("SecurityGroupIds[]".into(), "SecurityGroupIds".into()),
                (
                    "SecurityGroups[].GroupId".into(),
                    "SecurityGroups › GroupId".into()
                ),
                (
                    "SecurityGroups[].GroupName".into(),
                    "SecurityGroups › GroupName".into()
                ),
            ]
        );
    }

    #[test]
    fn empty_containers_unaddressable_keys_and_non_objects_give_nothing() {
        assert!(
            flat_paths(&json!({"A": {}, "B": [], "C": [[1]], "d.e": 1, "": 2, "f[]": 3}))
                .is_empty()
        );
        assert!(flat_paths(&json!(null)).is_empty());
        assert!(flat_paths(&json!([{"A": 1}])).is_empty());
    }

    #[test]
    fn depth_is_bounded() {
        let mut value = json!("leaf");
        for i in (0..12).rev() {
            value = json!({ format!("K{i}"): value });
        }
        assert!(flat_paths(&value).is_empty());
        let mut value = json!("leaf");
        for i in (0..MAX_PARAM_DEPTH).rev() {
            value = json!({ format!("K{i}"): value });
        }
        let found = flat_paths(&value);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].flat_path.split('.').count(), MAX_PARAM_DEPTH);
    }

    #[test]
    fn count_is_bounded_and_samples_are_merged() {
        let many: serde_json::Map<String, Value> =
            (0..700).map(|i| (format!("K{i:04}"), json!(i))).collect();
        let many = Value::Object(many);
        assert_eq!(flat_paths(&many).len(), MAX_PARAMS);
        let merged = flat_paths_of([&json!({"A": 1}), &json!({"B": {"C": 2}, "A": 3})]);
        let names: Vec<&str> = merged.iter().map(|p| p.flat_path.as_str()).collect();
        assert_eq!(names, ["A", "B.C"]);
    }

    #[test]
    fn values_at_follows_list_marks() {
        let properties = json!({
            "SecurityGroups": [{"GroupId": "sg-1"}, {"GroupId": "sg-2"}, {"Other": 1}],
            "Placement": {"AvailabilityZone": "us-east-1a"},
            "Ids": ["a", "b"],
            "Size": 8,
        });
        let texts = |path: &str| -> Vec<String> {
            values_at(&properties, path)
                .into_iter()
                .filter_map(leaf_text)
                .collect()
        };
        assert_eq!(texts("SecurityGroups[].GroupId"), ["sg-1", "sg-2"]);
        assert_eq!(texts("Placement.AvailabilityZone"), ["us-east-1a"]);
        assert_eq!(texts("Ids[]"), ["a", "b"]);
        assert_eq!(texts("Size"), ["8"]);
        assert!(texts("Missing.Path").is_empty());
        assert!(texts("Placement[]").is_empty());
    }

    #[test]
    fn flat_path_syntax() {
        for ok in ["A", "A.B", "A[].B", "A[]", "Placement.AvailabilityZone"] {
            assert!(is_flat_path(ok), "{ok}");
        }
        let deep = ["K"; MAX_PARAM_DEPTH + 1].join(".");
        for bad in [
            "",
            "A..B",
            ".A",
            "A.",
            "A[][]",
            "A[x]",
            "A\nB",
            deep.as_str(),
        ] {
            assert!(!is_flat_path(bad), "{bad:?}");
        }
    }
}
