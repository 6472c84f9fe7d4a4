// The job: the file being audited and what the page knows of it (how it is read, the pass
// under way, the last audit's settings, side tables and report, the profile and the file's
// hash), started anew for each file; and the settings of an audit of it: the form's choices
// over those of a link or a settings file, read as the job reads its file.

import type { ProfileForm } from '../setup/profile-view';
import { auditConfig, mergeAttributes, type AuditChoices } from '../setup/roles';
import type { ProtectionReport } from '../shared/protect-data';
import type { Pass, Source } from '../shared/protocol';
import type { AuditConfig, Encoding, Report, ShareableVariant } from '../shared/report';
import { headerRowBox, lenientBox } from './elements';

export interface Job {
  source: Source;
  label: string;
  /** Run the audit with the proposed roles right after profiling (the sample). */
  autoAudit: boolean;
  /** windows-1252 once a pass had to retry, so later passes start with it. */
  encoding: Encoding | null;
  /** Lenient reading (the checkbox when the file was chosen): every read of this file and of
   * its side tables pads or cuts ragged rows and skips records that cannot be read. */
  lenient: boolean;
  /** The header row typed in when the file was chosen (null: detected). */
  headerRow: number | null;
  pass: Pass | null;
  announcedQuarter: number;
  report: Report | null;
  /** The settings of the last audit pass (the drill-down reads the file with them). */
  config: AuditConfig | null;
  /** The choices of the last audit or comparison (run again by "Read leniently"). */
  choices: AuditChoices | null;
  /** The population table and the original table of the last audit pass, if any. */
  reference: File | null;
  original: File | null;
  /** The attacks' control table of the last audit pass, if any. */
  control: File | null;
  /** Comparing candidate releases: every candidate (the first one is profiled). */
  candidates: File[] | null;
  /** A synthetic or perturbed release: step 2 asks for its original and starts the synthetic measures on. */
  synthetic: boolean;
  /** The progress title of the candidate being audited. */
  candidateTitle: string | null;
  candidateName: string | null;
  /** Step 2 as it stands (a single release only: a comparison is not recomputed). */
  form: ProfileForm | null;
  /** The core's shareable variant of `report` at its own k (what the full report holds), sent
   * by the worker with the report. */
  shareable: ShareableVariant | null;
  /** The profile pass's report (its columns and the file's SHA-256). */
  profile: Report | null;
  /** The file's SHA-256 from `file_hash` (null: not computed); undefined until it comes. A
   * file read in parallel is profiled without waiting for it (`hashPending`). */
  fileHash: string | null | undefined;
  /** Settings from a link or a settings file, applied to this file: what the form does not
   * hold of them is kept under the form's settings (`configOf`). */
  base: AuditConfig | null;
  /** The protection report of the release last written from the report shown ("Make a safe
   * release"), told in the HTML report; null until one is written. */
  protection: ProtectionReport | null;
}

/** The current job (null before the first file). */
export let job: Job | null = null;

/** A new job for `source`, read with the reading options as they stand; it becomes the current one. */
export function newJob(source: Source, label: string, autoAudit: boolean, candidates: File[] | null, synthetic = false): Job {
  job = {
    source,
    label,
    autoAudit,
    encoding: null,
    lenient: lenientBox.checked,
    headerRow: headerRowOf(),
    pass: null,
    announcedQuarter: 0,
    report: null,
    config: null,
    choices: null,
    reference: null,
    original: null,
    control: null,
    candidates,
    synthetic,
    candidateTitle: null,
    candidateName: null,
    form: null,
    shareable: null,
    profile: null,
    fileHash: undefined,
    base: null,
    protection: null,
  };
  return job;
}

/** The settings of an audit of `j`: the form's choices, over the settings of a link or a
 * settings file that the form does not hold, read as the job reads its file. */
export function configOf(j: Job, choices: AuditChoices): AuditConfig {
  const form = auditConfig(choices);
  const attributes = mergeAttributes(j.base?.attributes, form.attributes, form.sensitive ?? []);
  // The synthetic measures' settings of a link or settings file are kept while the form runs them.
  const synthetic = form.synthetic && j.base?.synthetic ? { synthetic: { ...form.synthetic, ...j.base.synthetic } } : {};
  return { ...(j.base ?? {}), ...form, ...(attributes ? { attributes } : {}), ...synthetic, ...readingOf(j) };
}

/** How the job's file (and its side tables) are read: strictly, or leniently; from which
 * header row. */
export function readingOf(j: Job): Pick<AuditConfig, 'ragged' | 'header_row'> {
  return { ragged: j.lenient ? 'pad_or_truncate' : 'error', header_row: j.headerRow };
}

/** The header row typed in (null: blank or not a whole number from 1, detect it). */
export function headerRowOf(): number | null {
  const n = headerRowBox.valueAsNumber;
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** The size of the job's file, when it is a user's file (the sample's is not known here). */
export function sourceSize(source: Source): number | null {
  return source.kind === 'file' ? source.file.size : null;
}

/** The job's file is profiled and its SHA-256 is still to come. */
export function hashPending(j: Job): boolean {
  return j.fileHash === undefined && j.profile?.input.sha256 === null;
}
