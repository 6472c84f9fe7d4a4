// Saves text or a Blob made on this computer as a file: a Blob URL and a temporary link, no
// network.

/** A file-name-safe stem from a label such as "clinic.csv" or "Sample (synthetic …)". */
export function fileStem(label: string): string {
  return label.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_');
}

export function saveText(text: string, type: string, filename: string): void {
  saveBlob(new Blob([text], { type }), filename);
}

/** Saves a Blob made on this computer (a file written in chunks) as a file. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
