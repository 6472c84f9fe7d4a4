//! pseudolens-core: privacy-risk and utility metrics for pseudonymized tables.
//!
//! Pure Rust, push-driven and I/O-free: the caller feeds bytes in chunks cut anywhere
//! ([`Audit::push`]) and takes a [`Report`] at the end ([`Audit::finish`]). The same code runs
//! natively (the CLI, tests, benchmarks) and in the browser's worker through the wasm binding.
//!
//! Where each part of the specification (`shared/spec/`) lives:
//! - README Sec 4-6 (cells, normalisation, CSV): [`ingest`]; Sec 4.1 kinds: [`profile`];
//!   Sec 3 roles: [`roles`]; Sec 10 result format: [`metric`].
//! - identity-risk.md Sec 1 (classes, policies): [`identity::classes`]; Sec 2-3 (class sizes,
//!   uniqueness): [`identity::class_size`]; Sec 4-5 (record risk, R_internal, prosecutor,
//!   risk distribution): [`identity::record_risk`].
//! - balance.md (R_external, risk_r, safety, RUT, candidate choice): [`balance`].

pub mod attribute;
pub mod audit;
pub mod balance;
pub mod error;
pub mod extract;
pub mod hash;
pub mod identity;
pub mod ingest;
mod json;
pub mod metric;
pub mod par;
pub mod reference;
mod rng;
pub mod sample;
pub mod table;
mod special;
pub mod utility;
pub mod verdict;

pub use audit::{Audit, AuditConfig, AuditPart, Report, TableSummary};
pub use error::{Error, ErrorKind, Result};
