import type { PackFile } from './schema.js';

/** A pack file the checks passed: only checkedPack makes one. */
export type Pack = PackFile & { readonly __checked: true };

export type PackLoad = { ok: true; pack: Pack } | { ok: false; problems: string[] };
