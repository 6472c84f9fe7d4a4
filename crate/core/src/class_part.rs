//! A part of a table that holds disjoint equivalence classes (the class-partitioned mode of
//! docs/spark.md): its profile and account, without its rows' codes, and its class statistics.
//! Parts merge in any order and travel as bytes; the merged part gives the report
//! ([`crate::audit::audit_disjoint`]).
//!
//! The binary form: `magic "PLCP" | u16 version = 1 | u64 length of the statistics |
//! statistics ([`DisjointClasses::to_bytes`]) | the table ([`crate::table::wire`])`.

use crate::audit::{audit_disjoint, class_statistics};
use crate::config::AuditConfig;
use crate::error::{Error, Result};
use crate::identity::disjoint::{ClassHasher, DisjointClasses};
use crate::report::Report;
use crate::table::Table;

const MAGIC: &[u8; 4] = b"PLCP";

/// Most distinct values a column of a part ships; past them, its sketch alone (16 kB): a part
/// then weighs its class statistics and at most this many values a column, whatever its rows
/// (measured, `pseudolens generate --rows 1000000`, 5 QIs, 8 parts: 35.1 MB to the driver
/// with every value, 0.64 MB with this bound; the one-phase mode's 2 partial tables, 16.5 MB).
pub const PROFILE_VALUES: usize = 4096;
const VERSION: u16 = 1;

/// The profile and class statistics of a part holding disjoint classes.
#[derive(Debug, Clone)]
pub struct ClassPart {
    /// The part's table, its codes dropped: the columns' values and sketches, the account.
    pub profile: Table,
    /// The statistics of its classes.
    pub classes: DisjointClasses,
}

impl ClassPart {
    /// The class part of a retained table whose classes no other part holds.
    pub fn of(mut table: Table, config: &AuditConfig) -> Result<ClassPart> {
        let classes = class_statistics(&table, config)?;
        table.keep_profile_only(PROFILE_VALUES, &config.normaliser());
        Ok(ClassPart { profile: table, classes })
    }

    /// The hasher that splits a table with this header into parts of disjoint classes for
    /// `config` (its QIs, its normalisation).
    pub fn hasher(header: &[String], config: &AuditConfig) -> Result<ClassHasher> {
        ClassHasher::new(header, &config.quasi_identifiers, config.normaliser())
    }

    /// Adds another part (its classes disjoint from this part's).
    pub fn merge(&mut self, other: ClassPart) -> Result<()> {
        self.profile.append(other.profile)?;
        self.classes.merge(other.classes);
        Ok(())
    }

    /// The report of the parts merged so far.
    pub fn audit(&self, config: &AuditConfig) -> Result<Report> {
        audit_disjoint(&self.profile, &self.classes, config)
    }

    /// The binary form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let stats = self.classes.to_bytes();
        let mut out = Vec::with_capacity(14 + stats.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(stats.len() as u64).to_le_bytes());
        out.extend_from_slice(&stats);
        out.extend_from_slice(&crate::table::wire::to_bytes(&self.profile, None));
        out
    }

    /// A part from its binary form: `invalid_class_part` when the bytes are not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<ClassPart> {
        let invalid = || Error::input("invalid_class_part", "these bytes are not a class-partitioned part of a table");
        if bytes.len() < 14 || &bytes[..4] != MAGIC {
            return Err(invalid());
        }
        if u16::from_le_bytes([bytes[4], bytes[5]]) != VERSION {
            return Err(Error::input("unsupported_class_part_version", "this class-partitioned part was written by another version of pseudolens"));
        }
        let len = usize::try_from(u64::from_le_bytes(bytes[6..14].try_into().expect("8 bytes"))).map_err(|_| invalid())?;
        let rest = &bytes[14..];
        if len > rest.len() {
            return Err(invalid());
        }
        let classes = DisjointClasses::from_bytes(&rest[..len])?;
        let (profile, _) = crate::table::wire::from_bytes(&rest[len..])?;
        Ok(ClassPart { profile, classes })
    }
}
