// The elements of the page (index.html) that the shell drives: step 1's inputs, the progress
// panel and the status line, the messages, the profile and results panels, the reading
// options, the line on the results' freshness and the settings intake.

import { byId } from '../ui/dom';

export const fileInput = byId<HTMLInputElement>('file-input');
export const candidatesInput = byId<HTMLInputElement>('candidates-input');
export const syntheticInput = byId<HTMLInputElement>('synthetic-input');
export const dropZone = byId('drop-zone');
export const sampleButton = byId<HTMLButtonElement>('sample-button');
export const progressPanel = byId('progress-panel');
export const progressTitle = byId('progress-title');
export const progressBar = byId<HTMLProgressElement>('progress-bar');
export const progressText = byId('progress-text');
export const cancelButton = byId<HTMLButtonElement>('cancel-button');
export const statusLine = byId('status');
export const messages = byId('messages');
export const profilePanel = byId('profile-panel');
export const resultsPanel = byId('results-panel');
export const engineLine = byId('engine');
export const lenientBox = byId<HTMLInputElement>('lenient-reading');
export const headerRowBox = byId<HTMLInputElement>('header-row');
export const freshnessLine = byId('results-freshness');
export const settingsInput = byId<HTMLInputElement>('settings-input');
export const settingsNote = byId('settings-note');
