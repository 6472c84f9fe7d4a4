// The page's modules import each other without a cycle (issue 13): a cycle makes the order in
// which modules run depend on which one is imported first. And they keep to their layers
// (issue 13 Deliver 6, docs/architecture.md "The page's layout"): `shared/`, `ui/` and
// `charts/` import no feature folder, and a folder of views (`setup/`, each `results/<section>/`)
// imports no other feature's module, only its own and those three: a reader of the report lives
// in `shared/`, a piece of presentation used by several views in `ui/`. Only the modules that
// put views together (`results/results-view.ts`, `export/`, `app/`) import views of other folders.

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

/** The folders every module may import from. */
const BASE = ['shared', 'ui', 'charts'];
/** The feature folders, which the base folders never import from. */
const FEATURES = ['app', 'setup', 'results', 'worker', 'export'];

/** The folder of views a module belongs to: `setup`, `results/<section>`, or null (a base or
 * composing module: `results/results-view.ts`, `app/`, `export/`, `worker/`). */
function viewFolder(module: string): string | null {
  const parts = module.split('/');
  if (parts[0] === 'setup') return 'setup';
  return parts[0] === 'results' && parts.length > 2 ? `results/${parts[1]}` : null;
}

/** Every import that breaks the layers, as `importer -> imported`. */
function layerBreaches(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const top = from.split('/')[0]!;
    const folder = viewFolder(from);
    for (const to of targets) {
      const toTop = to.split('/')[0]!;
      const base = BASE.includes(toTop);
      if (BASE.includes(top) && FEATURES.includes(toTop)) found.push(`${from} -> ${to}`);
      else if (folder !== null && !base && viewFolder(to) !== folder) found.push(`${from} -> ${to}`);
    }
  }
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

  it('keep to their layers: no view reads another folder\'s view, the base folders import no feature', () => {
    expect(layerBreaches(importGraph())).toEqual([]);
  });

  it('are all seen by the layer check (it would find a breach made on purpose)', () => {
    const graph = importGraph();
    expect(graph.get('results/navigation/section-headlines')).toContain('shared/advice-data');
    const breach = (from: string, to: string) => layerBreaches(new Map([...graph, [from, [...(graph.get(from) ?? []), to]]]));
    expect(breach('results/navigation/section-headlines', 'results/advice/advice-view')).not.toEqual([]);
    expect(breach('results/balance/candidates-data', 'results/results-view')).not.toEqual([]);
    expect(breach('results/balance/balance-controls', 'setup/settings-form')).not.toEqual([]);
    expect(breach('setup/query-settings', 'results/utility/utility-summary')).not.toEqual([]);
    expect(breach('ui/view-kit', 'results/results-view')).not.toEqual([]);
    expect(breach('shared/report', 'setup/roles')).not.toEqual([]);
    expect(breach('results/balance/candidates-view', 'results/balance/candidates-data')).toEqual([]);
    expect(breach('export/report-html', 'results/identity/verdict-view')).toEqual([]);
  });
});
