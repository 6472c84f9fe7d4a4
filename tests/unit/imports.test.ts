// The page's modules import each other without a cycle (issue 13): a cycle makes the order in
// which modules run depend on which one is imported first.

import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../web/src/', import.meta.url));

/** Module (its path under web/src, without .ts) -> the modules of web/src it imports (type-only
 * imports included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).map((f) => f.split('\\').join('/'));
  for (const file of files.filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(SRC + file, 'utf8');
    const dir = posix.dirname(file);
    const targets = [...text.matchAll(/^(?:import|export)[^'"]*?from\s+'(\.\.?\/[\w./-]+?)(?:\.ts)?'/gm)]
      .map((m) => posix.join(dir, m[1]!))
      .filter((target) => !target.startsWith('..'));
    graph.set(file.replace(/\.ts$/, ''), targets);
  }
  return graph;
}

/** Every cycle, each as the path that closes it (a -> b -> a). */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]) => {
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), node, next].join(' -> '));
      else if (!state.has(next)) visit(next, [...path, node]);
    }
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, []);
  return found;
}

describe('web/src imports', () => {
  it('form no cycle', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('are all seen by the check (it would find a cycle made on purpose)', () => {
    const graph = importGraph();
    expect(graph.get('setup/roles')).toContain('shared/contract');
    expect(cycles(new Map([...graph, ['shared/contract', ['setup/roles']]]))).not.toEqual([]);
  });
});
