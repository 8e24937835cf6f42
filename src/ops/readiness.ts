import type { BeaconStatus } from '../beacon/relay.js';
import { isUnreachable } from '../ledger/postgres/pg-ledger.js';
import type { LedgerStore } from '../ledger/store.js';

/** gateway: this process holds a gateway connection; http: it serves POST /interactions; shards: it runs shard processes. */
export type ServeMode = 'gateway' | 'http' | 'shards';

export type Readiness = { ready: boolean; mode: ServeMode; serving: boolean; writable: boolean; reason?: string; beacon?: BeaconStatus };

/** How long the database may take to open and close a write transaction before it counts as not writable. */
export const WRITABLE_TIMEOUT_MS = 2_000;

/** What each mode says when it is not serving. */
export const NOT_SERVING: Record<ServeMode, string> = {
  gateway: 'not connected to the Discord gateway',
  http: 'the HTTP interactions server is not listening',
  shards: 'not every shard is connected to the Discord gateway',
};

/**
 * Ready: serving interactions in its mode, and the ledger able to take a write (the store's
 * probeWrite: room on a SQLite ledger's disk past a margin and its write lock, or a logged commit
 * on PostgreSQL). A shard manager holds no ledger. The reason says what is wrong without internal
 * addresses (the body may be read by whoever can reach the operations port).
 */
export async function readiness(
  mode: ServeMode,
  serving: () => boolean,
  ledger?: Pick<LedgerStore, 'probeWrite'>,
  /** Whether the beacon's relays answer and the last round seen: said, never failing readiness (rolls outside games go on). */
  beacon?: () => BeaconStatus,
): Promise<Readiness> {
  const up = serving();
  let writable = true;
  let problem: string | undefined;
  if (ledger) {
    try {
      await withTimeout(ledger.probeWrite(), WRITABLE_TIMEOUT_MS);
    } catch (err) {
      writable = false;
      problem = `the ledger is not writable: ${publicReason(err)}`;
    }
  }
  const reason = [up ? undefined : NOT_SERVING[mode], problem].filter(Boolean).join('; ');
  return { ready: up && writable, mode, serving: up, writable, ...(reason ? { reason } : {}), ...(beacon ? { beacon: beacon() } : {}) };
}

/** An error's reason with any host, address or port taken out (a database's address is internal). */
export function publicReason(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  if (isUnreachable(err) || (cause !== undefined && isUnreachable(cause))) return 'the database cannot be reached';
  return (err as Error).message
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '<address>')
    .replace(/\[?(?:[0-9a-f]{0,4}:){2,}[0-9a-f]{0,4}\]?(:\d+)?/gi, '<address>')
    .replace(/\bhost "?[\w.-]+"?/gi, 'host <address>');
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
