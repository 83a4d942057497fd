/// A file that cannot be loaded. The message names the file and, where it applies, the row and
/// the column, so that the person who uploaded it can fix it; it never carries the engine's own
/// text, SQL or server paths. Those go to `detail`, for the server log only.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct IngestError {
    pub message: String,
    /// The underlying engine error, for the log; never shown to the uploader.
    pub detail: Option<String>,
}

impl IngestError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            detail: None,
        }
    }

    /// A refusal whose cause (`detail`) is logged but not shown.
    pub fn with_detail(message: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            detail: Some(detail.into()),
        }
    }
}
