// A synthetic or perturbed release: step 2's wording for it. It is audited as any release,
// with the synthetic measures on (original-settings.ts) and its original table required.

import type { ProfileMode } from '../setup/profile-view';

export function syntheticMode(): ProfileMode {
  return {
    runLabel: 'Run audit',
    synthetic: true,
    intro:
      'Checking a synthetic or perturbed release. Give its original table below (required) and, if you have one, a holdout: records of the same population not used to make the release. Mark as quasi-identifiers the columns an attacker may know, and as sensitive those CAP should guess.',
    check: (c) =>
      c.original ? null : 'A synthetic release is measured against its original table: choose it under “Utility: compare with the original table”.',
  };
}
