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
