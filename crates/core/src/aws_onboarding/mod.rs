//! The CloudFormation template Costscope serves to onboard an AWS account (or organisation),
//! and the two AWS CLI commands of the registration answer that deploy it as a StackSet.
//! Pure text: nothing here talks to AWS.
//!
//! The template creates, in the account it is deployed to:
//! - the role [`ROLE_NAME`], which only the trusted principal may assume, and only with the
//!   tenant's external id; it may read the export bucket and list (never change) the
//!   organisation and the resources discovery inventories;
//! - when `CreateExport` is `true` (the default): an encrypted, private S3 bucket, the bucket
//!   policy AWS documents for Data Exports, and an AWS Data Export of FOCUS 1.2 with AWS
//!   columns (`FOCUS_1_2_AWS`) or CUR 2.0 (`COST_AND_USAGE_REPORT`), daily line items,
//!   overwritten in place, Parquet (or gzip CSV) under `s3://<bucket>/<prefix>/<export>/…`.
//!
//! For an organisation the StackSet gives every member account the role only
//! (`CreateExport=false`); the management account deploys the template itself (the URL of the
//! registration answer) to get the export, since a service-managed StackSet never deploys to
//! the management account.

use crate::cloud_accounts::{AwsAccountId, AwsOrganizationId};
use crate::FieldError;

/// The role the template creates; the default role ARN of a registration names it.
pub const ROLE_NAME: &str = "CostscopeReadOnly";
/// The prefix the template delivers under unless told otherwise.
pub const DEFAULT_PREFIX: &str = "costscope";
/// The StackSet the commands create.
pub const STACK_SET_NAME: &str = "costscope-onboarding";
/// The file name the template is downloaded as, and that the commands read.
pub const TEMPLATE_FILE_NAME: &str = "costscope-onboarding.yaml";
/// Where the stack is deployed: AWS Data Exports lives in us-east-1.
pub const DEPLOY_REGION: &str = "us-east-1";

const TEMPLATE: &str = include_str!("template.yaml");

/// The columns of AWS Data Exports' `FOCUS_1_2_AWS` table (57 FOCUS 1.2 columns and the three
/// AWS ones), as AWS's table dictionary lists them. Data Exports refuses `SELECT *`.
pub const FOCUS_1_2_AWS_COLUMNS: &[&str] = &[
    "AvailabilityZone",
    "BilledCost",
    "BillingAccountId",
    "BillingAccountName",
    "BillingAccountType",
    "BillingCurrency",
    "BillingPeriodEnd",
    "BillingPeriodStart",
    "CapacityReservationId",
    "CapacityReservationStatus",
    "ChargeCategory",
    "ChargeClass",
    "ChargeDescription",
    "ChargeFrequency",
    "ChargePeriodEnd",
    "ChargePeriodStart",
    "CommitmentDiscountCategory",
    "CommitmentDiscountId",
    "CommitmentDiscountName",
    "CommitmentDiscountQuantity",
    "CommitmentDiscountStatus",
    "CommitmentDiscountType",
    "CommitmentDiscountUnit",
    "ConsumedQuantity",
    "ConsumedUnit",
    "ContractedCost",
    "ContractedUnitPrice",
    "EffectiveCost",
    "InvoiceId",
    "InvoiceIssuerName",
    "ListCost",
    "ListUnitPrice",
    "PricingCategory",
    "PricingCurrency",
    "PricingCurrencyContractedUnitPrice",
    "PricingCurrencyEffectiveCost",
    "PricingCurrencyListUnitPrice",
    "PricingQuantity",
    "PricingUnit",
    "ProviderName",
    "PublisherName",
    "RegionId",
    "RegionName",
    "ResourceId",
    "ResourceName",
    "ResourceType",
    "ServiceCategory",
    "ServiceName",
    "ServiceSubcategory",
    "SkuId",
    "SkuMeter",
    "SkuPriceDetails",
    "SkuPriceId",
    "SubAccountId",
    "SubAccountName",
    "SubAccountType",
    "Tags",
    "x_Discounts",
    "x_Operation",
    "x_ServiceCode",
];

/// The columns of AWS Data Exports' `COST_AND_USAGE_REPORT` (CUR 2.0) table.
pub const CUR_2_0_COLUMNS: &[&str] = &[
    "bill_bill_type",
    "bill_billing_entity",
    "bill_billing_period_end_date",
    "bill_billing_period_start_date",
    "bill_invoice_id",
    "bill_invoicing_entity",
    "bill_payer_account_id",
    "bill_payer_account_name",
    "cost_category",
    "discount",
    "discount_bundled_discount",
    "discount_total_discount",
    "identity_line_item_id",
    "identity_time_interval",
    "line_item_availability_zone",
    "line_item_blended_cost",
    "line_item_blended_rate",
    "line_item_currency_code",
    "line_item_legal_entity",
    "line_item_line_item_description",
    "line_item_line_item_type",
    "line_item_net_unblended_cost",
    "line_item_net_unblended_rate",
    "line_item_normalization_factor",
    "line_item_normalized_usage_amount",
    "line_item_operation",
    "line_item_product_code",
    "line_item_resource_id",
    "line_item_tax_type",
    "line_item_unblended_cost",
    "line_item_unblended_rate",
    "line_item_usage_account_id",
    "line_item_usage_account_name",
    "line_item_usage_amount",
    "line_item_usage_end_date",
    "line_item_usage_start_date",
    "line_item_usage_type",
    "pricing_currency",
    "pricing_lease_contract_length",
    "pricing_offering_class",
    "pricing_public_on_demand_cost",
    "pricing_public_on_demand_rate",
    "pricing_purchase_option",
    "pricing_rate_code",
    "pricing_rate_id",
    "pricing_term",
    "pricing_unit",
    "product",
    "product_comment",
    "product_fee_code",
    "product_fee_description",
    "product_from_location",
    "product_from_location_type",
    "product_from_region_code",
    "product_instance_family",
    "product_instance_type",
    "product_instancesku",
    "product_location",
    "product_location_type",
    "product_operation",
    "product_pricing_unit",
    "product_product_family",
    "product_region_code",
    "product_servicecode",
    "product_sku",
    "product_to_location",
    "product_to_location_type",
    "product_to_region_code",
    "product_usagetype",
    "reservation_amortized_upfront_cost_for_usage",
    "reservation_amortized_upfront_fee_for_billing_period",
    "reservation_availability_zone",
    "reservation_effective_cost",
    "reservation_end_time",
    "reservation_modification_status",
    "reservation_net_amortized_upfront_cost_for_usage",
    "reservation_net_amortized_upfront_fee_for_billing_period",
    "reservation_net_effective_cost",
    "reservation_net_recurring_fee_for_usage",
    "reservation_net_unused_amortized_upfront_fee_for_billing_period",
    "reservation_net_unused_recurring_fee",
    "reservation_net_upfront_value",
    "reservation_normalized_units_per_reservation",
    "reservation_number_of_reservations",
    "reservation_recurring_fee_for_usage",
    "reservation_reservation_a_r_n",
    "reservation_start_time",
    "reservation_subscription_id",
    "reservation_total_reserved_normalized_units",
    "reservation_total_reserved_units",
    "reservation_units_per_reservation",
    "reservation_unused_amortized_upfront_fee_for_billing_period",
    "reservation_unused_normalized_unit_quantity",
    "reservation_unused_quantity",
    "reservation_unused_recurring_fee",
    "reservation_upfront_value",
    "resource_tags",
    "savings_plan_amortized_upfront_commitment_for_billing_period",
    "savings_plan_end_time",
    "savings_plan_instance_type_family",
    "savings_plan_net_amortized_upfront_commitment_for_billing_period",
    "savings_plan_net_recurring_commitment_for_billing_period",
    "savings_plan_net_savings_plan_effective_cost",
    "savings_plan_offering_type",
    "savings_plan_payment_option",
    "savings_plan_purchase_term",
    "savings_plan_recurring_commitment_for_billing_period",
    "savings_plan_region",
    "savings_plan_savings_plan_a_r_n",
    "savings_plan_savings_plan_effective_cost",
    "savings_plan_savings_plan_rate",
    "savings_plan_start_time",
    "savings_plan_total_commitment_to_date",
    "savings_plan_used_commitment",
];

/// What the export delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ExportFormat {
    /// FOCUS 1.2 with AWS columns (`FOCUS_1_2_AWS`).
    #[default]
    Focus12,
    /// Cost and Usage Report 2.0 (`COST_AND_USAGE_REPORT`).
    Cur20,
}

impl ExportFormat {
    pub const MESSAGE: &'static str = "Export format must be focus-1.2 or cur-2.0";

    /// `focus-1.2` or `cur-2.0` (any case; the template's `FOCUS-1.2` / `CUR-2.0` too).
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        match input.trim().to_ascii_lowercase().as_str() {
            "focus-1.2" => Ok(Self::Focus12),
            "cur-2.0" => Ok(Self::Cur20),
            _ => Err(FieldError::new("export_format", Self::MESSAGE)),
        }
    }

    /// The API's name: `focus-1.2` or `cur-2.0`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Focus12 => "focus-1.2",
            Self::Cur20 => "cur-2.0",
        }
    }

    /// The template's `ExportFormat` value.
    pub fn template_value(self) -> &'static str {
        match self {
            Self::Focus12 => "FOCUS-1.2",
            Self::Cur20 => "CUR-2.0",
        }
    }

    /// The export the template creates unless told otherwise.
    pub fn default_export_name(self) -> &'static str {
        match self {
            Self::Focus12 => "costscope-focus",
            Self::Cur20 => "costscope-cur2",
        }
    }

    /// The Data Exports table the export reads.
    pub fn table(self) -> &'static str {
        match self {
            Self::Focus12 => "FOCUS_1_2_AWS",
            Self::Cur20 => "COST_AND_USAGE_REPORT",
        }
    }

    /// The export's `QueryStatement`: every column of [`Self::table`].
    pub fn query_statement(self) -> String {
        let columns = match self {
            Self::Focus12 => FOCUS_1_2_AWS_COLUMNS,
            Self::Cur20 => CUR_2_0_COLUMNS,
        };
        format!("SELECT {} FROM {}", columns.join(", "), self.table())
    }
}

/// What [`render`] writes into the template as parameter defaults (and [`stack_set_commands`]
/// passes as parameters). The server passes validated values; rendering quotes whatever it
/// gets, so that no value can change the template's structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateParams<'a> {
    /// The tenant's external id.
    pub external_id: &'a str,
    /// Costscope's own AWS principal; `None`: the template asks for it.
    pub trusted_principal_arn: Option<&'a str>,
    pub format: ExportFormat,
    /// The bucket to create; `None`: `costscope-exports-<account id>`.
    pub bucket_name: Option<&'a str>,
    pub prefix: &'a str,
    pub export_name: &'a str,
}

impl<'a> TemplateParams<'a> {
    /// The template's own defaults for `format`, with the tenant's external id.
    pub fn defaults(external_id: &'a str, format: ExportFormat) -> Self {
        Self {
            external_id,
            trusted_principal_arn: None,
            format,
            bucket_name: None,
            prefix: DEFAULT_PREFIX,
            export_name: format.default_export_name(),
        }
    }
}

/// A YAML single-quoted scalar: `'` doubled, line breaks and other control characters (which
/// a single-quoted scalar cannot carry faithfully) dropped.
fn yaml_quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('\'');
    for c in value.chars().filter(|c| !c.is_control()) {
        if c == '\'' {
            out.push('\'');
        }
        out.push(c);
    }
    out.push('\'');
    out
}

/// The template as Costscope serves it: [`TemplateParams`] become the parameter defaults.
pub fn render_with(params: &TemplateParams<'_>, create_export: bool) -> String {
    let trusted = match params.trusted_principal_arn {
        Some(arn) => format!("    Default: {}\n", yaml_quote(arn)),
        None => String::new(),
    };
    let out = TEMPLATE
        .replace("{{EXTERNAL_ID}}", &yaml_quote(params.external_id))
        .replace("{{TRUSTED_PRINCIPAL_DEFAULT}}\n", &trusted)
        .replace(
            "{{CREATE_EXPORT}}",
            if create_export { "true" } else { "false" },
        )
        .replace("{{EXPORT_FORMAT}}", params.format.template_value())
        .replace(
            "{{BUCKET_NAME}}",
            &yaml_quote(params.bucket_name.unwrap_or_default()),
        )
        .replace("{{PREFIX}}", &yaml_quote(params.prefix))
        .replace("{{EXPORT_NAME}}", &yaml_quote(params.export_name))
        .replace("{{ROLE_NAME}}", ROLE_NAME)
        .replace("{{FOCUS_QUERY}}", &ExportFormat::Focus12.query_statement())
        .replace("{{CUR2_QUERY}}", &ExportFormat::Cur20.query_statement());
    debug_assert!(
        !out.contains("{{"),
        "a placeholder was left in the template"
    );
    out
}

/// The template for a management or single account (it creates the export).
pub fn render(params: &TemplateParams<'_>) -> String {
    render_with(params, true)
}

/// Where the StackSet's instances go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeploymentTarget<'a> {
    /// One account (a self-managed StackSet).
    Account(&'a AwsAccountId),
    /// Every account under an organisation root or OU (a service-managed StackSet with
    /// automatic deployment); member accounts get the role only.
    Organization(&'a AwsOrganizationId),
}

/// A shell word: left as is when it holds only characters no shell treats specially,
/// otherwise single-quoted (`'` written as `'\''`).
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=,@+-".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// One `--parameters` entry in the AWS CLI's shorthand syntax; a value holding a character
/// the shorthand parser treats specially is double-quoted with `\` escapes.
fn cli_parameter(key: &str, value: &str) -> String {
    let plain = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_./:@+=-".contains(c));
    let value = if plain && !value.is_empty() {
        value.to_owned()
    } else {
        format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
    };
    shell_quote(&format!("ParameterKey={key},ParameterValue={value}"))
}

/// The two commands of the registration answer (`StackSetCmds`): create the StackSet from the
/// downloaded template (`file://costscope-onboarding.yaml`), then deploy its instances to the
/// account or to every account of the organisation, in us-east-1.
pub fn stack_set_commands(
    params: &TemplateParams<'_>,
    target: DeploymentTarget<'_>,
) -> [String; 2] {
    let mut create = vec![
        "aws cloudformation create-stack-set".to_owned(),
        format!("--stack-set-name {STACK_SET_NAME}"),
        format!("--template-body file://{TEMPLATE_FILE_NAME}"),
        "--capabilities CAPABILITY_NAMED_IAM".to_owned(),
    ];
    if matches!(target, DeploymentTarget::Organization(_)) {
        create.push("--permission-model SERVICE_MANAGED".to_owned());
        create.push("--auto-deployment Enabled=true,RetainStacksOnAccountRemoval=false".to_owned());
    }
    let mut parameters = vec![cli_parameter("ExternalId", params.external_id)];
    if let Some(arn) = params.trusted_principal_arn {
        parameters.push(cli_parameter("TrustedPrincipalArn", arn));
    }
    let create_export = if matches!(target, DeploymentTarget::Organization(_)) {
        "false"
    } else {
        "true"
    };
    parameters.push(cli_parameter("CreateExport", create_export));
    parameters.push(cli_parameter(
        "ExportFormat",
        params.format.template_value(),
    ));
    if let Some(bucket) = params.bucket_name {
        parameters.push(cli_parameter("BucketName", bucket));
    }
    parameters.push(cli_parameter("Prefix", params.prefix));
    parameters.push(cli_parameter("ExportName", params.export_name));
    create.push(format!("--parameters {}", parameters.join(" ")));

    let targets = match target {
        DeploymentTarget::Account(account) => {
            format!("--accounts {}", shell_quote(account.as_str()))
        }
        DeploymentTarget::Organization(root) => format!(
            "--deployment-targets {}",
            shell_quote(&format!("OrganizationalUnitIds={}", root.as_str()))
        ),
    };
    let instances = format!(
        "aws cloudformation create-stack-instances --stack-set-name {STACK_SET_NAME} {targets} --regions {DEPLOY_REGION}"
    );
    [create.join(" "), instances]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_name_their_exports() {
        assert_eq!(
            ExportFormat::parse("focus-1.2").unwrap(),
            ExportFormat::Focus12
        );
        assert_eq!(
            ExportFormat::parse(" CUR-2.0 ").unwrap(),
            ExportFormat::Cur20
        );
        let err = ExportFormat::parse("cur").unwrap_err();
        assert_eq!(
            (err.field, err.message),
            (
                "export_format",
                "Export format must be focus-1.2 or cur-2.0"
            )
        );
        assert_eq!(
            ExportFormat::Focus12.default_export_name(),
            "costscope-focus"
        );
        assert_eq!(ExportFormat::Cur20.default_export_name(), "costscope-cur2");
        assert_eq!(ExportFormat::default(), ExportFormat::Focus12);
    }

    #[test]
    fn queries_name_every_column_once() {
        assert_eq!(FOCUS_1_2_AWS_COLUMNS.len(), 60);
        for columns in [FOCUS_1_2_AWS_COLUMNS, CUR_2_0_COLUMNS] {
            let mut sorted = columns.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), columns.len());
        }
        let focus = ExportFormat::Focus12.query_statement();
        assert!(focus.starts_with("SELECT AvailabilityZone, BilledCost, "));
        assert!(focus.ends_with(", x_ServiceCode FROM FOCUS_1_2_AWS"));
        let cur = ExportFormat::Cur20.query_statement();
        assert!(cur.ends_with("savings_plan_used_commitment FROM COST_AND_USAGE_REPORT"));
        assert!(!cur.contains('*') && !focus.contains('*'));
    }

    #[test]
    fn render_fills_every_placeholder_and_quotes_values() {
        let mut params = TemplateParams::defaults("it's-ext", ExportFormat::Cur20);
        params.trusted_principal_arn = Some("arn:aws:iam::111122223333:role/costscope");
        let yaml = render(&params);
        assert!(!yaml.contains("{{"));
        assert!(yaml.contains("    Default: 'it''s-ext'\n"));
        assert!(yaml.contains("    Default: 'arn:aws:iam::111122223333:role/costscope'\n"));
        assert!(yaml.contains("    Default: CUR-2.0\n"));
        assert!(yaml.contains("    Default: 'costscope-cur2'\n"));
        assert!(yaml.contains("    Default: 'costscope'\n"));
        assert!(yaml.contains("    Default: ''\n"));
        assert!(yaml.contains("    Default: 'true'\n"));

        let without = render(&TemplateParams::defaults("ext-1", ExportFormat::Focus12));
        let trusted = without
            .split("  TrustedPrincipalArn:\n")
            .nth(1)
            .unwrap()
            .split("\n  CreateExport:")
            .next()
            .unwrap();
        assert!(!trusted.contains("Default"), "{trusted}");
        assert!(render_with(
            &TemplateParams::defaults("e1", ExportFormat::Focus12),
            false
        )
        .contains("    Default: 'false'\n"));
    }

    #[test]
    fn yaml_quoting_cannot_break_out() {
        assert_eq!(yaml_quote("a'b"), "'a''b'");
        assert_eq!(yaml_quote("a\nb: c"), "'ab: c'");
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("r-ab12"), "r-ab12");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("$(x)"), "'$(x)'");
        assert_eq!(
            cli_parameter("ExternalId", "a,b"),
            "'ParameterKey=ExternalId,ParameterValue=\"a,b\"'"
        );
        assert_eq!(
            cli_parameter("Prefix", ""),
            "'ParameterKey=Prefix,ParameterValue=\"\"'"
        );
    }
}
