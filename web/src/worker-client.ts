// The page's handle on the audit worker: start a run, cancel it (terminate the worker and
// spawn a fresh one, since a running wasm call cannot be interrupted), and drop messages of
// runs that are no longer current.

import type { ClassValues, Request, Response, Source } from './protocol';
import type { AuditConfig } from './report';

export class WorkerClient {
  private worker: Worker;
  private nextId = 1;
  private currentId = 0;

  constructor(private readonly onMessage: (message: Response) => void) {
    this.worker = this.spawn();
  }

  /** True while a run has been started and has not ended with a result or an error. */
  get busy(): boolean {
    return this.currentId !== 0;
  }

  /** A profile or audit pass; `reference` (population) and `original`: audit pass only. */
  run(pass: 'profile' | 'audit', source: Source, config: AuditConfig, reference: File | null = null, original: File | null = null): void {
    this.post({ type: 'run', id: this.begin(), pass, source, config, reference, original });
  }

  /** The drill-down pass: the rows of `classes`, read from `source` with `config`. */
  extract(source: Source, config: AuditConfig, classes: ClassValues[]): void {
    this.post({ type: 'extract', id: this.begin(), source, config, classes });
  }

  private begin(): number {
    if (this.busy) this.restart();
    const id = this.nextId++;
    this.currentId = id;
    return id;
  }

  private post(request: Request): void {
    this.worker.postMessage(request);
  }

  /** Stops the current run for good. */
  cancel(): void {
    this.restart();
  }

  /** Replaces the worker (also after an internal error, whose wasm state may be unusable). */
  restart(): void {
    this.worker.terminate();
    this.currentId = 0;
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'pseudolens-audit' });
    worker.addEventListener('message', (e: MessageEvent<Response>) => this.route(e.data));
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      const id = this.currentId;
      if (id === 0) return;
      this.route({
        type: 'error',
        id,
        target: 'table',
        error: {
          kind: 'internal',
          code: 'worker_failed',
          message: e.message || 'The audit worker could not start.',
          line: null,
          column: null,
        },
      });
    });
    return worker;
  }

  private route(message: Response): void {
    if (message.type === 'csp_violation' || message.type === 'ready' || message.type === 'engine_failed') {
      this.onMessage(message);
      return;
    }
    if (message.id !== this.currentId) return; // a late message from a cancelled run
    if (message.type === 'result' || message.type === 'extract_result' || message.type === 'error') this.currentId = 0;
    this.onMessage(message);
  }
}
