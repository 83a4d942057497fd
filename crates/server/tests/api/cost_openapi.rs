//! `/openapi.json` documents the cost calls and their types.

use reqwest::StatusCode;

use crate::helpers::{spawn_app, status_and_json};

#[tokio::test]
async fn openapi_json_documents_the_cost_calls() {
    let app = spawn_app().await;

    let (status, doc) = status_and_json(app.get("/openapi.json", None).await).await;

    assert_eq!(status, StatusCode::OK);
    for (path, method) in [
        ("/v2/cost/aggr", "post"),
        ("/v2/cost/compare", "post"),
        ("/v2/cost/filters", "post"),
        ("/v1/cost/filter-parameters", "get"),
        ("/v2/cost/spend", "post"),
        ("/v1/query", "post"),
        ("/v1/account", "get"),
    ] {
        assert!(
            doc["paths"][path][method].is_object(),
            "missing {method} {path}"
        );
    }
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in [
        "AggregateRequest",
        "AggregateResponse",
        "CostRow",
        "CostSummary",
        "CompareRequest",
        "CompareResponse",
        "CompareRow",
        "CompareTotals",
        "ChangeStatus",
        "FilterGroupDto",
        "ConditionDto",
        "TagConditionDto",
        "TagValueDto",
        "OneOrMany",
        "CostTypeDto",
        "FilterOptionsRequest",
        "FilterOptionsResponse",
        "FilterParametersResponse",
        "SpendRequest",
        "SpendResponse",
        "SpendPeriod",
        "SpendComparison",
        "QueryRequest",
        "QueryFilter",
    ] {
        assert!(schemas.contains_key(name), "missing schema {name}");
    }
    let row = &schemas["CostRow"]["properties"];
    assert!(row["children"].is_object() && row["grouping_path"].is_object());
    assert!(schemas["FilterGroupDto"]["properties"]
        .get("unknown")
        .is_none());
}

/// Every operation lists the answers it shares with its kind (401 behind a token, 400 with
/// parameters or a body, 413 with a body), and every error answer is an `ErrorBody`, so that
/// schemathesis' status and schema checks hold (scripts/schemathesis.sh).
#[tokio::test]
async fn every_operation_documents_its_refusals_as_error_bodies() {
    let app = spawn_app().await;
    let (_, doc) = status_and_json(app.get("/openapi.json", None).await).await;

    let mut missing = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            let secured = operation["security"]
                .as_array()
                .is_some_and(|schemes| !schemes.is_empty());
            let has_body = operation.get("requestBody").is_some();
            let has_parameters = operation["parameters"]
                .as_array()
                .is_some_and(|parameters| !parameters.is_empty());
            let expected = [
                ("401", secured),
                ("400", has_body || has_parameters),
                ("413", has_body),
            ];
            for (status, needed) in expected {
                if needed && !responses.contains_key(status) {
                    missing.push(format!("{method} {path}: no {status}"));
                }
            }
            for (status, response) in responses {
                let schema = &response["content"]["application/json"]["schema"]["$ref"];
                let error = status.starts_with('4') || status.starts_with('5');
                // `POST /v1/job` refusals also carry the text in `data.details`, as spec 2 §7
                // (Discovery) has it: an ErrorBody's `message` plus that.
                let job_refusal = path == "/v1/job"
                    && schema == "#/components/schemas/JobRefused"
                    && doc["components"]["schemas"]["JobRefused"]["properties"]["message"]
                        .is_object();
                if error && schema != "#/components/schemas/ErrorBody" && !job_refusal {
                    missing.push(format!("{method} {path}: {status} is not an ErrorBody"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Generated clients name a function after each operation id: two operations sharing one
/// (handlers of the same name in different modules) break the web app's generated types.
#[tokio::test]
async fn every_operation_id_is_unique() {
    let app = spawn_app().await;
    let (_, doc) = status_and_json(app.get("/openapi.json", None).await).await;
    let mut seen = std::collections::BTreeMap::new();
    let mut duplicates = Vec::new();
    for (path, operations) in doc["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            let id = operation["operationId"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            if let Some(first) = seen.insert(id.clone(), format!("{method} {path}")) {
                duplicates.push(format!("{id}: {first} and {method} {path}"));
            }
        }
    }
    assert!(seen.len() > 50, "only {} operations", seen.len());
    assert!(duplicates.is_empty(), "{}", duplicates.join("\n"));
}
