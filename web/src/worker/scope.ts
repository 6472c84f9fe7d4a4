// The audit worker's own global scope, typed: the messages it posts to the page, the requests
// it gets from it, and the Content-Security-Policy violations it forwards (its own and its
// reader workers'), which the page's listeners never see otherwise.

import type { CspViolation, Request, Response } from '../shared/protocol';

/** The parts of DedicatedWorkerGlobalScope used here (the DOM lib types `self` as Window). */
interface WorkerScope {
  postMessage(message: Response, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Request>) => void): void;
  addEventListener(type: 'securitypolicyviolation', listener: (e: SecurityPolicyViolationEvent) => void): void;
}
const scope = globalThis as unknown as WorkerScope;

/** Posts `message` to the page (`transfer`: buffers moved, not copied). */
export function post(message: Response, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

/** Forwards a violation (this worker's or a reader's) to the page. */
export const forwardViolation = (violation: CspViolation) => post({ type: 'csp_violation', violation });

scope.addEventListener('securitypolicyviolation', (e) =>
  forwardViolation({ blockedURI: e.blockedURI, violatedDirective: e.violatedDirective, sourceFile: e.sourceFile }),
);

/** Hands every request of the page to `handle`. */
export function onRequest(handle: (request: Request) => void): void {
  scope.addEventListener('message', (e) => handle(e.data));
}
