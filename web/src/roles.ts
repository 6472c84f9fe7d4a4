// Column roles: what the user decides about each column before the audit, and how those
// decisions become an AuditConfig. Pure logic, no DOM.

import type { AuditConfig, ColumnProfile, Encoding, MissingPolicy, Role } from './report';

export const ROLES: readonly Role[] = ['quasi_identifier', 'sensitive', 'direct_identifier', 'insensitive'];

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  quasi_identifier: 'Quasi-identifier',
  sensitive: 'Sensitive',
  direct_identifier: 'Direct identifier',
  insensitive: 'Other (not audited)',
};

export const ROLE_HELP: Readonly<Record<Role, string>> = {
  quasi_identifier: 'Known to outsiders (age, sex, postcode, dates): used to group records.',
  sensitive: 'Confidential content (such as a diagnosis): not used to group records.',
  direct_identifier: 'Names the person (name, record number): should not be released.',
  insensitive: 'Neither identifying nor sensitive.',
};

export const MISSING_POLICIES: readonly MissingPolicy[] = ['ordinary', 'wildcard', 'drop'];

export const DEFAULT_THRESHOLD = 0.2;

/** Roles per column name, in file order. */
export type RoleTable = Map<string, Role>;

export function proposedRoles(columns: readonly ColumnProfile[]): RoleTable {
  return new Map(columns.map((c) => [c.name, c.proposed_role]));
}

export function columnsWithRole(roles: RoleTable, role: Role): string[] {
  return [...roles].filter(([, r]) => r === role).map(([name]) => name);
}

export interface AuditChoices {
  roles: RoleTable;
  missingPolicy: MissingPolicy;
  threshold: number;
  /** Set when the profile pass found the file to be windows-1252, to skip a second retry. */
  encoding: Encoding | null;
}

/** Why the choices cannot run yet, or null when they can. */
export function validate(choices: AuditChoices): string | null {
  if (columnsWithRole(choices.roles, 'quasi_identifier').length === 0) {
    return 'Mark at least one column as a quasi-identifier: the audit groups records by those columns.';
  }
  if (!(choices.threshold > 0 && choices.threshold <= 1)) {
    return 'The threshold τ must be a number above 0 and at most 1.';
  }
  return null;
}

export function auditConfig(choices: AuditChoices): AuditConfig {
  return {
    quasi_identifiers: columnsWithRole(choices.roles, 'quasi_identifier'),
    sensitive: columnsWithRole(choices.roles, 'sensitive'),
    missing_policy: choices.missingPolicy,
    threshold: choices.threshold,
    encoding: choices.encoding,
  };
}

/** The configuration of the first pass over a new file: profile only. */
export function profileConfig(): AuditConfig {
  return { quasi_identifiers: [] };
}
