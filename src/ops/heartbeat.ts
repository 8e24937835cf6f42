import fs from 'node:fs';
import path from 'node:path';
import type { Readiness } from './readiness.js';

/**
 * Where a bot process beats: HEALTH_FILE, or `health.json` in the data directory (DATABASE_PATH's
 * folder, on both backends); one file per shard when sharded (discord.js sets SHARDS to the shard's
 * id list, "[0]").
 */
export const healthFileFor = (dataDir: string, explicit?: string, shards?: string) => {
  const base = explicit ?? path.join(dataDir, 'health.json');
  const id = shards ? /\d+/.exec(shards)?.[0] : undefined;
  return id === undefined ? base : base.replace(/(\.json)?$/, `.shard-${id}$1`);
};

export type Heartbeat = Readiness & { pid: number; at: string };

/** How often the bot beats, and how old a beat `npm run health` still accepts. */
export const BEAT_MS = 10_000;
export const STALE_MS = 45_000;

/**
 * Writes the bot's readiness every BEAT_MS (serving in its mode, and the ledger writable): `npm run
 * health` reads it, for Docker's HEALTHCHECK and systemd. Written owner-only, like every file the bot makes.
 */
export function startHeartbeat(file: string, check: () => Promise<Readiness>): { stop(): void; beat(): Promise<void> } {
  const beat = async () => {
    const state: Heartbeat = { pid: process.pid, at: new Date().toISOString(), ...(await check()) };
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
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
    return `no heartbeat at ${file}: the bot is not running (or not with this HEALTH_FILE or DATABASE_PATH)`;
  }
  const age = now - Date.parse(beat.at);
  if (!(age <= STALE_MS)) return `the last heartbeat is ${Math.round(age / 1000)} s old: the bot is stuck or gone`;
  try {
    process.kill(beat.pid, 0);
  } catch {
    return `the process ${beat.pid} that wrote the heartbeat is gone`;
  }
  return beat.ready ? undefined : (beat.reason ?? 'not ready');
}
