//! Verdicts (spec identity-risk.md Sec 11): ARX's threshold check and SCORR's compliance rule
//! and risk bands, each with its reasons in words and the thresholds it used.

pub mod arx;
pub mod scorr;
