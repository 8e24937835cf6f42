import type { ChildProcess } from 'node:child_process';
import { REST } from '@discordjs/rest';
import { Routes, type Shard, ShardingManager } from 'discord.js';
import type { Logger } from '../log.js';

export type ShardSetting = 'auto' | number;

/** Discord spaces identifies 5 s apart unless the app may start more at once (session_start_limit). */
export const SHARD_SPAWN_DELAY_MS = 5_500;

/** How many shards to run: the number given, or for `auto` the count Discord recommends (GET /gateway/bot). */
export async function shardCount(setting: ShardSetting, token: string, apiBase?: string): Promise<number> {
  if (setting !== 'auto') return setting;
  const rest = new REST({ version: '10', ...(apiBase ? { api: apiBase } : {}) }).setToken(token);
  const info = (await rest.get(Routes.gatewayBot())) as { shards: number };
  return info.shards;
}

export type Shards = { count: number; stop(): Promise<void>; ready(): { shard: number; ready: boolean }[] };

/**
 * Runs the bot as `count` shard processes (discord.js's ShardingManager), each the same entry point
 * with its share of the guilds; a shard that dies is started again. Every shard opens the same
 * ledger: SQLite serialises their writes (WAL, IMMEDIATE transactions, one chain head per guild).
 * `stop` sends each shard SIGTERM, so each one closes as a single bot does, and waits for them all.
 */
export async function startShards(o: { file: string; token: string; count: number; log: Logger; spawnDelayMs?: number }): Promise<Shards> {
  const manager = new ShardingManager(o.file, { token: o.token, totalShards: o.count, mode: 'process', respawn: true, execArgv: process.execArgv });
  manager.on('shardCreate', (shard) => logShard(shard, manager, o));
  await manager.spawn({ amount: o.count, delay: o.spawnDelayMs ?? SHARD_SPAWN_DELAY_MS, timeout: 60_000 });
  return {
    count: o.count,
    ready: () => [...manager.shards.values()].map((s) => ({ shard: s.id, ready: s.ready })),
    async stop() {
      manager.respawn = false;
      await Promise.all(
        [...manager.shards.values()].map((shard) => {
          const child = shard.process as ChildProcess | null;
          if (!child || child.exitCode !== null) return undefined;
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          child.kill('SIGTERM');
          return exited;
        }),
      );
    },
  };
}

/** A shard's life as the manager sees it: start and ready at info; a drop, a reconnect or a death at warn. */
function logShard(shard: Shard, manager: ShardingManager, o: { count: number; log: Logger }): void {
  o.log.info('shard starting', { shard: shard.id, of: o.count });
  shard.on('ready', () => o.log.info('shard ready', { shard: shard.id }));
  shard.on('resume', () => o.log.info('shard resumed', { shard: shard.id }));
  shard.on('disconnect', () => o.log.warn('shard disconnected', { shard: shard.id }));
  shard.on('reconnecting', () => o.log.warn('shard reconnecting', { shard: shard.id }));
  shard.on('death', () => {
    if (manager.respawn) o.log.warn('shard exited: starting it again', { shard: shard.id });
  });
}
