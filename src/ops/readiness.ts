import type { LedgerStore } from '../ledger/store.js';

/** gateway: this process holds a gateway connection; http: it serves POST /interactions; shards: it runs shard processes. */
export type ServeMode = 'gateway' | 'http' | 'shards';

export type Readiness = { ready: boolean; mode: ServeMode; serving: boolean; writable: boolean; reason?: string };

/** How long the database may take to open and close a write transaction before it counts as not writable. */
export const WRITABLE_TIMEOUT_MS = 2_000;

/** What each mode says when it is not serving. */
export const NOT_SERVING: Record<ServeMode, string> = {
  gateway: 'not connected to the Discord gateway',
  http: 'the HTTP interactions server is not listening',
  shards: 'not every shard is connected to the Discord gateway',
};

/**
 * Ready: serving interactions in its mode, and the ledger writable (a write transaction opened and
 * closed through the ledger's own queue, on either backend). A shard manager holds no ledger.
 */
export async function readiness(mode: ServeMode, serving: () => boolean, ledger?: Pick<LedgerStore, 'transaction'>): Promise<Readiness> {
  const up = serving();
  let writable = true;
  let problem: string | undefined;
  if (ledger) {
    try {
      await withTimeout(
        ledger.transaction(async () => undefined),
        WRITABLE_TIMEOUT_MS,
      );
    } catch (err) {
      writable = false;
      problem = `the ledger is not writable: ${(err as Error).message}`;
    }
  }
  const reason = [up ? undefined : NOT_SERVING[mode], problem].filter(Boolean).join('; ');
  return { ready: up && writable, mode, serving: up, writable, ...(reason ? { reason } : {}) };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
