// Settings arriving from a link or a settings file (issue 13, Deliver 3): they wait for the
// file they are for (`#settings-note` says so), or apply at once to the file step 2 shows. They
// set the roles and the form; the settings the form does not hold stay under it (the page's
// `configOf`). The file a link was made for is checked by its SHA-256: another file gets an
// error naming both hashes, and no audit. A file read in parallel is profiled before its hash is
// known: a link's settings wait for it (`profiled` again once it is there).

import type { Encoding, Report, AuditConfig } from '../shared/report';
import { showMessage } from '../ui/messages';
import type { ProfileForm } from './profile-view';
import { choicesFromConfig } from './roles';
import type { SharedSettings } from './settings-share';

/** What the intake needs of the page. */
export interface IntakePage {
  /** The file step 2 shows, when settings can be applied to it (a single release, profiled);
   * `hashing`: its SHA-256 is still to come. */
  shown(): { form: ProfileForm; profile: Report; label: string; encoding: Encoding | null; hashing: boolean } | null;
  /** Keeps `config` under the form's settings for the file shown. */
  setBase(config: AuditConfig): void;
  /** Step 2 changed without an edit event (results shown are then recomputed). */
  changed(): void;
  /** Settings made for lenient reading, before any file: the page reads the next one so. */
  lenient(): void;
  /** Settings naming the header's row, before any file: the page reads the next one so. */
  headerRow(row: number): void;
  messages: HTMLElement;
  announce(text: string): void;
}

function sourceName(shared: SharedSettings): string {
  return shared.from.kind === 'link' ? 'the link' : shared.from.name;
}

export class SettingsIntake {
  private pending: SharedSettings | null = null;
  /** Where the settings applied last came from ("the link", a file's name). */
  private applied = '';

  constructor(
    private readonly note: HTMLElement,
    private readonly page: IntakePage,
  ) {}

  /** Settings from a link or a file: applied to the file shown, else to the next one. */
  take(shared: SharedSettings): void {
    const shown = this.page.shown();
    if (shown && this.waitsForHash(shared)) {
      this.pending = shared; // applied once the hash is there, in a moment (`profiled`)
      return;
    }
    if (shown) {
      this.apply(shared);
      this.page.changed();
      return;
    }
    if (shared.config.ragged === 'pad_or_truncate') this.page.lenient();
    if (shared.config.header_row != null) this.page.headerRow(shared.config.header_row);
    this.pending = shared;
    this.show();
  }

  /**
   * A file was profiled, or its SHA-256 came after its profile: applies the settings waiting
   * for it. Null when none waited; else true when the audit can run at once (the link's file,
   * every column there, no side table needed); false too while a link waits for the hash.
   */
  profiled(): boolean | null {
    const shared = this.pending;
    if (!shared || !this.page.shown()) return null;
    if (this.waitsForHash(shared)) return false;
    this.pending = null;
    this.show();
    return this.apply(shared);
  }

  /** Whether `shared` names its file's hash and the file shown does not have its hash yet. */
  private waitsForHash(shared: SharedSettings): boolean {
    return shared.sha256 !== null && (this.page.shown()?.hashing ?? false);
  }

  /** The audit started with the settings just applied (its start cleared the messages). */
  running(): void {
    showMessage(
      this.page.messages,
      'note',
      `Roles and settings set from ${this.applied}.`,
      'The audit runs with them; change any of them below and the results follow.',
    );
  }

  private show(): void {
    const p = this.pending;
    this.note.hidden = p === null;
    if (!p) return;
    const what = p.from.kind === 'link' ? 'The settings of the link' : `The settings of ${p.from.name}`;
    const file = p.sha256 ? `the file they were made for (SHA-256 ${p.sha256.slice(0, 16)}…)` : 'the file they are for';
    this.note.textContent = `${what} are ready: choose ${file}. Its roles and settings will be set from them, and the audit run.`;
  }

  /** Sets step 2 from `shared` and says what the user must do; true when it can run at once. */
  private apply(shared: SharedSettings): boolean {
    const shown = this.page.shown();
    if (!shown) return false;
    const { choices, missing } = choicesFromConfig(shared.config, shown.profile.columns, shown.encoding);
    shown.form.apply(choices);
    this.page.setBase(shared.config);
    const source = sourceName(shared);
    this.applied = source;
    const sha = shown.profile.input.sha256;
    const problems = missing.length ? [`They name ${missing.length === 1 ? 'a column' : 'columns'} this file lacks: ${missing.join(', ')}.`] : [];
    if (shared.sha256 !== null && sha !== null && sha !== shared.sha256) {
      const title = `This is not the file the settings of ${source} were made for.`;
      const detail = `The link names the file with SHA-256 ${shared.sha256}; ${shown.label} has ${sha}. The roles and settings were set where its columns allow: check them, then run the audit.`;
      showMessage(this.page.messages, 'error', title, [detail, ...problems].join(' '));
      this.page.announce(title);
      return false;
    }
    const sides = [
      shared.config.record_id || (shared.config.queries ?? []).length ? 'the original table' : null,
      Object.keys(shared.config.reference_columns ?? {}).length ? 'the population table' : null,
    ].filter((s): s is string => s !== null);
    const left = shared.from.kind === 'link' ? ' (the link holds no queries, hierarchies or ordinal orders: they travel only in a settings file)' : '';
    const next = sides.length
      ? `They were made with ${sides.join(' and ')}: choose it in step 2, then run the audit.`
      : problems.length
        ? 'Check the roles, then run the audit.'
        : '';
    showMessage(this.page.messages, 'note', `Roles and settings set from ${source}${left}.`, [...problems, next].join(' ').trim());
    this.page.announce(`Roles and settings set from ${source}.`);
    return sides.length === 0 && problems.length === 0;
  }
}
