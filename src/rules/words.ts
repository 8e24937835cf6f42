import { sayIn } from '../i18n/speak.js';
import type { Said } from '../i18n/said.js';
import type { Modifier, Says } from './types.js';
import { list, said } from '../i18n/said.js';

/**
 * A rule's words, kept twice on purpose: the English the ledger records and exports (readable
 * without the bot), and the identifiers with parameters every reader sees in their own language.
 * The sentences themselves are in src/i18n/messages/*-results.ts.
 */
export function worded(label: Said, effect: Said): { label: string; effect: string; says: Says } {
  return { label: sayIn('en', label), effect: sayIn('en', effect), says: { label, effect } };
}

/** Sentences one under another, as one. */
export const lines = (items: readonly Said[]): Said => said('lines', { lines: list(items, 'lines') });

/** Sentences or clauses run together as one, with a space or a semicolon between. */
export const joined = (items: readonly Said[], by: 'space' | 'semicolon'): Said => said('joined', { items: list(items, by) });

/** A modifier with its reason in words every reader's language renders. */
export const because = (reason: Said, value: number): Modifier => ({ reason: sayIn('en', reason), value, says: reason });
