import fs from 'node:fs';
import type { LedgerStore } from '../ledger/store.js';

/** Where the running bot writes its heartbeat, beside the ledger unless HEALTH_FILE says otherwise. */
/** Where a bot process beats: one file per shard when sharded (discord.js sets SHARDS to the shard's id list, "[0]"). */
export const healthFileFor = (databasePath: string, explicit?: string, shards?: string) => {
  const base = explicit ?? `${databasePath}.health.json`;
  const id = shards ? /\d+/.exec(shards)?.[0] : undefined;
  return id === undefined ? base : base.replace(/(\.json)?$/, `.shard-${id}$1`);
};

export type Heartbeat = { pid: number; connected: boolean; writable: boolean; at: string; error?: string };

/** How often the bot beats, and how old a beat `npm run health` still accepts. */
export const BEAT_MS = 10_000;
export const STALE_MS = 45_000;

/**
 * Writes the bot's state every BEAT_MS: connected to Discord, and the ledger writable (a write
 * transaction opened and closed, through the ledger's own queue). `npm run health` reads it, for
 * Docker's HEALTHCHECK and systemd.
 */
export function startHeartbeat(file: string, ledger: Pick<LedgerStore, 'transaction'>, connected: () => boolean): { stop(): void; beat(): Promise<void> } {
  const beat = async () => {
    let writable = false;
    let error: string | undefined;
    try {
      await ledger.transaction(async () => undefined);
      writable = true;
    } catch (err) {
      error = (err as Error).message;
    }
    const state: Heartbeat = { pid: process.pid, connected: connected(), writable, at: new Date().toISOString(), ...(error ? { error } : {}) };
    try {
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(state));
      fs.renameSync(`${file}.tmp`, file);
    } catch {
      // A heartbeat that cannot be written is a failed health check by itself: nothing else to do.
    }
  };
  const timer = setInterval(() => void beat(), BEAT_MS);
  timer.unref();
  return {
    beat,
    stop() {
      clearInterval(timer);
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // already gone
      }
    },
  };
}

/** Why the heartbeat in `file` is not healthy (as of `now`), or undefined when it is. */
export function unhealthy(file: string, now = Date.now()): string | undefined {
  let beat: Heartbeat;
  try {
    beat = JSON.parse(fs.readFileSync(file, 'utf8')) as Heartbeat;
  } catch {
    return `no heartbeat at ${file}: the bot is not running (or not with this DATABASE_PATH)`;
  }
  const age = now - Date.parse(beat.at);
  if (!(age <= STALE_MS)) return `the last heartbeat is ${Math.round(age / 1000)} s old: the bot is stuck or gone`;
  try {
    process.kill(beat.pid, 0);
  } catch {
    return `the process ${beat.pid} that wrote the heartbeat is gone`;
  }
  if (!beat.connected) return 'the bot is not connected to Discord';
  if (!beat.writable) return `the ledger is not writable: ${beat.error ?? 'unknown error'}`;
  return undefined;
}
