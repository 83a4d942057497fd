#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A uniqueness rule refused the write (e-mail taken, account already connected).
    #[error("the record already exists")]
    Conflict,
    #[error("the database URL must start with sqlite: or postgres://")]
    UnsupportedUrl,
    /// A budget named a channel that is not one of its customer's (or was deleted meanwhile).
    #[error("a channel is not one of the customer's")]
    UnknownChannel,
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error(transparent)]
    Database(sqlx::Error),
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        match &err {
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict,
            _ => StoreError::Database(err),
        }
    }
}
