// No word of a settings label is broken across lines (issue 36: "k-map and δ-presence" labels
// broke mid-word at 1280 px, in the narrow column of the settings panel). A break at a hyphen
// or a space is a line break; a word cut elsewhere is not.

import { expect, test } from '@playwright/test';
import { openApp, runSample } from './helpers.ts';

for (const width of [1280, 1366, 390]) {
  test(`no settings label is cut inside a word at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openApp(page);
    await runSample(page);
    const cut = await page.evaluate(() => {
      const out: string[] = [];
      for (const node of document.querySelectorAll<HTMLElement>('label, legend')) {
        if (!node.offsetParent) continue;
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
          for (const m of t.data.matchAll(/[^\s\-‐–]+/g)) {
            const range = document.createRange();
            range.setStart(t, m.index!);
            range.setEnd(t, m.index! + m[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) out.push(`${node.textContent!.trim()}: "${m[0]}"`);
          }
        }
      }
      return out;
    });
    expect(cut).toEqual([]);
    await page.locator('fieldset.peer-settings').screenshot({ path: `test-results/peer-settings-${width}.png` });
  });
}
