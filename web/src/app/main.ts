// The UI thread: wires the page to the audit worker. It never parses data; it posts the File
// (a handle, not a copy) to the worker and renders the Reports that come back. After the first
// audit, every change of a role or a setting is recomputed from the table the worker keeps
// (freshness.ts keeps the results shown in step with the settings).

import 'uplot/dist/uPlot.min.css';
import './style.css';
import '../results/attribute/attribute.css';
import '../results/utility/utility.css';
import '../results/balance/balance.css';
import { byId, el } from '../ui/dom';
import { count, megabytes, percent, plural, rate } from '../ui/format';
import { Estimate } from '../ui/estimate';
import { fileStem, saveText } from '../ui/download';
import { showExtractStatus, showPerRecordStatus } from '../results/drilldown/drilldown-view';
import { sizeMismatch } from '../ui/account';
import { LENIENT_HELPS, SIDE_NAMES, addMessage, clearMessages, describeError, removeErrors, showMessage } from '../ui/messages';
import { renderProfile, type ProfileForm, type ProfileMode } from '../setup/profile-view';
import { sheetChoice } from '../setup/sheet-choice';
import { CHOICE_PAUSE_MS, Freshness, profileReadText } from './freshness';
import { clearCandidates, renderCandidates } from '../results/balance/candidates-view';
import { comparisonHtmlReport, htmlReport, pageCss, snapshotResults, type Disclosure } from '../export/report-html';
import type { ReportVariant } from '../export/report-variant';
import {
  assertNever,
  type AuditProgress,
  type ClassValues,
  type CspViolation,
  type Extracted,
  type Pass,
  type Progress,
  type Response,
  type Source,
  type TableRead,
} from '../shared/protocol';
import { removedCount, type AuditConfig, type Encoding, type Report, type ShareableReport, type WireError } from '../shared/report';
import { clearResults, renderResults, type ResultHandlers } from '../results/results-view';
import { WorkerClient } from '../worker/worker-client';
import { registerOffline } from './offline';
import { auditConfig, columnsWithRole, defaultChoices, mergeAttributes, profileConfig, proposedRoles, type AuditChoices } from '../setup/roles';
import { SettingsIntake } from '../setup/settings-intake';
import { SettingsError, parseFragment, parseSettingsFile, settingsFileText } from '../setup/settings-share';

const fileInput = byId<HTMLInputElement>('file-input');
const candidatesInput = byId<HTMLInputElement>('candidates-input');
const dropZone = byId('drop-zone');
const sampleButton = byId<HTMLButtonElement>('sample-button');
const progressPanel = byId('progress-panel');
const progressTitle = byId('progress-title');
const progressBar = byId<HTMLProgressElement>('progress-bar');
const progressText = byId('progress-text');
const cancelButton = byId<HTMLButtonElement>('cancel-button');
const statusLine = byId('status');
const messages = byId('messages');
const profilePanel = byId('profile-panel');
const resultsPanel = byId('results-panel');
const engineLine = byId('engine');
const lenientBox = byId<HTMLInputElement>('lenient-reading');
const headerRowBox = byId<HTMLInputElement>('header-row');
const freshnessLine = byId('results-freshness');
const settingsInput = byId<HTMLInputElement>('settings-input');
const settingsNote = byId('settings-note');

interface Job {
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
  /** The progress title of the candidate being audited. */
  candidateTitle: string | null;
  candidateName: string | null;
  /** Step 2 as it stands (a single release only: a comparison is not recomputed). */
  form: ProfileForm | null;
  /** The core's shareable variant of `report` at its own k (what the full report holds). */
  shareable: Promise<ShareableReport> | null;
  /** The profile pass's report (its columns and the file's SHA-256). */
  profile: Report | null;
  /** The file's SHA-256 from `file_hash` (null: not computed); undefined until it comes. A
   * file read in parallel is profiled without waiting for it (`hashPending`). */
  fileHash: string | null | undefined;
  /** Settings from a link or a settings file, applied to this file: what the form does not
   * hold of them is kept under the form's settings (`configOf`). */
  base: AuditConfig | null;
}

let job: Job | null = null;
/** The engine's version, from the worker's "ready" message (shown in reports). */
let engineVersion: string | null = null;

registerOffline();
const client = new WorkerClient(onWorkerMessage, (state) => (document.documentElement.dataset.standby = state));
const freshness = new Freshness(freshnessLine, resultsPanel, recompute, settingsKey);

/** The current choices of step 2 as a string equal for equal settings; null if none apply. */
function settingsKey(): string | null {
  const choices = job?.form && !job.candidates ? job.form.current() : null;
  if (!job || !choices) return null;
  const tables = [choices.reference, choices.original, choices.original ? choices.control : null].map(fileId);
  return JSON.stringify([configOf(job, choices), tables]);
}

/** Files told apart by identity: the same pick of a file keeps its number. */
const fileIds = new WeakMap<File, number>();
let filesNumbered = 0;
function fileId(file: File | null): number | null {
  if (!file) return null;
  let id = fileIds.get(file);
  if (id === undefined) fileIds.set(file, (id = ++filesNumbered));
  return id;
}

/** Audits the current choices of step 2 again from the kept table; false if they cannot be. */
function recompute(): boolean {
  if (!job?.form || job.candidates) return false;
  const choices = job.form.current();
  if (!choices) return false;
  job.choices = choices;
  job.config = configOf(job, choices);
  job.reference = choices.reference;
  job.original = choices.original;
  job.control = choices.original ? choices.control : null;
  client.recompute(job.source, job.config, choices.reference, choices.original, job.control);
  estimate.reset(performance.now());
  return true;
}

function announce(text: string): void {
  statusLine.textContent = text;
}

const PASS_TITLES: Readonly<Record<Pass, string>> = {
  profile: 'Profiling the columns',
  audit: 'Auditing the released file',
  extract: 'Collecting the records of the riskiest groups',
  compare: 'Auditing the candidate releases',
  per_record: 'Collecting each record’s risk',
};

function setProgressTitle(text: string): void {
  progressTitle.textContent = `${text}…`;
}

/** The time left of the read or audit phase shown. */
const estimate = new Estimate();

function showProgress(pass: Pass): void {
  estimate.reset(performance.now());
  setProgressTitle(PASS_TITLES[pass]);
  progressBar.value = 0;
  progressBar.max = 1;
  progressText.textContent = 'Starting…';
  progressPanel.hidden = false;
  announce(`${PASS_TITLES[pass]}.`);
}

function hideProgress(): void {
  progressPanel.hidden = true;
}

function updateProgress(p: Progress): void {
  if (!job) return;
  if (job.pass) {
    const suffix = job.pass === 'compare' && job.candidateTitle ? ` for ${job.candidateName}` : '';
    setProgressTitle(p.target === 'table' ? (job.pass === 'compare' ? (job.candidateTitle ?? PASS_TITLES.compare) : PASS_TITLES[job.pass]) : `Reading the ${SIDE_NAMES[p.target]}${suffix}`);
  }
  progressBar.max = Math.max(1, p.totalBytes);
  progressBar.value = p.bytes;
  const rows = p.rows === null ? '' : `${plural(p.rows, 'row')} · `;
  const left = estimate.update(`read ${p.target}`, p.bytes, p.totalBytes, performance.now());
  progressText.textContent = `${rows}${megabytes(p.bytes)} of ${megabytes(p.totalBytes)} · ${rate(p.mbPerSec)} · ${left}`;
  // Screen readers hear a quarter-by-quarter summary, not ten updates a second.
  const quarter = p.totalBytes > 0 ? Math.floor((4 * p.bytes) / p.totalBytes) : 0;
  if (quarter > job.announcedQuarter && quarter < 4) {
    job.announcedQuarter = quarter;
    announce(`${quarter * 25}% read${p.rows === null ? '' : `, ${plural(p.rows, 'row')}`}.`);
  }
}

/** The audit after its read: the rows summarised into classes, then the measures' steps. */
function updateAuditProgress(p: AuditProgress): void {
  if (!job) return;
  const step = p.phase === 'rows' ? 'grouping the rows into classes' : 'computing the measures';
  const units = p.phase === 'rows' ? plural(p.total, 'row') : plural(p.total, 'step');
  const left = estimate.update(p.phase, p.done, p.total, performance.now());
  const text = `${count(p.done)} of ${units} · ${percent(p.done / Math.max(1, p.total))} · ${left}`;
  // A recompute (no pass's progress shown) says it on the line above the results.
  if (!job.pass || progressPanel.hidden) return freshness.progress(`${step}: ${text}`);
  const title = job.pass === 'compare' ? (job.candidateTitle ?? PASS_TITLES.compare) : PASS_TITLES[job.pass];
  setProgressTitle(`${title}: ${step}`);
  progressBar.max = Math.max(1, p.total);
  progressBar.value = p.done;
  progressText.textContent = text;
}

/** The settings of an audit of `j`: the form's choices, over the settings of a link or a
 * settings file that the form does not hold, read as the job reads its file. */
function configOf(j: Job, choices: AuditChoices): AuditConfig {
  const form = auditConfig(choices);
  const attributes = mergeAttributes(j.base?.attributes, form.attributes, form.sensitive ?? []);
  return { ...(j.base ?? {}), ...form, ...(attributes ? { attributes } : {}), ...readingOf(j) };
}

/** How the job's file (and its side tables) are read: strictly, or leniently; from which
 * header row. */
function readingOf(j: Job): Pick<AuditConfig, 'ragged' | 'header_row'> {
  return { ragged: j.lenient ? 'pad_or_truncate' : 'error', header_row: j.headerRow };
}

/** The header row typed in (null: blank or not a whole number from 1, detect it). */
function headerRowOf(): number | null {
  const n = headerRowBox.valueAsNumber;
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** The size of the job's file, when it is a user's file (the sample's is not known here). */
function sourceSize(source: Source): number | null {
  return source.kind === 'file' ? source.file.size : null;
}

function startPass(pass: 'profile' | 'audit', choices: AuditChoices | null): void {
  if (!job) return;
  job.pass = pass;
  job.announcedQuarter = 0;
  showProgress(pass);
  if (choices) {
    job.choices = choices;
    job.config = configOf(job, choices);
    job.reference = choices.reference;
    job.original = choices.original;
    job.control = choices.original ? choices.control : null;
    client.run(pass, job.source, job.config, choices.reference, choices.original, job.control);
  } else {
    client.run(pass, job.source, { ...profileConfig(), encoding: job.encoding, ...readingOf(job) });
  }
}

/** The drill-down: the worker reads the file again and returns the rows of `classes`. */
function runExtract(classes: ClassValues[]): void {
  if (!job?.config) return;
  job.pass = 'extract';
  job.announcedQuarter = 0;
  showProgress('extract');
  client.extract(job.source, { ...job.config, encoding: job.encoding ?? job.config.encoding ?? null }, classes);
}

function onExtracted(extracted: Extracted): void {
  if (!job) return;
  saveText(extracted.csv, 'text/csv', `pseudolens-records-${fileStem(job.label)}.csv`);
  const what = `${count(extracted.rows)} ${extracted.rows === 1 ? 'record' : 'records'}`;
  const text = extracted.truncated
    ? `Saved the first ${what}; the rest were left out to keep the file manageable.`
    : `Saved ${what} as a CSV file.`;
  showExtractStatus(text, 'done');
  announce(text);
}

/** Each record's values: from the worker's kept table, else a second read of the file. */
function runPerRecord(): void {
  if (!job?.config) return;
  job.pass = 'per_record';
  job.announcedQuarter = 0;
  showProgress('per_record');
  client.perRecord(job.source, { ...job.config, encoding: job.encoding ?? job.config.encoding ?? null });
}

function onPerRecord(csv: string, records: number, kept: boolean): void {
  if (!job) return;
  saveText(csv, 'text/csv', `pseudolens-per-record-${fileStem(job.label)}.csv`);
  const how = kept ? 'from the table kept in memory' : 'by reading the file a second time (it was not kept in memory)';
  const text = `Saved the risks of ${count(records)} ${records === 1 ? 'record' : 'records'} as a CSV file, ${how}. They are record-level values: keep the file to yourself.`;
  showPerRecordStatus(text, 'done');
  announce(text);
}

function clearPanel(): void {
  clearCandidates();
  clearResults(resultsPanel);
  freshness.clear();
}

function start(source: Source, label: string, autoAudit: boolean, candidates: File[] | null = null): void {
  if (client.busy) client.cancel();
  job = {
    source, label, autoAudit, encoding: null, lenient: lenientBox.checked, headerRow: headerRowOf(), pass: null, announcedQuarter: 0, report: null, config: null,
    choices: null, reference: null, original: null, control: null, candidates, candidateTitle: null, candidateName: null, form: null, shareable: null,
    profile: null, fileHash: undefined, base: null,
  };
  clearMessages(messages);
  profilePanel.hidden = true;
  profilePanel.replaceChildren();
  clearPanel();
  startPass('profile', null);
}

function runAudit(choices: AuditChoices): void {
  if (!job) return;
  clearMessages(messages);
  clearPanel();
  freshness.asked();
  startPass('audit', choices);
}

/** Step 2 when comparing candidates: the original is required, the button says so. */
function compareMode(candidates: File[]): ProfileMode {
  return {
    runLabel: 'Compare candidates',
    intro: `Comparing ${candidates.length} candidate releases: ${candidates.map((f) => f.name).join(', ')}. The roles and settings below apply to every one; give their original table below (required), and a population table to measure linkage risk.`,
    check: (c) => (c.original ? null : 'Comparing candidates needs the original table: choose it under “Utility: compare with the original table”.'),
  };
}

/** Audits every candidate with the same roles and settings, then shows the comparison. */
function runCompare(choices: AuditChoices): void {
  if (!job?.candidates) return;
  clearMessages(messages);
  clearPanel();
  job.pass = 'compare';
  job.announcedQuarter = 0;
  job.choices = choices;
  job.config = configOf(job, choices);
  job.reference = choices.reference;
  job.original = choices.original;
  showProgress('compare');
  job.control = choices.control;
  client.compare(job.candidates, job.config, choices.reference, choices.original, job.control);
}

function onCandidate(index: number, total: number, name: string): void {
  if (!job) return;
  job.candidateTitle = `Auditing candidate ${index + 1} of ${total} (${name})`;
  job.candidateName = name;
  job.announcedQuarter = 0;
  setProgressTitle(job.candidateTitle);
  announce(`${job.candidateTitle}.`);
}

function onCompare(reports: Report[]): void {
  if (!job?.candidates || !job.config) return;
  const config = job.config;
  const candidates = job.candidates;
  const wrong = reports.map((r, i) => sizeMismatch(r.input, candidates[i]?.size ?? null, candidates[i]?.name ?? 'A candidate')).find((m) => m);
  if (wrong) return showSizeMismatch(wrong);
  removeErrors(messages);
  renderCandidates(resultsPanel, {
    names: candidates.map((f) => f.name),
    sizes: candidates.map((f) => f.size),
    reports,
    original: job.original?.name ?? null,
    reference: job.reference?.name ?? null,
    config,
    choose: (candidates, params) => client.choose(config.quasi_identifiers, candidates, params),
    onDownload: (doc) => saveText(JSON.stringify(doc, null, 2), 'application/json', 'pseudolens-comparison.json'),
    onDownloadHtml: async () => {
      const html = comparisonHtmlReport({
        reports,
        names: candidates.map((f) => f.name),
        sizes: candidates.map((f) => f.size),
        original: job?.original?.name ?? null,
        reference: job?.reference?.name ?? null,
        resultsHtml: await snapshotResults(resultsPanel),
        css: pageCss(),
        version: engineVersion,
        generatedAt: new Date(),
      });
      saveText(html, 'text/html', 'pseudolens-comparison.html');
    },
  });
  announce('Comparison finished. Results are below.');
  byId('results-title').setAttribute('tabindex', '-1');
  byId('results-title').focus({ preventScroll: true });
  resultsPanel.scrollIntoView({ block: 'start', behavior: 'auto' });
}

/** Settings from a link or a file just applied: the audit runs when `ready`. */
function runWaitingSettings(ready: boolean): void {
  const choices = ready ? job?.form?.current() : null;
  if (!choices) return;
  runAudit(choices);
  intake.running();
}

/** The job's file is profiled and its SHA-256 is still to come. */
function hashPending(j: Job): boolean {
  return j.fileHash === undefined && j.profile?.input.sha256 === null;
}

/** The SHA-256 of the file being profiled (null: not computed), before or after its profile. */
function onFileHash(sha256: string | null): void {
  if (!job) return;
  const waiting = hashPending(job) ? job.profile : null;
  job.fileHash = sha256;
  if (!waiting) return;
  waiting.input.sha256 = sha256;
  const ready = intake.profiled();
  if (ready !== null) runWaitingSettings(ready);
}

/** The bytes read are not the file's size: nothing that was read is shown. */
function showSizeMismatch(why: string): void {
  showMessage(messages, 'error', 'The file was not read whole.', why);
  announce('The file was not read whole.');
}

function onProfile(report: Report, tableRead: TableRead): void {
  if (!job) return;
  const size = sourceSize(job.source);
  const wrong = sizeMismatch(report.input, size, job.label);
  if (wrong) return showSizeMismatch(wrong);
  const read = { encoding: job.encoding, size, lenient: job.lenient };
  const readHeader = (file: File) => client.header(file);
  if (job.candidates) renderProfile(profilePanel, report, job.label, read, runCompare, readHeader, compareMode(job.candidates));
  else job.form = renderProfile(profilePanel, report, job.label, read, runAudit, readHeader, null, (chosen) => freshness.changed(chosen ? CHOICE_PAUSE_MS : undefined));
  profilePanel.querySelector('.lead')?.after(el('p', { class: 'note', id: 'read-note', 'data-kept': String(tableRead.kept) }, profileReadText(tableRead)));
  const source = job.source;
  if (source.kind === 'file' && tableRead.sheets.length > 1 && !job.candidates) {
    const label = job.label;
    const choose = (sheet: string) => start({ kind: 'file', file: source.file, sheet }, label, false);
    profilePanel.querySelector('#read-note')?.after(sheetChoice(tableRead.sheets, report.input.sheet, choose));
  }
  profilePanel.hidden = false;
  // Once the profile is drawn, the worker may start what it put off (the file's hash).
  requestAnimationFrame(() => setTimeout(() => client.shown()));
  job.profile = report;
  if (report.input.sha256 === null && job.fileHash !== undefined) report.input.sha256 = job.fileHash;
  // Settings from a link or a settings file waiting for this file.
  const ready = intake.profiled();
  if (ready !== null) return runWaitingSettings(ready);
  if (!job.autoAudit) {
    announce('Columns profiled. Check the roles, then run the audit.');
    return;
  }
  const choices = defaultChoices(proposedRoles(report.columns), job.encoding);
  if (columnsWithRole(choices.roles, 'quasi_identifier').length === 0) {
    showMessage(messages, 'note', 'No column was proposed as a quasi-identifier.', 'Choose the roles below, then run the audit.');
    return;
  }
  runAudit(choices);
}

/** The first audit's report: shown if the settings did not change meanwhile, else recomputed. */
function onAudit(report: Report, read: TableRead): void {
  if (!freshness.current) return freshness.again();
  if (!showAudit(report)) return;
  freshness.shown(read, false);
  announce('Audit finished. Results are below.');
  byId('results-title').setAttribute('tabindex', '-1');
  byId('results-title').focus({ preventScroll: true });
  resultsPanel.scrollIntoView({ block: 'start', behavior: 'auto' });
}

/** A recompute's report: shown only if it answers the settings as they stand. */
function onRecomputed(report: Report, read: TableRead): void {
  if (!freshness.current) return;
  clearMessages(messages); // a failed recompute's error, or notes of an earlier audit
  if (!showAudit(report)) return;
  freshness.shown(read, true);
  announce('Results recomputed for the new settings.');
}

/** Renders an audit's report (false when its account of bytes does not match the files). */
function showAudit(report: Report): boolean {
  if (!job) return false;
  const size = sourceSize(job.source);
  const side = (facts: Report['original_input'], file: File | null) => (facts && file ? sizeMismatch(facts, file.size, file.name) : null);
  const wrong = sizeMismatch(report.input, size, job.label) ?? side(report.original_input, job.original) ?? side(report.reference_input, job.reference);
  if (wrong) {
    showSizeMismatch(wrong);
    return false;
  }
  job.report = report;
  removeErrors(messages); // an error of an earlier attempt no longer describes what is shown
  // What the full report holds: the core's shareable variant at the report's own k.
  job.shareable = client.shareable(report, null);
  job.shareable.catch(() => undefined);
  renderResults(resultsPanel, report, job.label, resultHandlers(report, job.shareable));
  return true;
}

/** The handlers of a rendered report (`shareable` null: no choice of variant, as in the
 * shareable HTML report's own rendering). */
function resultHandlers(report: Report, shareable: Promise<ShareableReport> | null): ResultHandlers {
  return {
    size: job ? sourceSize(job.source) : null,
    onDownload: downloadReport,
    onDownloadHtml: (variant) => void downloadHtmlReport(variant),
    onExtract: runExtract,
    onPerRecord: runPerRecord,
    utility: { original: job?.original?.name ?? null, recordId: job?.config?.record_id ?? null },
    choose: (candidates, params) => client.choose(report.params.quasi_identifiers, candidates, params),
    shareable,
    onDownloadSettings: shareable ? () => downloadSettings(report) : null,
  };
}

/** The settings file of an audit: the configuration's keys, as the engine echoes them. */
function downloadSettings(report: Report): void {
  saveText(settingsFileText(report.params), 'application/json', `pseudolens-settings-${fileStem(job?.label ?? 'audit')}.json`);
  announce('Settings file saved.');
}

// --- settings from a link or a settings file (issue 13, Deliver 3) ---------------------------

const intake = new SettingsIntake(settingsNote, {
  shown: () => (job?.form && job.profile && !job.candidates ? { form: job.form, profile: job.profile, label: job.label, encoding: job.encoding, hashing: hashPending(job) } : null),
  setBase: (config) => {
    if (job) job.base = config;
  },
  changed: () => freshness.changed(),
  lenient: () => {
    if (!job) lenientBox.checked = true;
  },
  headerRow: (row) => {
    if (!job) headerRowBox.value = String(row);
  },
  messages,
  announce,
});

function settingsProblem(e: unknown): void {
  if (!(e instanceof SettingsError)) throw e;
  showMessage(messages, 'error', 'These settings cannot be used.', e.message);
}

settingsInput.addEventListener('change', () => {
  const file = settingsInput.files?.[0];
  settingsInput.value = '';
  if (!file) return;
  void file.text().then((text) => {
    try {
      intake.take(parseSettingsFile(text, file.name));
    } catch (e) {
      settingsProblem(e);
    }
  });
});

/** The settings of the page's link, when it has some: at load, and when a link is pasted into
 * the address bar of the open page (only the fragment changes: the page is not loaded again). */
function settingsOfLink(): void {
  try {
    const fromLink = parseFragment(location.hash);
    if (fromLink) intake.take(fromLink);
  } catch (e) {
    settingsProblem(e);
  }
}
settingsOfLink();
window.addEventListener('hashchange', settingsOfLink);

/** The report of the variant chosen: the full one, or the core's shareable one. */
async function variantReport(variant: ReportVariant): Promise<{ report: Report; disclosure: Disclosure } | null> {
  if (!job?.report) return null;
  const full = job.report;
  const at = variant.shareable ? await client.shareable(full, variant.minCount) : await (job.shareable ?? client.shareable(full, null));
  const disclosure = { shareable: variant.shareable, minCount: at.shareable.min_count, removed: removedCount(at) };
  return { report: variant.shareable ? at : full, disclosure };
}

function downloadReport(variant: ReportVariant): void {
  if (!job?.report) return;
  const stem = `pseudolens-report-${fileStem(job.label)}${variant.shareable ? '-shareable' : ''}`;
  if (!variant.shareable) return saveText(JSON.stringify(job.report, null, 2), 'application/json', `${stem}.json`);
  void client.shareable(job.report, variant.minCount).then(
    (safe) => saveText(JSON.stringify(safe, null, 2), 'application/json', `${stem}.json`),
    (e: WireError) => showMessage(messages, 'error', 'The shareable report could not be made.', e.message),
  );
}

/**
 * The results of `report` as the page would show them, drawn out of sight beside the results
 * panel (charts measure their box) and turned into static HTML.
 */
async function snapshotOf(report: Report): Promise<string> {
  const box = el('section', { class: 'panel', inert: true, 'aria-hidden': 'true' });
  box.style.cssText = `position: absolute; left: -20000px; top: 0; width: ${resultsPanel.getBoundingClientRect().width}px`;
  resultsPanel.after(box);
  try {
    renderResults(box, report, job?.label ?? '', { ...resultHandlers(report, null), choose: undefined });
    return await snapshotResults(box);
  } finally {
    clearResults(box);
    box.remove();
  }
}

/** The whole audit as one HTML file: the verdict, the results, metrics and charts, then the
 * inputs with their hashes and the settings; the full report or the shareable one. */
async function downloadHtmlReport(variant: ReportVariant): Promise<void> {
  if (!job?.report) return;
  const current = job;
  let chosen: Awaited<ReturnType<typeof variantReport>>;
  try {
    chosen = await variantReport(variant);
  } catch (e) {
    showMessage(messages, 'error', 'The shareable report could not be made.', (e as WireError).message);
    return;
  }
  if (!chosen || job !== current) return;
  const html = htmlReport({
    report: chosen.report,
    disclosure: chosen.disclosure,
    inputs: {
      released: current.label,
      original: current.original?.name ?? null,
      reference: current.reference?.name ?? null,
      sizes: { released: sourceSize(current.source), original: current.original?.size ?? null, reference: current.reference?.size ?? null },
    },
    resultsHtml: variant.shareable ? await snapshotOf(chosen.report) : await snapshotResults(resultsPanel),
    css: pageCss(),
    version: engineVersion,
    generatedAt: new Date(),
  });
  saveText(html, 'text/html', `pseudolens-report-${fileStem(current.label)}${variant.shareable ? '-shareable' : ''}.html`);
}

function reportCspViolation(violation: CspViolation): void {
  console.warn('Content-Security-Policy blocked something in the audit worker', violation);
  window.dispatchEvent(new CustomEvent('pseudolens:csp-violation', { detail: violation }));
}

function onWorkerMessage(message: Response): void {
  switch (message.type) {
    case 'progress':
      updateProgress(message.progress);
      break;
    case 'audit_progress':
      updateAuditProgress(message.progress);
      break;
    case 'result':
      hideProgress();
      if (message.pass === 'profile') onProfile(message.report, message.read);
      else onAudit(message.report, message.read);
      break;
    case 'recomputed':
      onRecomputed(message.report, message.read);
      break;
    case 'file_hash':
      onFileHash(message.sha256);
      break;
    case 'recompute_error': {
      if (!freshness.current) break;
      if (message.error.kind === 'internal') client.restart();
      const label = message.target === 'table' ? (job?.label ?? 'The file') : `The ${SIDE_NAMES[message.target]}`;
      const { title, detail, advice } = describeError(message.error, label, message.target !== 'table', job?.lenient ?? false);
      showMessage(messages, 'error', title, detail, { advice });
      freshness.failed();
      announce(title);
      break;
    }
    case 'extract_result':
      hideProgress();
      onExtracted(message.extracted);
      break;
    case 'per_record_result':
      hideProgress();
      onPerRecord(message.csv, message.records, message.kept);
      break;
    case 'candidate':
      onCandidate(message.index, message.total, message.name);
      break;
    case 'compare_result':
      hideProgress();
      onCompare(message.reports);
      break;
    case 'choice':
    case 'shareable_report':
    case 'header':
      break; // answered through WorkerClient.choose, .shareable and .header
    case 'error': {
      hideProgress();
      if (message.error.kind === 'internal') client.restart();
      const side = message.target === 'table' ? null : job?.[message.target === 'population' ? 'reference' : message.target];
      const label =
        message.target === 'table'
          ? ((job?.pass === 'compare' ? job.candidateName : null) ?? job?.label ?? 'The file')
          : `The ${SIDE_NAMES[message.target]} ${side?.name ?? ''}`.trim();
      const lenient = job?.lenient ?? false;
      const { title, detail, advice } = describeError(message.error, label, message.target !== 'table', lenient);
      const offer = job && !lenient && LENIENT_HELPS.has(message.error.code) && job.pass !== 'extract' && job.pass !== 'per_record';
      const action = offer ? { label: 'Read leniently', id: 'read-leniently', run: readLeniently } : null;
      showMessage(messages, 'error', title, detail, { advice, action });
      if (job?.pass === 'extract') showExtractStatus(`The records could not be collected: ${title}`, 'error');
      if (job?.pass === 'per_record') showPerRecordStatus(`The per-record risks could not be collected: ${title}`, 'error');
      announce(title);
      break;
    }
    case 'encoding_retry':
      if (job && message.target === 'table') job.encoding = message.encoding;
      addMessage(
        messages,
        'note',
        `${message.target === 'table' ? 'This file' : `The ${SIDE_NAMES[message.target]}`} is not UTF-8 text; reading it again as Windows-1252 (Western European).`,
        'Accented letters will be read correctly if the file came from an older Windows program or Excel.',
      );
      break;
    case 'csp_violation':
      reportCspViolation(message.violation);
      break;
    case 'ready':
      document.documentElement.dataset.engine = 'ready';
      engineVersion = message.version;
      engineLine.textContent = `Audit engine ${message.version} loaded in this page.`;
      break;
    case 'engine_failed': {
      document.documentElement.dataset.engine = 'failed';
      const { detail } = describeError(message.error, 'The engine');
      showMessage(messages, 'error', 'The audit engine could not be loaded in this browser.', detail);
      break;
    }
    default:
      assertNever(message);
  }
}

// --- lenient reading ------------------------------------------------------------------------

/**
 * "Read leniently" (offered by a strict read's error): switches the setting on and reads again
 * what failed: the file from the start, or the same audit or comparison with the same choices.
 */
function readLeniently(): void {
  if (!job) return;
  lenientBox.checked = true;
  lenientBox.focus();
  const failed = job.pass;
  if ((failed === 'audit' || failed === 'compare') && job.choices) {
    job.lenient = true;
    if (failed === 'audit') runAudit(job.choices);
    else runCompare(job.choices);
    announce(`Reading ${job.label} again leniently.`);
    return;
  }
  start(job.source, job.label, job.autoAudit, job.candidates);
  announce(`Reading ${job.label} again leniently.`);
}

// Changing the setting reads the chosen file again, so what the page shows was read with it.
lenientBox.addEventListener('change', () => {
  if (!job) return;
  start(job.source, job.label, job.autoAudit, job.candidates);
  announce(`Reading ${job.label} again, ${lenientBox.checked ? 'leniently' : 'strictly'}.`);
});

headerRowBox.addEventListener('change', () => {
  if (!job || headerRowOf() === job.headerRow) return;
  start(job.source, job.label, job.autoAudit, job.candidates);
  announce(`Reading ${job.label} again, ${job.headerRow === null ? 'its header row detected' : `its header from row ${job.headerRow}`}.`);
});

// --- inputs ---------------------------------------------------------------------------------

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) start({ kind: 'file', file }, file.name, false);
  fileInput.value = ''; // picking the same file again still fires "change"
});

candidatesInput.addEventListener('change', () => {
  const files = [...(candidatesInput.files ?? [])];
  candidatesInput.value = '';
  if (files.length === 0) return;
  if (files.length < 2) {
    showMessage(messages, 'error', 'Choose at least two candidate releases.', 'Select two or more released versions of the same table at once (hold Ctrl or Shift in the file dialog), or use “Choose a file” to audit a single release.');
    return;
  }
  start({ kind: 'file', file: files[0]! }, `${files[0]!.name} (first of ${files.length} candidates)`, false, files);
});

sampleButton.addEventListener('click', () => start({ kind: 'sample' }, 'Sample (synthetic hospital data)', true));

cancelButton.addEventListener('click', () => {
  client.cancel();
  hideProgress();
  const what =
    job?.pass === 'compare'
      ? 'The comparison of the candidates'
      : job?.pass === 'audit'
      ? `The audit of ${job.label}`
      : job?.pass === 'extract'
        ? 'Collecting the records of the riskiest groups'
        : job?.pass === 'per_record'
        ? 'Collecting each record’s risk'
        : `Reading ${job?.label ?? 'the file'}`;
  const again =
    job?.pass === 'compare'
      ? 'Press "Compare candidates" to start it again.'
      : job?.pass === 'audit'
      ? 'Press "Run audit" to start it again.'
      : job?.pass === 'extract' || job?.pass === 'per_record'
        ? 'The results are still shown; press the download button to try again.'
        : 'Choose a file or try the sample to start again.';
  if (job?.pass === 'extract') showExtractStatus('Cancelled.', 'error');
  if (job?.pass === 'per_record') showPerRecordStatus('Cancelled.', 'error');
  showMessage(messages, 'note', 'Cancelled.', `${what} was stopped and nothing was kept. ${again}`);
  announce('Cancelled.');
  if (job) job.pass = null;
});

for (const type of ['dragenter', 'dragover'] as const) {
  dropZone.addEventListener(type, (e) => {
    e.preventDefault();
    dropZone.classList.add('dragging');
  });
}
for (const type of ['dragleave', 'drop'] as const) {
  dropZone.addEventListener(type, () => dropZone.classList.remove('dragging'));
}
dropZone.addEventListener('drop', (e) => {
  e.preventDefault();
  const files = [...(e.dataTransfer?.files ?? [])];
  if (files.length > 1) {
    // Never audit one of them silently: say which were dropped and what to do instead.
    const names = files.map((f) => f.name).join(', ');
    showMessage(
      messages,
      'error',
      `${files.length} files were dropped; drop one file at a time.`,
      `Nothing was read of ${names}. Drop only the table to audit; to compare candidate releases of one table, choose them with “Compare candidate releases…”.`,
    );
    announce(`${files.length} files were dropped; drop one file at a time.`);
    return;
  }
  const file = files[0];
  if (file) start({ kind: 'file', file }, file.name, false);
});
// A file dropped next to the zone must not make the browser navigate away to it.
window.addEventListener('dragover', (e) => e.preventDefault());
window.addEventListener('drop', (e) => e.preventDefault());
