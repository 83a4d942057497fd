//! CloudWatch CPU of the instances found in a region: `CPUUtilization` daily averages and
//! maxima over the last 14 days (GetMetricStatistics), kept as the instance's metrics.

use aws_sdk_cloudwatch::primitives::DateTime as AwsDateTime;
use aws_sdk_cloudwatch::types::{Dimension, Statistic};
use chrono::{Duration, Utc};
use costscope_core::inventory::resource_types::EC2_INSTANCE;
use futures_util::stream::{self, StreamExt};
use serde_json::json;

use super::{rfc3339, Call, CallFailure, Ctx, Found, CLOUDWATCH};

const GET_METRIC_STATISTICS: Call = Call {
    service: CLOUDWATCH,
    action: "GetMetricStatistics",
    permission: "cloudwatch:GetMetricStatistics",
};

/// The window measured.
const DAYS: i64 = 14;
/// Instances measured at once.
const CONCURRENCY: usize = 8;

/// Sets the metrics of every instance of `found` in `region`; a failure is recorded once for
/// the region and leaves the remaining instances unmeasured (metrics are never a reason to
/// lose a resource).
pub(crate) async fn measure_instances(ctx: &Ctx<'_>, region: &str, found: &mut Found) {
    let client = ctx.cloudwatch(region);
    let now = Utc::now();
    let start = now - Duration::days(DAYS);
    let indexes: Vec<usize> = found
        .resources
        .iter()
        .enumerate()
        .filter(|(_, r)| r.resource_type == EC2_INSTANCE && r.region == region)
        .map(|(i, _)| i)
        .collect();
    let measured: Vec<(usize, Result<Option<serde_json::Value>, CallFailure>)> =
        stream::iter(indexes)
            .map(|index| {
                let client = &client;
                let id = found.resources[index].resource_id.clone();
                async move {
                    let answer = client
                        .get_metric_statistics()
                        .namespace("AWS/EC2")
                        .metric_name("CPUUtilization")
                        .dimensions(Dimension::builder().name("InstanceId").value(id).build())
                        .start_time(AwsDateTime::from_secs(start.timestamp()))
                        .end_time(AwsDateTime::from_secs(now.timestamp()))
                        .period(86_400)
                        .statistics(Statistic::Average)
                        .statistics(Statistic::Maximum)
                        .send()
                        .await
                        .map_err(|err| CallFailure::new(region, GET_METRIC_STATISTICS, &err));
                    (
                        index,
                        answer.map(|answer| {
                            let points = answer.datapoints();
                            let averages: Vec<f64> =
                                points.iter().filter_map(|p| p.average()).collect();
                            if averages.is_empty() {
                                return None;
                            }
                            let average = averages.iter().sum::<f64>() / averages.len() as f64;
                            let max = points
                                .iter()
                                .filter_map(|p| p.maximum().or(p.average()))
                                .fold(f64::MIN, f64::max);
                            Some(json!({
                                "CpuAverage14d": average,
                                "CpuMax14d": max,
                                "Datapoints": averages.len(),
                                "MeasuredAt": rfc3339(now.with_timezone(&Utc)),
                            }))
                        }),
                    )
                }
            })
            .buffer_unordered(CONCURRENCY)
            .collect()
            .await;
    let mut failure = None;
    for (index, result) in measured {
        match result {
            Ok(metrics) => found.resources[index].metrics = metrics,
            Err(err) => {
                failure.get_or_insert(err);
            }
        }
    }
    found.failures.extend(failure);
}
