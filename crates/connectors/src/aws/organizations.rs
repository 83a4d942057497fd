//! The member accounts of an AWS organisation, read through Organizations ListAccounts with
//! the customer's role (assumed with the tenant's external id).

use super::assume::assume_role;
use super::errors::AwsFailure;
use super::AwsSdk;
use crate::settings::AwsExportSettings;
use crate::SourceError;

/// One account of an organisation.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct OrgAccount {
    /// The 12-digit account id.
    pub account_id: String,
    pub name: String,
}

/// Every account of the organisation the role's account manages (the management account
/// included), ordered by account id. The role must be in the management account (or a
/// delegated administrator) and may call `organizations:ListAccounts`.
pub async fn list_organization_accounts(
    sdk: &AwsSdk,
    settings: &AwsExportSettings,
) -> Result<Vec<OrgAccount>, SourceError> {
    let role = assume_role(sdk, settings).await?;
    let client = sdk.organizations_with(&settings.region, role.credentials);
    let mut pages = client.list_accounts().into_paginator().send();
    let mut accounts = Vec::new();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|err| {
            let failure = AwsFailure::from_sdk(&err);
            let message = match failure.code.as_deref() {
                Some("AWSOrganizationsNotInUseException") => format!(
                    "AWSOrganizationsNotInUseException: the account of role {} is not in an organisation: {}",
                    settings.role_arn, failure.message
                ),
                Some("AccessDeniedException") | Some("AccessDenied") => format!(
                    "{}role {} may not list the organisation's accounts (it needs organizations:ListAccounts in the management account): {}",
                    failure.code_prefix(),
                    settings.role_arn,
                    failure.message
                ),
                Some(_) => format!(
                    "{}{} (listing the organisation's accounts)",
                    failure.code_prefix(),
                    failure.message
                ),
                None => format!(
                    "AWS Organizations could not be reached: {}",
                    failure.message
                ),
            };
            failure.into_source_error(message)
        })?;
        for account in page.accounts() {
            let Some(account_id) = account.id() else {
                continue;
            };
            accounts.push(OrgAccount {
                account_id: account_id.to_owned(),
                name: account.name().unwrap_or_default().to_owned(),
            });
        }
    }
    accounts.sort();
    accounts.dedup();
    Ok(accounts)
}
