//! Standard tags (spec 1 §2.9, §3 Standard tag, §5): a tag key every resource should carry,
//! with the values it may take.
//!
//! Spec 1 §5 says only that the values are "split by commas, trimmed, empties dropped" and that
//! the dialog "shows an error and marks empty key/values"; it names no message. The messages
//! here are ours, each naming the field (`key` or `values`) the dialog marks, and the limits are
//! AWS's own for a tag (key up to 128 characters, value up to 256) plus a bound on the list:
//!
//! | field | rule | message |
//! |---|---|---|
//! | `key` | not empty once trimmed | [`StandardTagInput::KEY_REQUIRED`] |
//! | `key` | at most 128 characters | [`StandardTagInput::KEY_TOO_LONG`] |
//! | `key` | no control characters | [`StandardTagInput::KEY_CONTROL`] |
//! | `values` | each at most 256 characters | [`StandardTagInput::VALUE_TOO_LONG`] |
//! | `values` | no control characters | [`StandardTagInput::VALUE_CONTROL`] |
//! | `values` | at most 50 distinct values | [`StandardTagInput::TOO_MANY_VALUES`] |
//!
//! A resource complies with a standard tag when it carries the key (exactly: AWS tag keys are
//! case-sensitive) and, when the tag lists values, one of them (exactly, too).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{resource_types, Resource, ResourceKey};
use crate::FieldError;

/// The longest standard tag key, in characters (AWS's limit for a tag key).
pub const MAX_STANDARD_TAG_KEY_CHARS: usize = 128;
/// The longest allowed value, in characters (AWS's limit for a tag value).
pub const MAX_STANDARD_TAG_VALUE_CHARS: usize = 256;
/// The most allowed values of one standard tag.
pub const MAX_STANDARD_TAG_VALUES: usize = 50;

/// A stored standard tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandardTag {
    pub id: i64,
    pub key: String,
    /// The allowed values; empty means any value is allowed (the key must only be present).
    pub values: Vec<String>,
}

/// The values as a request sends them: a JSON list (`["prod", "dev"]`) or the dialog's
/// comma-separated text (`"prod, dev"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum TagValuesInput {
    List(Vec<String>),
    Text(String),
}

impl Default for TagValuesInput {
    fn default() -> Self {
        TagValuesInput::List(Vec::new())
    }
}

impl TagValuesInput {
    /// The values trimmed, empties dropped, duplicates removed (first kept). Text is split by
    /// commas first (spec 1 §5); items of a list are taken whole.
    pub fn normalised(&self) -> Vec<String> {
        let items: Vec<&str> = match self {
            TagValuesInput::List(list) => list.iter().map(String::as_str).collect(),
            TagValuesInput::Text(text) => text.split(',').collect(),
        };
        let mut values: Vec<String> = Vec::with_capacity(items.len());
        for item in items {
            let value = item.trim();
            if !value.is_empty() && !values.iter().any(|v| v == value) {
                values.push(value.to_owned());
            }
        }
        values
    }
}

/// A standard tag as the dialog sends it, validated: the key trimmed, the values trimmed,
/// empties dropped, duplicates removed (first kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandardTagInput {
    pub key: String,
    pub values: Vec<String>,
}

impl StandardTagInput {
    pub const KEY_REQUIRED: &'static str = "Tag key is required";
    pub const KEY_TOO_LONG: &'static str = "Tag key must be at most 128 characters";
    pub const KEY_CONTROL: &'static str = "Tag key must not contain control characters";
    pub const VALUE_TOO_LONG: &'static str = "Each tag value must be at most 256 characters";
    pub const VALUE_CONTROL: &'static str = "Tag values must not contain control characters";
    pub const TOO_MANY_VALUES: &'static str = "A standard tag can have at most 50 values";

    /// Validates what the add/edit dialog sent (spec 1 §2.9, §5).
    pub fn parse(key: &str, values: &TagValuesInput) -> Result<Self, FieldError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(FieldError::new("key", Self::KEY_REQUIRED));
        }
        if key.chars().count() > MAX_STANDARD_TAG_KEY_CHARS {
            return Err(FieldError::new("key", Self::KEY_TOO_LONG));
        }
        if key.chars().any(char::is_control) {
            return Err(FieldError::new("key", Self::KEY_CONTROL));
        }
        let values = values.normalised();
        if values
            .iter()
            .any(|v| v.chars().count() > MAX_STANDARD_TAG_VALUE_CHARS)
        {
            return Err(FieldError::new("values", Self::VALUE_TOO_LONG));
        }
        if values.iter().any(|v| v.chars().any(char::is_control)) {
            return Err(FieldError::new("values", Self::VALUE_CONTROL));
        }
        if values.len() > MAX_STANDARD_TAG_VALUES {
            return Err(FieldError::new("values", Self::TOO_MANY_VALUES));
        }
        Ok(Self {
            key: key.to_owned(),
            values,
        })
    }
}

/// How a resource breaks a standard tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TagViolationKind {
    /// The resource does not carry the key.
    Missing,
    /// It carries the key with a value outside the allowed list.
    InvalidValue,
}

/// One resource breaking one standard tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagViolation {
    pub resource: ResourceKey,
    pub standard_tag_id: i64,
    pub key: String,
    pub kind: TagViolationKind,
    /// The value it carries ([`TagViolationKind::InvalidValue`] only).
    pub value: Option<String>,
}

/// Per standard tag: how many resources comply, miss the key or carry a value outside the
/// list, and the billed cost of those that miss it / carry a wrong value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StandardTagStats {
    pub id: i64,
    pub key: String,
    pub compliant: u64,
    pub missing: u64,
    pub invalid: u64,
    pub missing_cost: f64,
    pub invalid_cost: f64,
}

/// Whether a resource is checked against standard tags: live, and of a type AWS lets one tag
/// (IAM access keys cannot carry tags).
pub fn is_checked(resource: &Resource) -> bool {
    resource.d_time.is_none() && resource_types::is_taggable(&resource.key.resource_type)
}

/// How `tags` stand against one standard tag: `None` when they comply.
pub fn check(
    tags: &BTreeMap<String, String>,
    standard: &StandardTag,
) -> Option<(TagViolationKind, Option<String>)> {
    match tags.get(&standard.key) {
        None => Some((TagViolationKind::Missing, None)),
        Some(value) if !standard.values.is_empty() && !standard.values.contains(value) => {
            Some((TagViolationKind::InvalidValue, Some(value.clone())))
        }
        Some(_) => None,
    }
}

/// Every violation of every standard tag by the checked resources (see [`is_checked`]), in the
/// order of the resources, then of the standard tags.
pub fn tag_violations(resources: &[Resource], standard_tags: &[StandardTag]) -> Vec<TagViolation> {
    let mut violations = Vec::new();
    for resource in resources.iter().filter(|r| is_checked(r)) {
        for standard in standard_tags {
            if let Some((kind, value)) = check(&resource.tags, standard) {
                violations.push(TagViolation {
                    resource: resource.key.clone(),
                    standard_tag_id: standard.id,
                    key: standard.key.clone(),
                    kind,
                    value,
                });
            }
        }
    }
    violations
}

/// The counts of each standard tag over the checked resources (see [`is_checked`]), in the
/// order of `standard_tags`. `costs` is each resource's billed cost (a resource absent from it
/// adds nothing to the costs, and is still counted).
pub fn tag_stats(
    resources: &[Resource],
    standard_tags: &[StandardTag],
    costs: &HashMap<ResourceKey, f64>,
) -> Vec<StandardTagStats> {
    standard_tags
        .iter()
        .map(|standard| {
            let mut stats = StandardTagStats {
                id: standard.id,
                key: standard.key.clone(),
                compliant: 0,
                missing: 0,
                invalid: 0,
                missing_cost: 0.0,
                invalid_cost: 0.0,
            };
            for resource in resources.iter().filter(|r| is_checked(r)) {
                let cost = costs.get(&resource.key).copied().unwrap_or(0.0);
                match check(&resource.tags, standard) {
                    None => stats.compliant += 1,
                    Some((TagViolationKind::Missing, _)) => {
                        stats.missing += 1;
                        stats.missing_cost += cost;
                    }
                    Some((TagViolationKind::InvalidValue, _)) => {
                        stats.invalid += 1;
                        stats.invalid_cost += cost;
                    }
                }
            }
            stats
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};
    use serde_json::json;

    use super::*;

    fn text(s: &str) -> TagValuesInput {
        TagValuesInput::Text(s.to_owned())
    }

    fn list(items: &[&str]) -> TagValuesInput {
        TagValuesInput::List(items.iter().map(|s| (*s).to_owned()).collect())
    }

    fn resource(id: &str, resource_type: &str, tags: &[(&str, &str)]) -> Resource {
        let t = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
        Resource {
            key: ResourceKey {
                account_id: "111122223333".into(),
                region: "us-east-1".into(),
                resource_type: resource_type.into(),
                resource_id: id.into(),
            },
            arn: None,
            connection_id: 1,
            c_time: t,
            m_time: t,
            d_time: None,
            last_seen: t,
            properties: json!({}),
            tags: tags
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            metrics: None,
        }
    }

    fn standard(id: i64, key: &str, values: &[&str]) -> StandardTag {
        StandardTag {
            id,
            key: key.into(),
            values: values.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn text_values_are_split_by_commas_trimmed_and_empties_dropped() {
        let input = StandardTagInput::parse("  env ", &text(" prod, dev ,, ,staging,")).unwrap();
        assert_eq!(input.key, "env");
        assert_eq!(input.values, ["prod", "dev", "staging"]);
    }

    #[test]
    fn list_values_are_trimmed_deduplicated_and_empties_dropped() {
        let input = StandardTagInput::parse("env", &list(&[" prod", "", "dev", "prod "])).unwrap();
        assert_eq!(input.values, ["prod", "dev"]);
    }

    #[test]
    fn list_items_are_not_split_by_commas() {
        let input = StandardTagInput::parse("owner", &list(&["a,b"])).unwrap();
        assert_eq!(input.values, ["a,b"]);
    }

    #[test]
    fn no_values_means_any_value() {
        let input = StandardTagInput::parse("owner", &text("  ")).unwrap();
        assert!(input.values.is_empty());
        let input = StandardTagInput::parse("owner", &TagValuesInput::default()).unwrap();
        assert!(input.values.is_empty());
    }

    #[test]
    fn values_deserialise_from_a_list_or_a_text() {
        let v: TagValuesInput = serde_json::from_value(json!(["a", "b"])).unwrap();
        assert_eq!(v, list(&["a", "b"]));
        let v: TagValuesInput = serde_json::from_value(json!("a, b")).unwrap();
        assert_eq!(v.normalised(), ["a", "b"]);
    }

    #[test]
    fn key_is_required() {
        for key in ["", "   ", "\t"] {
            let err = StandardTagInput::parse(key, &text("a")).unwrap_err();
            assert_eq!(err, FieldError::new("key", StandardTagInput::KEY_REQUIRED));
        }
    }

    #[test]
    fn key_may_have_128_characters_but_not_129() {
        let key = "é".repeat(128);
        assert!(StandardTagInput::parse(&key, &text("")).is_ok());
        let err = StandardTagInput::parse(&format!("{key}x"), &text("")).unwrap_err();
        assert_eq!(err, FieldError::new("key", StandardTagInput::KEY_TOO_LONG));
    }

    #[test]
    fn key_with_a_control_character_is_refused() {
        let err = StandardTagInput::parse("env\u{0}x", &text("")).unwrap_err();
        assert_eq!(err, FieldError::new("key", StandardTagInput::KEY_CONTROL));
    }

    #[test]
    fn value_may_have_256_characters_but_not_257() {
        let value = "v".repeat(256);
        assert!(StandardTagInput::parse("env", &list(&[&value])).is_ok());
        let long = format!("{value}v");
        let err = StandardTagInput::parse("env", &list(&["ok", &long])).unwrap_err();
        assert_eq!(
            err,
            FieldError::new("values", StandardTagInput::VALUE_TOO_LONG)
        );
    }

    #[test]
    fn value_with_a_control_character_is_refused() {
        let err = StandardTagInput::parse("env", &list(&["pr\u{7}od"])).unwrap_err();
        assert_eq!(
            err,
            FieldError::new("values", StandardTagInput::VALUE_CONTROL)
        );
    }

    #[test]
    fn fifty_values_are_allowed_fifty_one_are_not() {
        let fifty: Vec<String> = (0..50).map(|i| format!("v{i}")).collect();
        assert!(StandardTagInput::parse("env", &text(&fifty.join(","))).is_ok());
        // Duplicates count once.
        let with_dup = format!("{},v0", fifty.join(","));
        assert!(StandardTagInput::parse("env", &text(&with_dup)).is_ok());
        let fifty_one = format!("{},v50", fifty.join(","));
        let err = StandardTagInput::parse("env", &text(&fifty_one)).unwrap_err();
        assert_eq!(
            err,
            FieldError::new("values", StandardTagInput::TOO_MANY_VALUES)
        );
    }

    #[test]
    fn violations_name_missing_keys_and_values_outside_the_list() {
        use resource_types::{EC2_INSTANCE, EC2_VOLUME};
        let resources = vec![
            resource("i-ok", EC2_INSTANCE, &[("env", "prod"), ("owner", "ann")]),
            resource("i-missing", EC2_INSTANCE, &[("owner", "bob")]),
            resource("vol-bad", EC2_VOLUME, &[("env", "Prod"), ("owner", "")]),
        ];
        let tags = vec![
            standard(1, "env", &["prod", "dev"]),
            standard(2, "owner", &[]),
        ];
        let violations = tag_violations(&resources, &tags);
        let found: Vec<(&str, i64, TagViolationKind, Option<&str>)> = violations
            .iter()
            .map(|v| {
                (
                    v.resource.resource_id.as_str(),
                    v.standard_tag_id,
                    v.kind.clone(),
                    v.value.as_deref(),
                )
            })
            .collect();
        // The key matches exactly (case-sensitive), as do the values; a present key with an
        // empty value complies with a tag that allows any value.
        assert_eq!(
            found,
            vec![
                ("i-missing", 1, TagViolationKind::Missing, None),
                ("vol-bad", 1, TagViolationKind::InvalidValue, Some("Prod")),
            ]
        );
    }

    #[test]
    fn keys_are_case_sensitive() {
        let resources = vec![resource(
            "i-1",
            resource_types::EC2_INSTANCE,
            &[("Env", "prod")],
        )];
        let violations = tag_violations(&resources, &[standard(1, "env", &[])]);
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].kind, TagViolationKind::Missing);
    }

    #[test]
    fn deleted_resources_and_access_keys_are_not_checked() {
        let mut deleted = resource("i-gone", resource_types::EC2_INSTANCE, &[]);
        deleted.d_time = Some(deleted.c_time);
        let key = resource("AKIA1", resource_types::IAM_ACCESS_KEY, &[]);
        let violations = tag_violations(&[deleted, key], &[standard(1, "env", &[])]);
        assert!(violations.is_empty());
    }

    #[test]
    fn stats_count_and_sum_the_cost_of_each_kind() {
        use resource_types::EC2_INSTANCE;
        let resources = vec![
            resource("a", EC2_INSTANCE, &[("env", "prod")]),
            resource("b", EC2_INSTANCE, &[("env", "qa")]),
            resource("c", EC2_INSTANCE, &[]),
            resource("d", EC2_INSTANCE, &[]),
        ];
        let costs: HashMap<ResourceKey, f64> = [
            (resources[0].key.clone(), 1.0),
            (resources[1].key.clone(), 2.5),
            (resources[2].key.clone(), 4.25),
        ]
        .into_iter()
        .collect();
        let stats = tag_stats(
            &resources,
            &[standard(7, "env", &["prod"]), standard(8, "team", &[])],
            &costs,
        );
        assert_eq!(
            stats,
            vec![
                StandardTagStats {
                    id: 7,
                    key: "env".into(),
                    compliant: 1,
                    missing: 2,
                    invalid: 1,
                    missing_cost: 4.25,
                    invalid_cost: 2.5,
                },
                StandardTagStats {
                    id: 8,
                    key: "team".into(),
                    compliant: 0,
                    missing: 4,
                    invalid: 0,
                    missing_cost: 7.75,
                    invalid_cost: 0.0,
                },
            ]
        );
    }
}
