//! pseudolens-core: privacy-risk and utility metrics for pseudonymized tables.
//!
//! Pure Rust, push-driven and I/O-free: the caller feeds bytes in chunks cut anywhere
//! ([`Audit::push`]) and takes a [`Report`] at the end ([`Audit::finish`]). The same code runs
//! natively (the CLI, tests, benchmarks) and in the browser's worker through the wasm binding.
//!
//! Where each part of the specification (`shared/spec/`) lives:
//! - README Sec 4-6 (cells, normalisation, CSV): [`ingest`]; Sec 4.1 kinds: [`table::profile`];
//!   Sec 3 roles: [`table::roles`]; Sec 10 result format: [`metric`].
//! - identity-risk.md Sec 1 (classes, policies): [`table::classes`]; Sec 2-3 (class sizes,
//!   uniqueness): [`identity::class_size`]; Sec 4-5 (record risk, R_internal, prosecutor,
//!   risk distribution): [`identity::record_risk`].
//! - balance.md (R_external, risk_r, safety, RUT, candidate choice): [`balance`].
//! - protect.md (ladders, the lattice search, apply): [`mod@protect`]; Sec 5 the release audited
//!   against the prediction: [`release`].

// The core does no I/O: nothing it computes is printed, every figure goes into the report.
#![warn(clippy::print_stdout, clippy::print_stderr)]

// Base: errors, hashing, confidence intervals, random numbers, special functions, numeric helpers, the result
// format, parallel work, the radix sort.
pub mod error;
pub mod figures;
pub mod hash;
pub mod interval;
mod json;
pub mod metric;
pub mod numeric;
pub mod par;
pub(crate) mod radix;
mod rng;
mod special;

// Reading: encoding, dialect, records, cells.
pub mod ingest;

// The table: column values and codes, profile, roles, classes, the reference table.
pub mod table;

// The metric families, each from its own input and parameters.
pub mod advice;
pub mod attack;
pub mod attribute;
pub mod balance;
pub mod hipaa;
pub mod identity;
pub mod protect;
pub mod synthetic;
pub mod utility;
pub mod verdict;

// The settings.
pub mod config;

// The audit and its report; the side tables and the drill-down read with the settings.
pub mod audit;
pub mod class_part;
pub mod extract;
pub mod progress;
pub mod release;
pub mod report;
pub mod scope;
pub mod shareable;
pub mod sides;

// Synthetic tables (samples, benchmarks).
pub mod sample;

// The wire contract's TypeScript types and the core's defaults for the page (a test writes them).
#[cfg(test)]
mod contract;

// The facade: what the binding, the CLI and other front ends use.
pub use advice::AdviceParams;
pub use attack::AttackParams;
pub use attribute::AttributeParams;
pub use audit::{Audit, AuditPart, SplitAudit, TableSummary, audit_disjoint, audit_table, class_statistics, sorting_bytes};
pub use balance::{BalanceParams, Candidate, ChoiceParams, RiskCombination, WeightPreset, choose};
pub use class_part::ClassPart;
pub use config::{AuditConfig, DEFAULT_MEMORY_BUDGET, FULL_ENGINE};
pub use error::{Error, ErrorKind, Result};
pub use extract::{ClassValues, Extract, Extracted, extract_table};
pub use hash::ContentHash;
pub use identity::attribution::{Lattice, SubsetStats};
pub use identity::disjoint::{ClassHasher, DisjointClasses};
pub use identity::kmap::{KMapEstimator, KMapParams};
pub use identity::lattice::{stats_from_bytes, stats_to_bytes};
pub use identity::population::Bootstrap;
pub use ingest::cells::{CellBatch, CellReader};
pub use ingest::encoding::Encoding;
pub use ingest::format::Format;
pub use ingest::reader::{CsvOptions, InputFacts, PartBounds, Probe, Ragged, Reader, Span};
pub use protect::{Criteria, DateLevel, Ladder, Objective, ProtectParams, ProtectSettings, Protector, Release, Suppressed, protect, release_csv};
pub use release::{check_release, release_config};
pub use report::{ReadPath, Report, Warning};
pub use sample::{BENCH_QIS, bench_table, hospital_sample};
pub use shareable::{DEFAULT_MIN_COUNT, ShareableInfo, ShareableReport, min_count_of, shareable};
pub use sides::{Original, SideReader, SideRole, Sides, reference};
pub use synthetic::{CapMethod, SyntheticParams};
pub use table::classes::MissingPolicy;
pub use table::kind::Kind;
pub use table::read::{BlockSink, FilePart, ReadSettings, ReadsTable, TableReader};
pub use table::reference::{Reference, ReferenceTable};
pub use table::{Part, Table};
pub use utility::attribute::AttributeSettings;
pub use utility::capture::Captured;
pub use utility::params::{Aggregate, Query, UtilityParams};
pub use verdict::scorr::{KBasis, ScorrThresholds};
