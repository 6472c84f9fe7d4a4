// A second, optional file of step 2 (the population table, the original table): a labelled
// file input with its sentence, the chosen file's name and size, and a button to remove it.
// The worker reads the file like the released one; nothing leaves this computer.

import { el } from '../ui/dom';
import { fileSize } from '../ui/format';

export interface FileField {
  node: HTMLElement;
  file(): File | null;
}

/**
 * Ids: `${prefix}-input`, `${prefix}-help`, `${prefix}-chosen`, `${prefix}-remove`.
 * `onChange` runs after a file was chosen or removed.
 */
export function fileField(prefix: string, label: string, help: string, onChange: (file: File | null) => void = () => {}): FileField {
  const input = el('input', {
    id: `${prefix}-input`,
    type: 'file',
    accept: '.csv,.tsv,.txt,text/csv,text/plain',
    'aria-describedby': `${prefix}-help`,
  });
  const chosen = el('p', { class: 'reference-chosen', id: `${prefix}-chosen`, hidden: true });
  const removeButton = el('button', { type: 'button', class: 'button small', id: `${prefix}-remove` }, 'Remove');
  let file: File | null = null;
  const show = () => {
    chosen.hidden = file === null;
    chosen.replaceChildren();
    if (file) chosen.append(`Chosen: ${file.name} (${fileSize(file.size)}) `, removeButton);
    onChange(file);
  };
  input.addEventListener('change', () => {
    file = input.files?.[0] ?? null;
    show();
  });
  removeButton.addEventListener('click', () => {
    file = null;
    input.value = '';
    show();
    input.focus();
  });
  const node = el(
    'div',
    { class: 'reference-field' },
    el('label', { for: `${prefix}-input` }, label),
    input,
    el('p', { class: 'help', id: `${prefix}-help` }, help),
    chosen,
  );
  return { node, file: () => file };
}
