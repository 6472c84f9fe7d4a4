// "Share these settings" in the results (issue 13, Deliver 3): a link whose fragment holds
// the roles and every setting of this audit with the SHA-256 of its file, and the settings
// file (the configuration's keys, which the CLI reads with --settings). The page says which
// settings hold data values and so travel only in the file.

import { el } from '../ui/dom';
import type { AuditConfig, Report } from '../shared/report';
import { linkFragment, linkSettings } from './settings-share';

/** How the settings that hold data values are named to the user. */
const LEFT_NAMES: Readonly<Record<string, string>> = {
  queries: 'your queries',
  attributes: 'the declared attributes, hierarchies and ordinal orders',
  protect_hierarchies: 'the hierarchy files of “Make a safe release”',
};

/** The link to the page with the settings `config` of `report`'s file in its fragment. */
export function settingsLink(report: Report, config: AuditConfig): string {
  return `${location.origin}${location.pathname}${linkFragment(config, report.input.sha256)}`;
}

/** The section; `config` gives the settings as they are now (the audit's, with the protection
 * chosen since), read again each time the section opens or the link is copied. */
export function settingsShareView(report: Report, config: () => AuditConfig, onDownload: (config: AuditConfig) => void): HTMLElement {
  let link = settingsLink(report, config());
  const field = el('input', { id: 'settings-link', type: 'text', readonly: true, value: link, 'aria-describedby': 'settings-link-help', spellcheck: 'false' });
  const status = el('p', { class: 'help', id: 'settings-link-status', role: 'status' });
  const copy = el('button', { id: 'copy-settings-link', class: 'button small', type: 'button' }, 'Copy link');
  copy.addEventListener('click', () => {
    field.select();
    const done = () => (status.textContent = 'Link copied.');
    const manual = () => (status.textContent = 'The link is selected: press Ctrl+C (or ⌘C) to copy it.');
    refresh();
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(done, manual);
    else manual();
  });
  const save = el('button', { id: 'download-settings', class: 'button small', type: 'button' }, 'Download settings file');
  save.addEventListener('click', () => onDownload(config()));
  const leftNote = el('p', { class: 'note', id: 'settings-left-out' });
  const refresh = () => {
    const now = config();
    link = settingsLink(report, now);
    field.value = link;
    const { left } = linkSettings(now);
    leftNote.hidden = left.length === 0;
    if (left.length)
      leftNote.textContent = `The link leaves out ${left.map((k) => LEFT_NAMES[k] ?? k).join(' and ')}: they hold values of the data, so they travel only in the settings file.`;
  };
  refresh();
  const details = el(
    'details',
    { class: 'share-settings', id: 'share-settings' },
    el('summary', {}, 'Share these settings: a link or a settings file'),
    el(
      'p',
      { class: 'help', id: 'settings-link-help' },
      'Open the link in any browser and choose the same file: the roles and every setting come back and the audit runs again. The settings sit after the “#” of the link, which a browser never sends to a server; they hold column names and thresholds, no value of the data. The link names the file by its SHA-256, so the page warns when another file is chosen. User queries and hierarchies hold values of the data, so they travel only in the settings file, which the command line reads too (pseudolens audit FILE --settings SETTINGS.json).',
    ),
    leftNote,
    el('div', { class: 'settings-link-row' }, el('label', { for: 'settings-link' }, 'Link to these settings'), field, copy),
    status,
    el('div', { class: 'settings-file-row' }, save),
  );
  details.addEventListener('toggle', refresh);
  return details;
}
