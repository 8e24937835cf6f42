import fs from 'node:fs';
import path from 'node:path';
import { createRouter } from '../src/app.js';
import type { Request, Router } from '../src/core/router.js';
import { Ledger } from '../src/ledger/ledger.js';
import { PgStore } from '../src/ledger/postgres/pg-store.js';
import { createLogger } from '../src/log.js';
import { slashCommand } from '../tests/e2e/fake-discord.js';
import { fakeDiscordKey, type FakeDiscordKey } from '../tests/helpers/beacon-game.js';
import { freshDatabase } from '../tests/helpers/postgres.js';
import { benchPostgres } from './postgres.js';
import { fmt, type Line } from './repeat.js';

/** Discord's request for a /dr in the shape it sends (member, channel, locale, permissions…), signed: what the bot keeps. */
function signedDr(key: FakeDiscordKey, i: number): Request & { type: 'command' } {
  const member = { id: `30000000000000${String(i % 50).padStart(4, '0')}`, username: `player${i % 50}` };
  const body = slashCommand('dr', { note: `attack ${i}` }, { guildId: '900000000000000077', member });
  const actor = { guildId: '900000000000000077', channelId: body.channel_id, userId: member.id, userName: member.username, isGm: false };
  return {
    type: 'command',
    name: 'dr',
    options: { note: `attack ${i}` },
    actor,
    interactionId: body.id,
    evidence: key.signBody(JSON.stringify(body), Date.now()),
  };
}

type Store = { router: Router; size: () => Promise<number>; close: () => Promise<void> };

/** Bytes the ledger grows by per /dr over `n` rolls, with or without Discord's signed request kept beside each. */
async function perRoll(open: () => Promise<Store>, n: number, keep: boolean): Promise<number> {
  const s = await open();
  const key = fakeDiscordKey();
  try {
    const before = await s.size();
    for (let i = 0; i < n; i++) {
      const { evidence, ...bare } = signedDr(key, i);
      const reply = await s.router.handle(keep ? { ...bare, evidence } : bare);
      if (reply.type !== 'message') throw new Error(`a storage bench roll failed: ${JSON.stringify(reply)}`);
    }
    return ((await s.size()) - before) / n;
  } finally {
    await s.close();
  }
}

const log = createLogger({ level: 'silent' });

/** A SQLite file; its size with the WAL folded in. */
function sqlite(dir: string, name: string) {
  return async (): Promise<Store> => {
    const file = path.join(dir, name);
    const ledger = Ledger.open(file);
    return {
      router: createRouter({ ledger, log }),
      size: async () => {
        ledger.db.pragma('wal_checkpoint(TRUNCATE)');
        return fs.statSync(file).size;
      },
      close: async () => ledger.close(),
    };
  };
}

/** A fresh PostgreSQL database; its size on disk. */
function postgres(url: () => Promise<string>) {
  return async (): Promise<Store> => {
    const store = await PgStore.connect(await url());
    return {
      router: createRouter({ ledger: store, log }),
      size: async () => Number((await store.ledger.pool.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n),
      close: () => store.close(),
    };
  };
}

const line = (backend: string, n: number, kept: number, bare: number): Line => ({
  what: `ledger bytes a /dr adds with Discord's signed request kept (${backend}, ${fmt(n)} rolls)`,
  ours: `the request adds ${fmt(kept - bare)} bytes a roll (deflated): ${fmt(kept)} in all`,
  baseline: `${fmt(bare)} bytes a roll: the same rolls without it (gateway mode)`,
  ratio: kept / bare,
  spread: 'one run: sizes do not vary',
  // What the evidence costs is the target; the row itself costs what it cost before (PostgreSQL's tuples and indexes are larger).
  target: 'evidence ≤ 2 KiB a roll',
  met: kept - bare <= 2048,
});

/** The storage lines: what keeping evidence costs a roll on disk, SQLite and PostgreSQL. */
export async function evidenceLines(quick: boolean, dir: string): Promise<Line[]> {
  const n = quick ? 300 : 2000;
  const lines = [line('SQLite', n, await perRoll(sqlite(dir, 'kept.db'), n, true), await perRoll(sqlite(dir, 'bare.db'), n, false))];
  const server = await benchPostgres();
  if (!server) return lines;
  const url = () => freshDatabase(server);
  lines.push(line('PostgreSQL', n, await perRoll(postgres(url), n, true), await perRoll(postgres(url), n, false)));
  return lines;
}
