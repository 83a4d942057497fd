/// A file that cannot be loaded. The message names the file and, where it applies, the row and
/// the column, so that the person who uploaded it can fix it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct IngestError {
    pub message: String,
}

impl IngestError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}
