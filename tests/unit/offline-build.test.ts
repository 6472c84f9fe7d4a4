// The cache of the service worker (web/offline-build.ts): named after every file's name and
// content, so any change gives a new cache and the old one is deleted.

import { describe, expect, it } from 'vitest';
import { offlineBuild } from '../../web/offline-build';

const files = (page: string) =>
  new Map<string, string | Uint8Array>([
    ['index.html', page],
    ['assets/index-abc.js', 'code'],
    ['assets/engine-def.wasm', new Uint8Array([0, 97, 115, 109])],
  ]);

describe('the offline build', () => {
  it('keeps every file, the page as ./', () => {
    expect(offlineBuild(files('<html>')).files).toEqual(['assets/engine-def.wasm', 'assets/index-abc.js', './']);
  });

  it('names the cache after the content: the same build the same name, a change a new one', () => {
    const { cache } = offlineBuild(files('<html>'));
    expect(cache).toMatch(/^pseudolens-[0-9a-f]{16}$/);
    expect(offlineBuild(files('<html>')).cache).toBe(cache);
    expect(offlineBuild(files('<html> ')).cache).not.toBe(cache);
  });
});
