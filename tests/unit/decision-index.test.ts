// The decision records (docs/decisions/, issue 37 item 6): one file a decision, in a folder per
// subsystem, and an index (docs/decisions/README.md) that lists every record. A record nobody
// lists is lost to a reader of the index, and a listed record that is gone is a dead link: both
// fail here. Each record also keeps the sections a record has.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DECISIONS = fileURLToPath(new URL('../../docs/decisions/', import.meta.url));

/** Every record under `root`: its `.md` files in any folder, as paths relative to `root` with
 * `/`, but the index itself. */
function records(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .sort();
}

/** The local `.md` files the index links to, relative to `root`. */
function listed(root: string): string[] {
  const index = readFileSync(join(root, 'README.md'), 'utf8');
  return [...index.matchAll(/\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)/g)]
    .map((m) => m[1]!)
    .filter((link) => !link.includes('://'))
    .map((link) => posix.normalize(link))
    .sort();
}

/** Records the index does not list, and links of the index that lead to no record. */
function problems(root: string): { unlisted: string[]; missing: string[] } {
  const files = records(root);
  const links = listed(root);
  return {
    unlisted: files.filter((f) => !links.includes(f)),
    missing: links.filter((l) => !files.includes(l)),
  };
}

describe('the decision records', () => {
  it('are each listed in the index, and every link of the index is a record', () => {
    expect(problems(DECISIONS)).toEqual({ unlisted: [], missing: [] });
  });

  it('are many, in folders (the index was found and read)', () => {
    const files = records(DECISIONS);
    expect(files.length).toBeGreaterThan(50);
    expect(files.every((f) => f.split('/').length === 2)).toBe(true);
  });

  it('each have a title, a context, a decision and its consequences', () => {
    const lacking = records(DECISIONS).filter((f) => {
      const text = readFileSync(join(DECISIONS, f), 'utf8');
      return !(/^# \S/.test(text) && ['## Context', '## Decision', '## Consequences'].every((h) => text.includes(`\n${h}\n`)));
    });
    expect(lacking).toEqual([]);
  });

  it('the check finds a planted record the index does not list, and a listed one that is gone', () => {
    const root = mkdtempSync(join(tmpdir(), 'decisions-'));
    try {
      mkdirSync(join(root, 'table'));
      writeFileSync(join(root, 'table', 'listed.md'), '# Listed\n');
      writeFileSync(join(root, 'table', 'planted.md'), '# Planted\n');
      writeFileSync(join(root, 'README.md'), '# Index\n\n- [Listed](table/listed.md): one.\n- [Gone](page/gone.md): two.\n');
      expect(problems(root)).toEqual({ unlisted: ['table/planted.md'], missing: ['page/gone.md'] });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
