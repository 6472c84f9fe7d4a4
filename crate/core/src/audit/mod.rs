//! One audit of one released table: the streaming pass, the audit of a table kept in memory,
//! the class-partitioned audit, and the summaries they feed (spec README; issue 11).
//!
//! [`Audit::push`] takes chunks cut anywhere; [`Audit::finish`] returns the [`Report`](crate::report::Report). The
//! per-file state is a [`Table`](crate::table::Table) (column values, and codes when kept) and a [`TableSummary`]
//! (the class table and what the roles need), both mergeable with another part of the file.
//!
//! One concept a file:
//! - `summary`: the accumulator [`TableSummary`], its roles and its merge; `absorb`: how
//!   it absorbs blocks of codes; `maps`: what it keeps while absorbing (code maps, first rows);
//! - `families`: the family runner, which finishes a summary into the report, a step per
//!   group of metric families; `warnings`: the warnings about the table and its reading;
//! - `stream`: the streaming audit of a file ([`Audit`], [`AuditPart`]);
//! - `kept`: the audit of a table kept in memory; `split`: the same in steps, its
//!   attribution lattice computed elsewhere ([`SplitAudit`]);
//! - `disjoint`: the class-partitioned audit.

mod absorb;
mod disjoint;
mod families;
mod kept;
mod maps;
mod split;
mod stream;
mod summary;
mod warnings;

pub use disjoint::{audit_disjoint, class_statistics};
pub use kept::{audit_table, sorting_bytes};
pub use split::SplitAudit;
pub use stream::{Audit, AuditBlocks, AuditPart};
pub use summary::TableSummary;
