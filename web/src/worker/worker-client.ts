// The page's handle on the audit worker: start a run, cancel it (terminate the worker, since a
// running wasm call cannot be interrupted), and drop messages of runs that are no longer
// current. A recompute (a change of settings after the first audit) never terminates the
// worker, which keeps the table: only its latest answer is passed on.
//
// The current worker is asked to warm its engine up once it is ready; a standby worker is
// started beside it once that warm-up has ended (so that the two do not share the cores while
// the page first loads and reads a first file; issue 40), and loads its engine
// (script, wasm and reader workers) while the page can still fetch them: a cancel swaps it in,
// so a cancel needs no fetch, offline included; a new standby is then started (from the
// service worker's cache when the page is installed, else again once the browser is back
// online). A worker that cannot start fails the run given to it with a message, so the page
// never waits on it.

import type { Candidate, ChoiceParams } from '../shared/balance-data';
import type { AuditProgress, ClassValues, ProtectRequest, Request, Response, Source } from '../shared/protocol';
import type { AuditConfig, MetricResult, ShareableReport, WireError } from '../shared/report';
import { spawnWorker } from './spawn';
import auditWorkerUrl from './worker.ts?worker&url';

/** The state of a standby worker's engine, for the page (`data-standby`). */
export type StandbyState = 'ready' | 'failed';

/** An audit worker and how far its engine has got. */
interface Engine {
  worker: Worker;
  state: 'starting' | 'ready' | 'failed';
  /** Its warm-up has ended (asked for once it is the current worker and ready). */
  warmed: boolean;
}

export class WorkerClient {
  /** The worker runs are posted to. */
  private current: Engine;
  /** The worker that replaces it on cancel, started beside it once its engine is warmed up or
   * failed (null until then). */
  private standby: Engine | null = null;
  private nextId = 1;
  private currentId = 0;
  /** The latest recompute: the answer of any other is dropped. */
  private recomputeId = 0;
  /** The latest profile pass: the file hash of any other run is dropped. */
  private profileId = 0;
  /** `choose` calls waiting for their answer; they do not make the client busy. */
  private choices = new Map<number, { resolve: (m: MetricResult[]) => void; reject: (e: WireError) => void }>();
  /** `shareable` calls waiting for their answer, likewise. */
  private shareables = new Map<number, { resolve: (r: ShareableReport) => void; reject: (e: WireError) => void }>();
  /** `header` calls waiting for their answer. */
  private headers = new Map<number, { resolve: (h: string[] | null) => void; reject: (e: WireError) => void }>();
  /** Protect's requests waiting for their answer, with their progress and chunks. */
  private protects = new Map<number, { resolve: (a: ProtectAnswer) => void; reject: (e: WireError) => void; on: ProtectListeners }>();

  constructor(
    private readonly onMessage: (message: Response) => void,
    private readonly onStandby: (state: StandbyState) => void = () => undefined,
  ) {
    this.current = this.spawn();
    // A standby that could not start offline is started again once the network is back.
    window.addEventListener('online', () => {
      if (this.standby?.state !== 'failed') return;
      this.standby.worker.terminate();
      this.standby = this.spawn();
    });
  }

  /** True while a run has been started and has not ended with a result or an error. */
  get busy(): boolean {
    return this.currentId !== 0;
  }

  /** A profile or audit pass; `reference` (population), `original` and `control` (the
   * attacks' control table): audit pass only. */
  run(
    pass: 'profile' | 'audit',
    source: Source,
    config: AuditConfig,
    reference: File | null = null,
    original: File | null = null,
    control: File | null = null,
  ): void {
    this.recomputeId = 0; // its answer would be for another file or other settings
    const id = this.begin();
    if (pass === 'profile') this.profileId = id;
    this.post({ type: 'run', id, pass, source, config, reference, original, control });
  }

  /**
   * Audits the same source again with `config`, from the table the worker keeps. It does not
   * cancel a recompute still running (the worker answers only the latest), nor a drill-down;
   * the next profile, audit or comparison drops it.
   */
  recompute(source: Source, config: AuditConfig, reference: File | null, original: File | null, control: File | null = null): void {
    this.recomputeId = this.nextId++;
    this.post({ type: 'recompute', id: this.recomputeId, source, config, reference, original, control });
  }

  /** The drill-down pass: the rows of `classes`, read from `source` with `config`. */
  extract(source: Source, config: AuditConfig, classes: ClassValues[]): void {
    this.post({ type: 'extract', id: this.begin(), source, config, classes });
  }

  /** Each record's values as CSV, read from `source` with `config` (the kept table, else the file again). */
  perRecord(source: Source, config: AuditConfig): void {
    this.post({ type: 'per_record', id: this.begin(), source, config });
  }

  /** Audits every candidate release against the same original (and population table). */
  compare(candidates: File[], config: AuditConfig, reference: File | null, original: File | null, control: File | null = null): void {
    this.recomputeId = 0;
    this.post({ type: 'compare', id: this.begin(), candidates, config, reference, original, control });
  }

  /**
   * The core's `choose` over audited candidates. It reads no file, so it runs beside a pass
   * without cancelling it; a restarted worker rejects it.
   */
  choose(quasiIdentifiers: string[], candidates: Candidate[], params: ChoiceParams): Promise<MetricResult[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.choices.set(id, { resolve, reject });
      this.post({ type: 'choose', id, quasi_identifiers: quasiIdentifiers, candidates, params });
    });
  }

  /** The core's report safe to share: aggregates of at least `minCount` records (null: the
   * report's k; an audit's report comes with that one) of the report the worker holds as
   * `held` (`ShareableVariant.held`). Like `choose`, it runs beside a pass. */
  shareable(held: number, minCount: number | null): Promise<ShareableReport> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.shareables.set(id, { resolve, reject });
      this.post({ type: 'shareable', id, of: held, min_count: minCount });
    });
  }

  /**
   * The column names of a side table as the core reads its header (null when it cannot read
   * them from the file's start). Like `choose`, outside the runs; a restarted worker rejects it.
   */
  header(file: File): Promise<string[] | null> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.headers.set(id, { resolve, reject });
      this.post({ type: 'header', id, file });
    });
  }

  /**
   * A protect request (worker/protect.ts): like `choose`, outside the runs, on the table the
   * worker keeps; `on` gets its search's progress and its release's chunks. Its error comes in
   * its answer; a restarted worker (a cancel) rejects it.
   */
  protect(request: ProtectAsk, on: ProtectListeners = {}): Promise<ProtectAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.protects.set(id, { resolve, reject, on });
      this.post({ ...request, id } as ProtectRequest);
    });
  }

  /** The page has drawn the last profile: the worker starts what it put off (see `shown`). */
  shown(): void {
    this.post({ type: 'shown', id: this.profileId });
  }

  private begin(): number {
    if (this.busy) this.restart();
    // A worker that could not start (offline, say) gets one more try; if it fails again, its
    // error fails this run.
    if (this.current.state === 'failed') this.current = this.spawn();
    const id = this.nextId++;
    this.currentId = id;
    return id;
  }

  private post(request: Request): void {
    this.current.worker.postMessage(request);
  }

  /** Stops the current run for good. */
  cancel(): void {
    this.restart();
  }

  /**
   * Replaces the worker (also after an internal error, whose wasm state may be unusable) by
   * the standby, unless it failed or has not started (then by a new worker), and asks it to
   * warm up; the next standby starts once that warm-up has ended (`settled`).
   */
  restart(): void {
    this.current.worker.terminate();
    this.currentId = 0;
    this.recomputeId = 0;
    const restarted: WireError = { kind: 'internal', code: 'worker_restarted', message: 'The audit worker was restarted.', line: null, column: null };
    for (const { reject } of [...this.choices.values(), ...this.headers.values(), ...this.protects.values()]) reject(restarted);
    this.protects.clear();
    this.choices.clear();
    for (const { reject } of this.shareables.values()) reject(restarted);
    this.shareables.clear();
    this.headers.clear();
    if (this.standby && this.standby.state !== 'failed') {
      this.current = this.standby;
      this.standby = null;
      if (this.current.state === 'ready') this.post({ type: 'warm', id: 0 });
    } else {
      this.standby?.worker.terminate();
      this.standby = null;
      this.current = this.spawn();
    }
  }

  /** Starts the standby once `engine`, the current worker's, is warmed up or failed. */
  private settled(engine: Engine): void {
    if (engine === this.current && (engine.warmed || engine.state === 'failed') && this.standby === null) this.standby = this.spawn();
  }

  private spawn(): Engine {
    const worker = spawnWorker(auditWorkerUrl, 'pseudolens-audit');
    const engine: Engine = { worker, state: 'starting', warmed: false };
    worker.addEventListener('message', (e: MessageEvent<Response>) => this.receive(engine, e.data));
    worker.addEventListener('error', (e) => {
      // The script could not be fetched or run: without network and without the installed
      // copy, a new worker cannot start.
      e.preventDefault();
      engine.state = 'failed';
      if (engine === this.standby) this.onStandby('failed');
      this.settled(engine);
      const id = this.currentId;
      if (engine !== this.current || id === 0) return;
      this.route({
        type: 'error',
        id,
        target: 'table',
        error: { kind: 'internal', code: 'worker_failed', message: startFailure(e), line: null, column: null },
      });
    });
    return engine;
  }

  /** A message of `engine`: the current worker's go to the page, the standby's only tell its state. */
  private receive(engine: Engine, message: Response): void {
    if (message.type === 'ready' || message.type === 'engine_failed') {
      engine.state = message.type === 'ready' ? 'ready' : 'failed';
      if (engine === this.standby) this.onStandby(engine.state);
      if (engine === this.current && engine.state === 'ready') this.post({ type: 'warm', id: 0 });
      this.settled(engine);
    }
    if (message.type === 'warmed') {
      engine.warmed = true;
      this.settled(engine);
    }
    if (message.type === 'csp_violation' || engine === this.current) this.route(message);
  }

  private route(message: Response): void {
    if (message.type === 'file_hash') {
      if (message.id === this.profileId) this.onMessage(message);
      return;
    }
    if (message.type === 'csp_violation' || message.type === 'ready' || message.type === 'engine_failed' || message.type === 'warmed') {
      this.onMessage(message);
      return;
    }
    if (message.type === 'choice') {
      const pending = this.choices.get(message.id);
      this.choices.delete(message.id);
      if (message.metrics) pending?.resolve(message.metrics);
      else pending?.reject(message.error ?? { kind: 'internal', code: 'internal', message: 'no answer', line: null, column: null });
      return;
    }
    if (message.type === 'shareable_report') {
      const pending = this.shareables.get(message.id);
      this.shareables.delete(message.id);
      if (message.report) pending?.resolve(message.report);
      else pending?.reject(message.error ?? { kind: 'internal', code: 'internal', message: 'no answer', line: null, column: null });
      return;
    }
    if (message.type === 'header') {
      this.headers.get(message.id)?.resolve(message.header);
      this.headers.delete(message.id);
      return;
    }
    const protect = this.protects.get(message.id);
    if (protect) {
      if (message.type === 'audit_progress') protect.on.progress?.(message.progress);
      else if (message.type === 'release_chunk') protect.on.chunk?.(message.bytes, message.rows, message.total);
      else if (isProtectAnswer(message)) {
        this.protects.delete(message.id);
        protect.resolve(message);
      }
      return;
    }
    if (message.type === 'recomputed' || message.type === 'recompute_error') {
      if (message.id !== this.recomputeId) return; // superseded, or dropped by a run
      this.recomputeId = 0;
      this.onMessage(message);
      return;
    }
    // The latest recompute's progress goes to the page too (the line above the results).
    if (message.type === 'audit_progress' && message.id === this.recomputeId && message.id !== 0) {
      this.onMessage(message);
      return;
    }
    if (message.id !== this.currentId) return; // a late message from a cancelled run or recompute
    if (
      message.type === 'result' ||
      message.type === 'extract_result' ||
      message.type === 'per_record_result' ||
      message.type === 'compare_result' ||
      message.type === 'error'
    ) {
      this.currentId = 0;
    }
    this.onMessage(message);
  }
}

/** A protect request as the page gives it (the client numbers it). */
export type ProtectAsk = ProtectRequest extends infer R ? (R extends ProtectRequest ? Omit<R, 'id'> : never) : never;
/** The answer of a protect request. */
export type ProtectAnswer = Extract<Response, { type: 'proposed' | 'protected' | 'protect_node' | 'release_written' | 'ladder_csv' }>;
/** What a protect request reports before its answer. */
export interface ProtectListeners {
  progress?: (progress: AuditProgress) => void;
  chunk?: (bytes: Uint8Array, rows: number, total: number) => void;
}

function isProtectAnswer(message: Response): message is ProtectAnswer {
  return ['proposed', 'protected', 'protect_node', 'release_written', 'ladder_csv'].includes(message.type);
}

/** Why a worker could not start, in words the page can show. */
function startFailure(e: ErrorEvent): string {
  if (!navigator.onLine) {
    return 'The audit engine could not be started again while this browser is offline, and this page is not installed for offline use. Reload the page once the connection is back.';
  }
  return e.message || 'The audit worker could not start.';
}
