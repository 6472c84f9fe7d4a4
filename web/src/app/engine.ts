// The page's link to the audit worker: the one WorkerClient, the handler its messages go to
// (the shell's dispatch, set once at load), and the engine's version once the worker is ready.

import type { Response } from '../shared/protocol';
import { WorkerClient } from '../worker/worker-client';

/** Where the worker's messages go; set by the shell before the first can arrive (a worker's
 * message is a task of its own, after the page's modules have run). */
let route: (message: Response) => void = () => undefined;

export const client = new WorkerClient(
  (message) => route(message),
  (state) => (document.documentElement.dataset.standby = state),
);

/** Sends every message of the worker to `handler`. */
export function routeMessages(handler: (message: Response) => void): void {
  route = handler;
}

/** The engine's version, from the worker's "ready" message (shown in reports). */
export const engine: { version: string | null } = { version: null };
