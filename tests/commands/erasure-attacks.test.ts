import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import { exportLedger } from '../../src/core/export-files.js';
import { erasePerson } from '../../src/core/privacy.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import { keyedPlayerDie } from '../../src/dice/seeded.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { alice, expectMessage, gm, testApp, type TestApp } from '../helpers/app.js';

// What a host with the database might try once rows commit to person fields, each caught by every
// verifier; and what an ordinary erasure must not break (a member whose name is also a rules word).

let app: TestApp | undefined;
afterEach(() => {
  app?.ledger.close();
  app = undefined;
});

/** The game dice from the seed (the verifiers recompute them); other dice pinned. */
function seeded() {
  app = testApp();
  const router = createRouter({ ledger: app.ledger, log: app.log, roller: app.dice });
  const run = (actor: Actor, name: string, options: Record<string, unknown> = {}, sub?: string): Promise<Reply> =>
    router.handle({ type: 'command', name, options, actor, ...(sub ? { subcommand: sub } : {}) } as Parameters<typeof router.handle>[0]);
  return { app, run };
}

/** /verify in the bot and the offline verifier over a new export: both verdicts and their lines. */
async function bothVerdicts(t: TestApp) {
  const store = sqliteStore(t.ledger);
  const inBot = await verifyLedger(store, 'g1');
  const file = await exportLedger(store, { filter: { guildId: 'g1', kinds: 'all' }, limit: 1 << 22, stamp: 'x', now: Date.now() + 16 * 60_000 });
  if (!file.ok) throw new Error('the export did not fit');
  const offline = verifyExport(fs.readFileSync(file.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8'));
  return {
    bot: {
      ok: inBot.chain.ok && inBot.promises.ok && inBot.payloads.ok,
      lines: [...inBot.promises.lines, ...inBot.payloads.lines].join('\n'),
      chain: inBot.chain,
    },
    offline: { ok: offline.ok, lines: offline.lines.join('\n') },
  };
}

describe('a host with the database', () => {
  it('cannot give a player a key of its choosing to start their dice again where it likes', async () => {
    const { app: t, run } = seeded();
    expectMessage(await run(gm, 'game', { system: 'asl', name: 'G' }, 'start'));
    const db = t.ledger.db;
    const g = db.prepare('SELECT id, server_seed, player_seeds FROM games').get() as { id: string; server_seed: string; player_seeds: string };
    const seeds = JSON.parse(g.player_seeds) as string[];
    // Before each of Alice's rolls, a salt id whose first d20 is a 20, given her as if new.
    for (let i = 0; i < 3; i++) {
      let id: string;
      do id = randomBytes(12).toString('hex');
      while (keyedPlayerDie(g.server_seed, g.id, seeds, id, 1, 0, 20) !== 20);
      db.prepare("UPDATE people SET user_id = user_id || '-old-' || salt_id WHERE user_id = 'alice'").run();
      db.prepare("INSERT INTO people (guild_id, user_id, salt_id, salt, created_at) VALUES ('g1', 'alice', ?, ?, ?)").run(
        id,
        randomBytes(32).toString('hex'),
        'T',
      );
      db.prepare("DELETE FROM player_roll_counts WHERE user_id = 'alice'").run();
      expectMessage(await run(alice, 'roll', { expression: '1d20' }, 'dice'));
    }
    expectMessage(await run(gm, 'game', {}, 'end'));
    const v = await bothVerdicts(t);
    for (const door of [v.bot, v.offline]) {
      expect(door.ok).toBe(false);
      expect(door.lines).toMatch(/its player rolled under key [0-9a-f]{24} before, and now under [0-9a-f]{24}: a key given anew starts their dice again/);
    }
  });

  it('cannot hide a value behind a copy of its commitment, nor undo part of an erasure', async () => {
    const { app: t, run } = seeded();
    t.dice.push(3, 4);
    expectMessage(await run(alice, 'dr', { note: 'Alice aims at the bridge' }));
    const db = t.ledger.db;
    const row = db.prepare("SELECT id, input, chained FROM rolls WHERE command = 'dr'").get() as { id: string; input: string; chained: string };
    const note = (JSON.parse(t.ledger.get('g1', row.id)!.chained!) as { input: { note: unknown } }).input.note;
    db.exec('DROP TRIGGER rolls_no_update');
    const input = JSON.parse(row.input) as Record<string, unknown>;
    db.prepare('UPDATE rolls SET input = ? WHERE id = ?').run(JSON.stringify({ ...input, note }), row.id);
    expect(t.ledger.verify('g1')).toMatchObject({ ok: false, broken: { id: row.id, reason: 'hash does not match the row contents: the row was edited' } });
    db.prepare('UPDATE rolls SET input = ? WHERE id = ?').run(row.input, row.id);
    // Erased, then her salt put back: the erasure row names it, so it was undone in part.
    const salt = db.prepare("SELECT * FROM people WHERE user_id = 'alice'").get() as Record<string, string>;
    await erasePerson(sqliteStore(t.ledger), 'alice');
    db.prepare('INSERT INTO people (guild_id, user_id, salt_id, salt, created_at) VALUES (?, ?, ?, ?, ?)').run(
      salt.guild_id,
      'someone',
      salt.salt_id,
      salt.salt,
      salt.created_at,
    );
    const v = await bothVerdicts(t);
    for (const door of [v.bot, v.offline]) {
      expect(door.ok).toBe(false);
      expect(door.lines).toContain(`an erasure row names salt ${salt.salt_id} as erased, but it is still held: the erasure was undone in part`);
    }
  });

  it('cannot slip a second key into a row by appending it to a column: the walk names the edit', async () => {
    const { app: t, run } = seeded();
    t.dice.push(3, 4);
    expectMessage(await run(alice, 'dr', {}));
    const db = t.ledger.db;
    db.exec('DROP TRIGGER rolls_no_update');
    const row = db.prepare("SELECT id, input FROM rolls WHERE command = 'dr'").get() as { id: string; input: string };
    // The input's text closes its object and adds the row's own `dice` again, after the real one: a reader keeping the last takes it.
    db.prepare('UPDATE rolls SET dice = ?, input = ? WHERE id = ?').run('[6,6]', `${row.input},"dice":[3,4]`, row.id);
    expect(t.ledger.verify('g1')).toMatchObject({ ok: false, broken: { id: row.id } });
  });
});

describe('an ordinary erasure of a member whose name is a rules word', () => {
  it('leaves a dice expression, a pack option and a sealed pack roll checkable', async () => {
    const { app: t, run } = seeded();
    const named = (userName: string): Actor => ({ ...alice, userId: `u-${userName}`, userName });
    expectMessage(await run(gm, 'pack', { example: 'bolt-action-order' }, 'install'));
    expectMessage(await run(gm, 'game', { system: 'asl', name: 'Words' }, 'start'));
    expectMessage(await run(named('d20'), 'roll', { expression: '1d20 + 5' }, 'dice'));
    t.dice.push(3, 4);
    expectMessage(await run(named('captain'), 'bolt-action-order', { morale: 7, officer: 'captain' }));
    t.dice.push(2, 2);
    const sealed = expectMessage(await run(named('second_lt'), 'bolt-action-order', { morale: 7, officer: 'second_lt', sealed: true }));
    expectMessage(await run(gm, 'reveal', { id: sealed.record!.roll_id }));
    expectMessage(await run(gm, 'game', {}, 'end'));
    for (const who of ['d20', 'captain', 'second_lt']) await erasePerson(sqliteStore(t.ledger), `u-${who}`);
    const v = await bothVerdicts(t);
    expect([v.bot.ok, v.offline.ok], `${v.bot.lines}\n${v.offline.lines}`).toEqual([true, true]);
    expect(v.offline.lines).toContain('pack rolls: 2 re-adjudicated from their dice, input and pack row; all hold');
    expect(v.offline.lines).toMatch(/all 1 rolls' dice recomputed and equal/);
  });
});

describe('a host with the database, against rows that store only their commitments', () => {
  /** Alice's /dr with a note naming her, and the row as stored. */
  async function drRow() {
    const { app: t, run } = seeded();
    t.dice.push(3, 4, 2, 2);
    expectMessage(await run(alice, 'dr', { note: 'Alice aims at the bridge' }));
    expectMessage(await run(alice, 'dr', { note: 'again' }));
    const db = t.ledger.db;
    db.exec('DROP TRIGGER rolls_no_update');
    const row = db.prepare("SELECT * FROM rolls WHERE command = 'dr' ORDER BY seq LIMIT 1").get() as Record<string, string>;
    expect(row.chained!.startsWith('[[')).toBe(true);
    return { t, run, db, row, set: (column: string, text: string) => db.prepare(`UPDATE rolls SET ${column} = ? WHERE id = ?`).run(text, row.id) };
  }
  const edited = { ok: false, broken: { reason: 'hash does not match the row contents: the row was edited' } };

  it.each([
    ['a salt id that is no string', (c: string) => c.replace(/"by":\["[0-9a-f]+"\]/, '"by":[1e400]')],
    ['a lone surrogate for a salt id', (c: string) => c.replace(/"by":\["[0-9a-f]+"\]/, '"by":["\\ud800"]')],
    ['a path 20,000 steps deep', (c: string) => c.replace('["input","note"]', JSON.stringify(['input', ...Array(20_000).fill('a')]))],
    ['salt ids that are no JSON', (c: string) => c.replace(/"by":\["[0-9a-f]+"\]/, '"by":[x]')],
    ['a path through __proto__', (c: string) => c.replace('["input","note"]', '["__proto__","toString"]')],
    ["a path to a list's length", (c: string) => c.replace('["input","note"]', '["outcome","steps","length"]')],
  ])('an overlay holding %s: every command reads the row as edited, and an erasure still takes her values', async (_what, edit) => {
    const { t, run, row, set } = await drRow();
    set('chained', edit(row.chained!));
    expect(t.ledger.verify('g1')).toMatchObject({ ...edited, broken: { ...edited.broken, id: row.id } });
    expect(await t.ledger.verifyInChunks('g1')).toMatchObject({ ...edited, broken: { ...edited.broken, id: row.id } });
    expect(expectMessage(await run(gm, 'verify')).embed.title).toBe('Ledger broken');
    expectMessage(await run(gm, 'roll', { id: row.id }, 'show'));
    expectMessage(await run(gm, 'history', { scope: 'server' }));
    expectMessage(await run(gm, 'export'));
    await erasePerson(sqliteStore(t.ledger), 'alice');
    const after = t.ledger.db.prepare('SELECT user_id, user_name, input FROM rolls WHERE id = ?').get(row.id) as Record<string, string>;
    expect([after.user_id, after.user_name, after.input]).toEqual(['', '', expect.not.stringContaining('Alice')]);
  });

  it('cannot hide a value behind a copy of its commitment taken out of the overlay', async () => {
    const { t, row, set } = await drRow();
    const entries = JSON.parse(row.chained!) as [unknown[], unknown][];
    const note = entries.find(([path]) => JSON.stringify(path) === '["input","note"]')!;
    set('chained', JSON.stringify(entries.filter((e) => e !== note)));
    set('input', JSON.stringify({ ...JSON.parse(row.input!), note: note[1] }));
    expect(t.ledger.verify('g1')).toMatchObject({ ...edited, broken: { ...edited.broken, id: row.id } });
    expect(await t.ledger.verifyInChunks('g1')).toMatchObject({ ...edited, broken: { ...edited.broken, id: row.id } });
    const v = await bothVerdicts(t);
    expect(v.bot.chain).toMatchObject({ ok: false, broken: { id: row.id } });
    expect(v.offline.ok).toBe(false);
  });

  it('a value no commitment can be made of, in place of a committed one: both verifiers name the edit', async () => {
    const { t, row, set } = await drRow();
    set('input', row.input!.replace('"Alice aims at the bridge"', '"\\ud800"'));
    const v = await bothVerdicts(t);
    expect(v.bot.chain).toMatchObject({ ...edited, broken: { ...edited.broken, id: row.id } });
    expect(v.offline.ok).toBe(false);
  });

  it('erases the values of a row edited so that its commitments no longer fit it', async () => {
    const { t, row, set } = await drRow();
    set('input', '{"note":"Alice aims at the bridge"');
    await erasePerson(sqliteStore(t.ledger), 'alice');
    const after = t.ledger.db.prepare('SELECT user_id, user_name, unit FROM rolls WHERE id = ?').get(row.id);
    expect(after).toEqual({ user_id: '', user_name: '', unit: null });
  });
});
