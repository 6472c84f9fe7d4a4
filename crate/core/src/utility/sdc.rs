//! placeholder being written
use crate::metric::MetricResult;
use crate::utility::Tables;

/// placeholder
pub fn metrics(_: &Tables<'_>) -> Vec<MetricResult> {
    Vec::new()
}
