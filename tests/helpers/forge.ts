import { hash } from 'node:crypto';
import { canonicalJson, pickChained, rowHash } from '../../src/ledger/chain.js';
import { commitTo, isCommitment } from '../../src/ledger/people.js';

/**
 * What a host who rewrites an export does to make a row whole again: a row committing to its
 * person fields gets its chained text rebuilt from its plain values (the commitments recomputed
 * under the salts the row carries, the others kept), then every row is hashed as the bot hashes it.
 */
function mirror(plain: unknown, chained: unknown, salts: Map<string, string>): unknown {
  if (isCommitment(chained)) {
    if (!chained.by.every((id) => salts.has(id))) return chained;
    return commitTo(
      plain,
      chained.by.map((id) => ({ salt_id: id, user_id: '', salt: salts.get(id)! })),
    );
  }
  if (Array.isArray(plain) && Array.isArray(chained)) return plain.map((p, i) => mirror(p, chained[i], salts));
  if (plain && chained && typeof plain === 'object' && typeof chained === 'object' && !Array.isArray(plain))
    return Object.fromEntries(Object.entries(plain).map(([k, p]) => [k, mirror(p, (chained as Record<string, unknown>)[k], salts)]));
  return plain;
}

/** The hash a forger gives a row they edited (and, for a committed row, its chained text rebuilt to match). */
export function forgedHash(prev: string, row: Record<string, any>): string {
  if (typeof row.chained !== 'string') return rowHash(prev, row as never);
  const salts = new Map(Object.entries((row.salts ?? {}) as Record<string, string>));
  const chained = JSON.parse(row.chained) as Record<string, unknown>;
  const plain = pickChained(row as never) as unknown as Record<string, unknown>;
  row.chained = canonicalJson(Object.fromEntries(Object.keys(plain).map((k) => [k, mirror(plain[k] ?? null, chained[k] ?? null, salts)])));
  return hash('sha256', prev + row.chained);
}
