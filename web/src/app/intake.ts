// Settings from a link or a settings file (issue 13, Deliver 3), taken into the page: the
// intake (setup/settings-intake.ts) wired to the job and its form, the settings file input,
// the page's link at load and when it changes, and the audit they start once the file they
// wait for is profiled.

import { SettingsIntake } from '../setup/settings-intake';
import { SettingsError, parseFragment, parseSettingsFile } from '../setup/settings-share';
import { showMessage } from '../ui/messages';
import { headerRowBox, lenientBox, messages, settingsInput, settingsNote } from './elements';
import { hashPending, job } from './job';
import { runAudit } from './passes';
import { announce } from './progress';
import { freshness } from './recompute';

export const intake = new SettingsIntake(settingsNote, {
  shown: () =>
    job?.form && job.profile && !job.candidates
      ? { form: job.form, profile: job.profile, label: job.label, encoding: job.encoding, hashing: hashPending(job) }
      : null,
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

/** Settings from a link or a file just applied: the audit runs when `ready`. */
export function runWaitingSettings(ready: boolean): void {
  const choices = ready ? job?.form?.current() : null;
  if (!choices) return;
  runAudit(choices);
  intake.running();
}

function settingsProblem(e: unknown): void {
  if (!(e instanceof SettingsError)) throw e;
  showMessage(messages, 'error', 'These settings cannot be used.', e.message);
}

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

/** Takes the settings file chosen, and the link's settings now and whenever it changes. */
export function wireSettingsIntake(): void {
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
  settingsOfLink();
  window.addEventListener('hashchange', settingsOfLink);
}
