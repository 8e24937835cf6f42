import { parseDocument } from 'yaml';
import { checkedPack, type PackLoad } from './checked.js';
import type { TakenNames } from './reserved.js';

export type { Pack, PackLoad } from './checked.js';

/** A pack file is at most this many bytes. */
export const MAX_PACK_BYTES = 64 * 1024;

/** Reads a pack file (YAML 1.2, or JSON): every problem, each led by its path, or the pack. `commands` are names it must not take. */
export function loadPack(text: string, commands: TakenNames): PackLoad {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_PACK_BYTES)
    return { ok: false, problems: [`the file: ${bytes.toLocaleString('en')} bytes; a pack is at most ${MAX_PACK_BYTES.toLocaleString('en')}`] };
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length)
    return { ok: false, problems: doc.errors.map((e) => `line ${e.linePos?.[0].line}, column ${e.linePos?.[0].col}: ${e.message.split(' at line ')[0]}`) };
  let data: unknown;
  try {
    // An alias expanding into thousands of copies is refused, not expanded.
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (err) {
    return { ok: false, problems: [`the file: ${(err as Error).message}`] };
  }
  return checkedPack(data, commands);
}
