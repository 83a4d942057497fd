//! Standard tags (spec 1 §2.9, §3 Standard tag, §5): a tag key every resource should carry,
//! with the values it may take.

use serde::{Deserialize, Serialize};

/// A stored standard tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandardTag {
    pub id: i64,
    pub key: String,
    /// The allowed values; empty means any value is allowed (the key must only be present).
    pub values: Vec<String>,
}

/// A standard tag as the dialog sends it, validated: the key trimmed, the values trimmed,
/// empties dropped, duplicates removed (first kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandardTagInput {
    pub key: String,
    pub values: Vec<String>,
}
