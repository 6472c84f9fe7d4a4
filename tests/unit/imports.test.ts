// The page's modules import each other without a cycle (issue 13): a cycle makes the order in
// which modules run depend on which one is imported first; nor do its folders (issue 37, item
// 4). The folders keep to an order, from the bottom up: `shared/` (the contract, the protocols,
// the readers of the report), `ui/` (presentation used by several views), `charts/`, `setup/`
// (steps 1-2), `results/` (step 3), `export/` (the HTML reports drawn from the results), `app/`
// (the page's shell); a folder imports only folders below it. `worker/` stands beside the
// order: it imports only `shared/`, and only `app/` imports it (the worker's client). And a
// folder of views (`setup/`, each `results/<section>/`) imports no other folder's view, only
// its own modules and the base folders (`shared/`, `ui/`, `charts/`): a reader of the report
// lives in `shared/`, a piece of presentation used by several views in `ui/`. Only the modules
// that put views together (`results/results-view.ts`, `export/`, `app/`) import views of other
// folders (docs/architecture.md "The page's layout").

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

/** The page's folders from the bottom up: each imports only the folders before it. */
const ORDER = ['shared', 'ui', 'charts', 'setup', 'results', 'export', 'app'];
/** The worker's folder, beside the order: what it imports, and the only folder importing it. */
const WORKER = { folder: 'worker', imports: ['shared'], importedBy: ['app'] };
/** The folders any folder of views may import from. */
const BASE = ['shared', 'ui', 'charts'];

/** The top folder of a module. */
const folderOf = (module: string): string => module.split('/')[0]!;

/** Whether a module of folder `from` may import one of folder `to`. */
function mayImport(from: string, to: string): boolean {
  if (from === to) return true;
  if (from === WORKER.folder) return WORKER.imports.includes(to);
  if (to === WORKER.folder) return WORKER.importedBy.includes(from);
  const [i, j] = [ORDER.indexOf(from), ORDER.indexOf(to)];
  return i >= 0 && j >= 0 && j < i;
}

/** Every import against the folder order, as `importer -> imported`. */
function orderBreaches(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([from, targets]) => targets.filter((to) => !mayImport(folderOf(from), folderOf(to))).map((to) => `${from} -> ${to}`));
}

/** Folder -> the other folders its modules import. */
function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const set = folders.get(folderOf(from)) ?? new Set<string>();
    for (const to of targets) if (folderOf(to) !== folderOf(from)) set.add(folderOf(to));
    folders.set(folderOf(from), set);
  }
  return new Map([...folders].map(([folder, set]) => [folder, [...set]]));
}

/** The folder of views a module belongs to: `setup`, `results/<section>`, or null (a base or
 * composing module: `results/results-view.ts`, `app/`, `export/`, `worker/`). */
function viewFolder(module: string): string | null {
  const parts = module.split('/');
  if (parts[0] === 'setup') return 'setup';
  return parts[0] === 'results' && parts.length > 2 ? `results/${parts[1]}` : null;
}

/** Every import of a view folder from another folder of views, as `importer -> imported`. */
function viewBreaches(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const folder = viewFolder(from);
    if (folder === null) continue;
    for (const to of targets) if (!BASE.includes(folderOf(to)) && viewFolder(to) !== folder) found.push(`${from} -> ${to}`);
  }
  return found;
}

/** `graph` with one more import, `from -> to`. */
const planted = (graph: Map<string, string[]>, from: string, to: string) => new Map([...graph, [from, [...(graph.get(from) ?? []), to]]]);

describe('web/src imports', () => {
  it('form no cycle', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('are all seen by the check (it would find a cycle made on purpose)', () => {
    const graph = importGraph();
    expect(graph.get('setup/roles')).toContain('shared/contract');
    expect(cycles(new Map([...graph, ['shared/contract', ['setup/roles']]]))).not.toEqual([]);
  });

  it('keep to the folder order, the worker beside it', () => {
    const graph = importGraph();
    expect(orderBreaches(graph)).toEqual([]);
    // Every folder of web/src has its place.
    expect([...new Set([...graph.keys()].map(folderOf))].filter((f) => !ORDER.includes(f) && f !== WORKER.folder)).toEqual([]);
  });

  it('are all seen by the order check (it would find a breach made on purpose)', () => {
    const graph = importGraph();
    expect(graph.get('app/engine')).toContain('worker/worker-client');
    const breach = (from: string, to: string) => orderBreaches(planted(graph, from, to));
    expect(breach('shared/report', 'ui/format')).not.toEqual([]);
    expect(breach('ui/view-kit', 'charts/charts')).not.toEqual([]);
    expect(breach('results/results-view', 'export/report-html')).not.toEqual([]);
    expect(breach('setup/roles', 'results/results-view')).not.toEqual([]);
    expect(breach('worker/worker', 'ui/format')).not.toEqual([]);
    expect(breach('results/results-view', 'worker/worker-client')).not.toEqual([]);
    expect(breach('export/report-html', 'results/identity/verdict-view')).toEqual([]);
    expect(breach('app/main', 'worker/worker-client')).toEqual([]);
  });

  it('form no cycle between folders', () => {
    expect(cycles(folderGraph(importGraph()))).toEqual([]);
  });

  it('are all seen by the folder cycle check (it would find a cycle made on purpose)', () => {
    const graph = importGraph();
    expect(cycles(folderGraph(planted(graph, 'shared/report', 'ui/format')))).not.toEqual([]);
    expect(cycles(folderGraph(planted(graph, 'results/results-view', 'export/report-html')))).not.toEqual([]);
  });

  it("keep to their folders of views: no view reads another folder's view", () => {
    expect(viewBreaches(importGraph())).toEqual([]);
  });

  it('are all seen by the view check (it would find a breach made on purpose)', () => {
    const graph = importGraph();
    expect(graph.get('results/navigation/section-headlines')).toContain('shared/advice-data');
    const breach = (from: string, to: string) => viewBreaches(planted(graph, from, to));
    expect(breach('results/navigation/section-headlines', 'results/advice/advice-view')).not.toEqual([]);
    expect(breach('results/balance/candidates-data', 'results/results-view')).not.toEqual([]);
    expect(breach('results/balance/balance-controls', 'setup/settings-form')).not.toEqual([]);
    expect(breach('setup/query-settings', 'results/utility/utility-summary')).not.toEqual([]);
    expect(breach('results/balance/candidates-view', 'results/balance/candidates-data')).toEqual([]);
  });
});
