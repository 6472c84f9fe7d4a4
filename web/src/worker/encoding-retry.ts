// The encoding retry: a read that the engine says must be done again in another encoding
// (its `fallback_encoding`: windows-1252 when the text is not UTF-8 after all) is run once
// more with that encoding forced, and the page is told.

import { fallback_encoding } from '../../pkg/pseudolens_wasm.js';
import type { Target } from '../shared/protocol';
import { toWireError, type AuditConfig } from '../shared/report';
import { post } from './scope';

/**
 * Runs `attempt` with the encoding detected; when the engine says the file must be read again
 * in another encoding (its `fallback_encoding`: windows-1252 when the text is not UTF-8 after
 * all), tells the page and runs it once more with that encoding forced.
 */
export async function withEncodingRetry<T>(id: number, target: Target, forced: boolean, attempt: (encoding: 'windows-1252' | null) => Promise<T>): Promise<T> {
  try {
    return await attempt(forced ? 'windows-1252' : null);
  } catch (e) {
    const fallback = forced ? undefined : fallback_encoding(toWireError(e).code);
    if (fallback !== 'windows-1252') throw e;
    post({ type: 'encoding_retry', id, target, encoding: fallback });
    return attempt(fallback);
  }
}

/** The config with the encoding the retry forces, if any. */
export const withEncoding = (config: AuditConfig, encoding: 'windows-1252' | null): AuditConfig => (encoding ? { ...config, encoding } : config);
