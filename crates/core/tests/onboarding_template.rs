//! The AWS onboarding template as Costscope serves it: linted by AWS's own linter, cfn-lint
//! (PyPI; `scripts/ensure-cfn-lint.sh` installs it), with zero errors and zero warnings in
//! every variant; read back (through cfn-lint's own YAML decoder, which knows CloudFormation's
//! `!Ref` / `!Sub` tags) to check what it grants; and the StackSet commands run through a real
//! shell to check their quoting.

use std::path::PathBuf;
use std::process::Command;

use costscope_core::aws_onboarding::{
    self, render, render_with, stack_set_commands, DeploymentTarget, ExportFormat, TemplateParams,
};
use costscope_core::cloud_accounts::{AwsAccountId, AwsOrganizationId};
use serde_json::{json, Value};

fn venv() -> PathBuf {
    match std::env::var_os("COSTSCOPE_CFN_LINT_VENV") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
            .join(".cache/costscope-cfn-lint-venv"),
    }
}

fn cfn_lint_bin() -> PathBuf {
    let bin = venv().join("bin/cfn-lint");
    assert!(
        bin.is_file(),
        "cfn-lint is not installed at {}: run scripts/ensure-cfn-lint.sh",
        bin.display()
    );
    bin
}

fn scratch(name: &str, content: &str) -> PathBuf {
    // One file per call: the tests run in parallel and must not read each other's templates.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("costscope-onboarding-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{call}-{name}"));
    std::fs::write(&path, content).unwrap();
    path
}

/// Lints `yaml` with cfn-lint for us-east-1: no error, no warning, nothing printed.
fn assert_lints_clean(name: &str, yaml: &str) {
    let path = scratch(name, yaml);
    let out = Command::new(cfn_lint_bin())
        .args(["--regions", "us-east-1", "--format", "parseable", "--"])
        .arg(&path)
        .output()
        .expect("run cfn-lint");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.trim().is_empty(),
        "cfn-lint found problems in {name} (exit {:?}):\n{stdout}\n{stderr}",
        out.status.code()
    );
}

/// The template as CloudFormation reads it, as JSON (intrinsic functions in their long form).
fn decode(yaml: &str) -> Value {
    let path = scratch("decode.yaml", yaml);
    let script = "import json, sys\n\
                  from cfnlint.decode import decode_str\n\
                  template, matches = decode_str(open(sys.argv[1]).read())\n\
                  assert not matches, matches\n\
                  print(json.dumps(template))\n";
    let out = Command::new(venv().join("bin/python"))
        .arg("-c")
        .arg(script)
        .arg(&path)
        .output()
        .expect("run cfn-lint's python (run scripts/ensure-cfn-lint.sh)");
    assert!(
        out.status.success(),
        "decoding failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn as_list(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    }
}

fn variants() -> Vec<(&'static str, String)> {
    let focus = TemplateParams::defaults("cs-tenant-5-0a1b2c3d", ExportFormat::Focus12);
    let cur = TemplateParams {
        trusted_principal_arn: Some("arn:aws:iam::111122223333:role/costscope-service"),
        bucket_name: Some("acme-billing-exports"),
        prefix: "billing/costscope",
        export_name: "acme-cur2",
        ..TemplateParams::defaults("cs-tenant-5-0a1b2c3d", ExportFormat::Cur20)
    };
    vec![
        ("focus-1.2.yaml", render(&focus)),
        ("cur-2.0.yaml", render(&cur)),
        ("member-account.yaml", render_with(&focus, false)),
        (
            "root-prefix.yaml",
            render(&TemplateParams {
                prefix: "",
                ..focus
            }),
        ),
    ]
}

#[test]
fn every_variant_lints_with_zero_errors_and_zero_warnings() {
    for (name, yaml) in variants() {
        assert_lints_clean(name, &yaml);
    }
}

#[test]
fn the_linter_really_runs() {
    // A template with a mistake must not pass: the clean result above means something.
    let broken = render(&TemplateParams::defaults("ext-1", ExportFormat::Focus12))
        .replace("SSEAlgorithm: AES256", "SSEAlgorithm: AES999");
    let path = scratch("broken.yaml", &broken);
    let out = Command::new(cfn_lint_bin())
        .args(["--regions", "us-east-1", "--"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("E3030"));
}

#[test]
fn parameters_carry_the_rendered_defaults() {
    let (_, yaml) = &variants()[1];
    let t = decode(yaml);
    let p = &t["Parameters"];
    assert_eq!(p["ExternalId"]["Default"], "cs-tenant-5-0a1b2c3d");
    assert_eq!(
        p["TrustedPrincipalArn"]["Default"],
        "arn:aws:iam::111122223333:role/costscope-service"
    );
    assert_eq!(p["ExportFormat"]["Default"], "CUR-2.0");
    assert_eq!(
        p["ExportFormat"]["AllowedValues"],
        json!(["FOCUS-1.2", "CUR-2.0"])
    );
    assert_eq!(p["BucketName"]["Default"], "acme-billing-exports");
    assert_eq!(p["Prefix"]["Default"], "billing/costscope");
    assert_eq!(p["ExportName"]["Default"], "acme-cur2");
    assert_eq!(p["CreateExport"]["Default"], "true");

    let focus = decode(&variants()[0].1);
    assert!(focus["Parameters"]["TrustedPrincipalArn"]
        .get("Default")
        .is_none());
    assert_eq!(focus["Parameters"]["BucketName"]["Default"], "");
    assert_eq!(
        focus["Parameters"]["ExportName"]["Default"],
        "costscope-focus"
    );
    assert_eq!(focus["Parameters"]["Prefix"]["Default"], "costscope");
    assert_eq!(
        decode(&variants()[2].1)["Parameters"]["CreateExport"]["Default"],
        "false"
    );
}

#[test]
fn an_external_id_with_quotes_cannot_change_the_template() {
    let yaml = render(&TemplateParams::defaults(
        "it's \"x\"\n  Injected: true",
        ExportFormat::Focus12,
    ));
    let t = decode(&yaml);
    assert_eq!(
        t["Parameters"]["ExternalId"]["Default"],
        "it's \"x\"  Injected: true"
    );
    assert!(t["Parameters"]["ExternalId"].get("Injected").is_none());
}

#[test]
fn only_costscope_with_the_external_id_may_assume_the_role() {
    let t = decode(&variants()[0].1);
    let role = &t["Resources"]["CostscopeReadOnlyRole"];
    assert_eq!(role["Type"], "AWS::IAM::Role");
    assert_eq!(role["Properties"]["RoleName"], aws_onboarding::ROLE_NAME);
    let statements = as_list(&role["Properties"]["AssumeRolePolicyDocument"]["Statement"]);
    assert_eq!(statements.len(), 1, "one way in: {statements:?}");
    let s = &statements[0];
    assert_eq!(s["Effect"], "Allow");
    assert_eq!(s["Action"], "sts:AssumeRole");
    assert_eq!(
        s["Principal"],
        json!({"AWS": {"Ref": "TrustedPrincipalArn"}})
    );
    assert_eq!(
        s["Condition"],
        json!({"StringEquals": {"sts:ExternalId": {"Ref": "ExternalId"}}})
    );
}

/// `service:Action` patterns that only read: Get*, List*, Describe* (a wildcard only after
/// such a verb), never `*`.
fn is_read_only(action: &str) -> bool {
    let Some((service, name)) = action.split_once(':') else {
        return false;
    };
    !service.is_empty()
        && !service.contains('*')
        && ["Get", "List", "Describe"]
            .iter()
            .any(|verb| name.starts_with(verb))
}

#[test]
fn the_role_only_reads() {
    for (name, yaml) in variants() {
        let t = decode(&yaml);
        let role = &t["Resources"]["CostscopeReadOnlyRole"]["Properties"];
        assert!(role.get("ManagedPolicyArns").is_none(), "{name}");
        let policies = as_list(&role["Policies"]);
        assert!(!policies.is_empty());
        let mut actions = Vec::new();
        for policy in &policies {
            for s in as_list(&policy["PolicyDocument"]["Statement"]) {
                assert_eq!(s["Effect"], "Allow", "{name}: {s}");
                assert!(s.get("NotAction").is_none() && s.get("NotResource").is_none());
                for a in as_list(&s["Action"]) {
                    let a = a.as_str().unwrap().to_owned();
                    assert!(is_read_only(&a), "{name}: {a} is not read-only");
                    actions.push(a);
                }
            }
        }
        for needed in [
            "s3:GetObject",
            "s3:ListBucket",
            "s3:GetBucketLocation",
            "organizations:List*",
            "organizations:Describe*",
            "ec2:Describe*",
            "s3:ListAllMyBuckets",
            "rds:Describe*",
            "lambda:ListFunctions",
            "lambda:GetFunctionConfiguration",
            "elasticloadbalancing:Describe*",
            "dynamodb:ListTables",
            "dynamodb:DescribeTable",
            "iam:ListUsers",
            "iam:ListRoles",
            "iam:ListAccessKeys",
            "tag:GetResources",
        ] {
            assert!(
                actions.iter().any(|a| a == needed),
                "{name}: {needed} missing"
            );
        }
    }
    assert!(!is_read_only("s3:PutObject"));
    assert!(!is_read_only("*"));
    assert!(!is_read_only("s3:*"));
    assert!(!is_read_only("*:Get*"));
}

#[test]
fn nothing_else_grants_anything_but_the_export_service_writing_the_export() {
    for (name, yaml) in variants() {
        let t = decode(&yaml);
        let resources = t["Resources"].as_object().unwrap();
        let mut types: Vec<&str> = resources
            .values()
            .map(|r| r["Type"].as_str().unwrap())
            .collect();
        types.sort_unstable();
        assert_eq!(
            types,
            [
                "AWS::BCMDataExports::Export",
                "AWS::IAM::Role",
                "AWS::S3::Bucket",
                "AWS::S3::BucketPolicy"
            ],
            "{name}"
        );
        let policy = &resources["ExportBucketPolicy"]["Properties"]["PolicyDocument"];
        for s in as_list(&policy["Statement"]) {
            if s["Effect"] == "Deny" {
                continue;
            }
            assert_eq!(
                s["Principal"],
                json!({"Service": ["bcm-data-exports.amazonaws.com", "billingreports.amazonaws.com"]}),
                "{name}"
            );
            assert_eq!(s["Action"], json!(["s3:PutObject", "s3:GetBucketPolicy"]));
            let condition = &s["Condition"];
            assert_eq!(
                condition["StringEquals"]["aws:SourceAccount"],
                json!({"Ref": "AWS::AccountId"})
            );
            let arns = condition["StringLike"]["aws:SourceArn"].to_string();
            assert!(
                arns.contains("bcm-data-exports:us-east-1:${AWS::AccountId}:export/*")
                    && arns.contains("cur:us-east-1:${AWS::AccountId}:definition/*"),
                "{arns}"
            );
        }
        let bucket = &resources["ExportBucket"]["Properties"];
        assert_eq!(
            bucket["PublicAccessBlockConfiguration"],
            json!({"BlockPublicAcls": true, "BlockPublicPolicy": true,
                   "IgnorePublicAcls": true, "RestrictPublicBuckets": true})
        );
        assert_eq!(
            bucket["OwnershipControls"]["Rules"][0]["ObjectOwnership"],
            "BucketOwnerEnforced"
        );
        assert!(bucket["BucketEncryption"].is_object());
    }
}

#[test]
fn the_export_delivers_focus_or_cur_daily_to_the_bucket() {
    let t = decode(&variants()[0].1);
    let export = &t["Resources"]["BillingExport"]["Properties"]["Export"];
    assert_eq!(export["Name"], json!({"Ref": "ExportName"}));
    let query = &export["DataQuery"]["QueryStatement"]["Fn::If"];
    assert_eq!(query[0], "IsFocus");
    assert_eq!(query[1], ExportFormat::Focus12.query_statement());
    assert_eq!(query[2], ExportFormat::Cur20.query_statement());
    let tables = &export["DataQuery"]["TableConfigurations"]["Fn::If"];
    assert_eq!(tables[1]["FOCUS_1_2_AWS"]["TIME_GRANULARITY"], "DAILY");
    assert_eq!(
        tables[2]["COST_AND_USAGE_REPORT"]["TIME_GRANULARITY"],
        "DAILY"
    );
    let s3 = &export["DestinationConfigurations"]["S3Destination"];
    assert_eq!(s3["S3Bucket"], json!({"Ref": "ExportBucket"}));
    assert_eq!(s3["S3Prefix"], json!({"Ref": "Prefix"}));
    assert_eq!(
        s3["S3OutputConfigurations"]["Overwrite"],
        "OVERWRITE_REPORT"
    );
    assert_eq!(export["RefreshCadence"]["Frequency"], "SYNCHRONOUS");
    let outputs = t["Outputs"].as_object().unwrap();
    let mut names: Vec<&str> = outputs.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["BucketName", "ExportArn", "RoleArn"]);
}

/// The words a shell makes of `command`, with `aws` replaced by a function printing them.
fn shell_words(command: &str) -> Vec<String> {
    let script = format!("aws() {{ printf '%s\\0' \"$@\"; }}\n{command}\n");
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .output()
        .expect("run bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split('\0')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn stack_set_commands_for_one_account() {
    let account = AwsAccountId::parse("012345678901").unwrap();
    let params = TemplateParams::defaults("cs-tenant-5", ExportFormat::Focus12);
    let [create, instances] = stack_set_commands(&params, DeploymentTarget::Account(&account));
    assert!(create.starts_with("aws cloudformation create-stack-set --stack-set-name costscope-onboarding --template-body file://costscope-onboarding.yaml --capabilities CAPABILITY_NAMED_IAM --parameters "), "{create}");
    assert_eq!(
        shell_words(&create)[..8],
        [
            "cloudformation",
            "create-stack-set",
            "--stack-set-name",
            "costscope-onboarding",
            "--template-body",
            "file://costscope-onboarding.yaml",
            "--capabilities",
            "CAPABILITY_NAMED_IAM"
        ]
    );
    assert!(
        shell_words(&create).contains(&"ParameterKey=CreateExport,ParameterValue=true".to_owned())
    );
    assert_eq!(
        instances,
        "aws cloudformation create-stack-instances --stack-set-name costscope-onboarding --accounts 012345678901 --regions us-east-1"
    );
}

#[test]
fn stack_set_commands_for_an_organisation() {
    let root = AwsOrganizationId::parse("r-ab12").unwrap();
    let params = TemplateParams {
        trusted_principal_arn: Some("arn:aws:iam::111122223333:role/costscope-service"),
        ..TemplateParams::defaults("cs-tenant-5", ExportFormat::Cur20)
    };
    let [create, instances] = stack_set_commands(&params, DeploymentTarget::Organization(&root));
    let words = shell_words(&create);
    for expected in [
        "SERVICE_MANAGED",
        "Enabled=true,RetainStacksOnAccountRemoval=false",
        "ParameterKey=ExternalId,ParameterValue=cs-tenant-5",
        "ParameterKey=TrustedPrincipalArn,ParameterValue=arn:aws:iam::111122223333:role/costscope-service",
        "ParameterKey=CreateExport,ParameterValue=false",
        "ParameterKey=ExportFormat,ParameterValue=CUR-2.0",
        "ParameterKey=Prefix,ParameterValue=costscope",
        "ParameterKey=ExportName,ParameterValue=costscope-cur2",
    ] {
        assert!(words.iter().any(|w| w == expected), "{expected} not in {words:?}");
    }
    assert_eq!(
        shell_words(&instances),
        [
            "cloudformation",
            "create-stack-instances",
            "--stack-set-name",
            "costscope-onboarding",
            "--deployment-targets",
            "OrganizationalUnitIds=r-ab12",
            "--regions",
            "us-east-1"
        ]
    );
}

#[test]
fn stack_set_commands_quote_an_external_id_with_a_quote() {
    let account = AwsAccountId::parse("123456789012").unwrap();
    let nasty = "it's \"x\",y $(touch /tmp/pwned) `id`; \\";
    let params = TemplateParams::defaults(nasty, ExportFormat::Focus12);
    let [create, _] = stack_set_commands(&params, DeploymentTarget::Account(&account));
    let words = shell_words(&create);
    // One word, and the AWS CLI's shorthand sees the whole value (double-quoted, escaped).
    let parameter = words
        .iter()
        .find(|w| w.starts_with("ParameterKey=ExternalId,"))
        .expect("the external id parameter");
    assert_eq!(
        parameter,
        "ParameterKey=ExternalId,ParameterValue=\"it's \\\"x\\\",y $(touch /tmp/pwned) `id`; \\\\\""
    );
    assert!(words.contains(&"--parameters".to_owned()));
}
