// Shareable settings (issue 13, Deliver 3): the settings of an audit travel in the URL
// fragment (never sent to a server: a browser does not send the part after "#") with a format
// version and the SHA-256 of the file they were made for, and as a settings file whose keys are
// the configuration's (AuditConfig's JSON form, the report's `params`; the CLI reads it with
// `--settings FILE`). Settings that hold data values (the user's queries, the hierarchies,
// protect's hierarchy ladders) go only in the file. Pure functions, no DOM.

import type { AuditConfig } from '../shared/report';

/** The format version of the link; a link of another version is refused with a sentence. */
export const LINK_VERSION = 1;

/** The fragment's name for the settings (`#pseudolens=1&sha256=…&settings=…`). */
const KEY = 'pseudolens';

/** Settings that hold values of the data: they travel only in the settings file. */
export const DATA_VALUE_KEYS: readonly string[] = ['queries', 'attributes'];

/** Settings as they arrive from a link or a settings file. */
export interface SharedSettings {
  config: AuditConfig;
  /** The SHA-256 of the file the link was made for (null from a settings file). */
  sha256: string | null;
  /** Where they came from: a link, or a settings file of this name. */
  from: { kind: 'link' } | { kind: 'file'; name: string };
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** True when a setting holds something: data-value settings left empty are not "left out". */
function holds(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (Array.isArray(v)) return v.length > 0;
  return typeof v !== 'object' || Object.keys(v).length > 0;
}

/** The settings of the link: every setting but those holding data values (named in `left`);
 * the protection without its hierarchy ladders (`protect_hierarchies`), which list values. */
export function linkSettings(config: AuditConfig): { config: AuditConfig; left: string[] } {
  const kept: Record<string, unknown> = {};
  const left: string[] = [];
  for (const [key, v] of Object.entries(config)) {
    if (DATA_VALUE_KEYS.includes(key)) {
      if (holds(v)) left.push(key);
    } else kept[key] = v;
  }
  if (config.protect) {
    const ladders = Object.entries(config.protect.ladders);
    const plain = ladders.filter(([, l]) => l.kind !== 'hierarchy');
    if (plain.length < ladders.length) left.push('protect_hierarchies');
    kept.protect = { ...config.protect, ladders: Object.fromEntries(plain) };
  }
  return { config: kept as unknown as AuditConfig, left };
}

/** The fragment (with its "#") carrying `config` for the file of hash `sha256`. */
export function linkFragment(config: AuditConfig, sha256: string | null): string {
  const parts = [`${KEY}=${LINK_VERSION}`];
  if (sha256) parts.push(`sha256=${sha256}`);
  parts.push(`settings=${base64url(JSON.stringify(linkSettings(config).config))}`);
  return `#${parts.join('&')}`;
}

/** Why a fragment or a settings file cannot be used, in one sentence. */
export class SettingsError extends Error {}

function asConfig(v: unknown, what: string): AuditConfig {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SettingsError(`${what} does not hold settings (a JSON object).`);
  const c = v as Record<string, unknown>;
  const names = (key: string) => c[key] === undefined || (Array.isArray(c[key]) && (c[key] as unknown[]).every((x) => typeof x === 'string'));
  if (!['quasi_identifiers', 'sensitive', 'ignored'].every(names))
    throw new SettingsError(`${what} names its columns wrongly: a list of column names is expected.`);
  return { ...(c as unknown as AuditConfig), quasi_identifiers: (c.quasi_identifiers as string[] | undefined) ?? [] };
}

/** The settings of a location's fragment, null when it carries none. */
export function parseFragment(hash: string): SharedSettings | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const version = params.get(KEY);
  if (version === null) return null;
  if (version !== String(LINK_VERSION)) {
    throw new SettingsError(
      `This link holds settings of format ${version}; this page reads format ${LINK_VERSION}. Make the link again with this version of pseudolens.`,
    );
  }
  const sha256 = params.get('sha256');
  if (sha256 !== null && !/^[0-9a-f]{64}$/.test(sha256)) throw new SettingsError('The link names its file with a SHA-256 that is not valid.');
  let config: unknown;
  try {
    config = JSON.parse(fromBase64url(params.get('settings') ?? ''));
  } catch {
    throw new SettingsError('The settings in this link are damaged (the link may have been cut when it was copied).');
  }
  return { config: asConfig(config, 'The link'), sha256, from: { kind: 'link' } };
}

/** The settings file: the configuration's keys, as the engine echoes them in `params`. */
export function settingsFileText(config: AuditConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** The settings of a settings file's text. */
export function parseSettingsFile(text: string, name: string): SharedSettings {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new SettingsError(`${name} is not a settings file: it is not JSON.`);
  }
  return { config: asConfig(v, name), sha256: null, from: { kind: 'file', name } };
}
