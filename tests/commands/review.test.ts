import fs from 'node:fs';
import path from 'node:path';
import { writeExport } from '../../src/core/export-files.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachmentData, type Actor, type Reply } from '../../src/core/command.js';
import { Spool } from '../../src/util/spool.js';
import { MessageLinks } from '../../src/core/message-links.js';
import { Responder, type TransportInteraction } from '../../src/core/responder.js';
import { toCsv, type ExportRow } from '../../src/render/export.js';
import { alice, bob, command, expectError, expectMessage, fillRolls, gm, press, subcommand, testApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.ledger.close());

const sub = (actor: Actor, name: string, subcommand: string, options: Record<string, unknown> = {}) =>
  app.router.handle({ type: 'command', name, subcommand, options, actor });
const other: Actor = { ...gm, guildId: 'g2', channelId: 'c1' };

async function rallies(n: number, actor: Actor = alice) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    app.dice.push(5);
    ids.push(expectMessage(await command(app, actor, 'rally', { disorder: 1, unit: `Unit ${i}` })).record!.roll_id);
  }
  return ids;
}

describe('GM-only actions check permissions server-side', () => {
  it.each([
    ['void', { id: 'x', reason: 'r' }, 'void a roll'],
    ['annotate', { id: 'x', note: 'n' }, 'annotate a roll'],
    ['export', {}, 'export the ledger'],
    ['history', { scope: 'server' }, "see the whole server's history"],
    ['stats', { scope: 'server' }, "see the whole server's statistics"],
  ])('/%s is refused to a player', async (name, options, what) => {
    app = testApp();
    expect(expectError(await command(app, alice, name, options))).toBe(`Only a GM (Manage Server, or the GM role set with /config gm-role) can ${what}.`);
  });

  it.each([
    ['gm-role', { role: '555' }],
    ['gm-channel', { channel: '666' }],
  ])('/config %s is refused to a player', async (s, options) => {
    app = testApp();
    expect(expectError(await sub(alice, 'config', s, options))).toContain('can change the settings');
  });

  it('a member with the configured GM role becomes a GM, and only then', async () => {
    app = testApp();
    const member = { ...bob, roleIds: ['555'] };
    expect(expectError(await command(app, member, 'export', {}))).toContain('Only a GM');
    expectMessage(await sub(gm, 'config', 'gm-role', { role: '555' }));
    expect(expectMessage(await command(app, member, 'export', {})).embed.title).toBe('Ledger export');
    expect(expectError(await command(app, { ...member, guildId: 'g2' }, 'export', {}))).toContain('Only a GM');
  });
});

describe('/history', () => {
  it('newest first, 10 a page, paged by buttons only the requester may press', async () => {
    app = testApp();
    await rallies(12);
    const first = expectMessage(await command(app, alice, 'history', {}));
    const lines = first.embed.description!.split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toContain('Unit 11');
    expect(lines[0]).toMatch(/^<t:\d{10}:f> <@alice> \/rally · Unit 11 · \*\*Rally\*\* · `[0-9a-z]{10}`$/);
    expect(first.embed.footer!.text).toBe('this channel · page 1 of 2 · 12 rolls · newest first');
    const next = first.buttons[0]!;
    expect(expectError(await press(app, bob, next.custom_id))).toContain('Only the player who asked for this history can page it');
    const second = expectMessage(await press(app, alice, next.custom_id));
    expect(second.embed.description!.split('\n')).toHaveLength(2);
    expect(expectError(await press(app, { ...alice, guildId: 'g2' }, next.custom_id))).toBe('That history page is not on record in this server.');
  });

  it('filters by user, command, result, and time; bad dates are named', async () => {
    app = testApp();
    await rallies(2, alice);
    await rallies(1, bob);
    expect(expectMessage(await command(app, alice, 'history', { user: 'bob' })).embed.description!.split('\n')).toHaveLength(1);
    expect(expectMessage(await command(app, alice, 'history', { command: '/rally', result: 'rally', since: '1h' })).embed.footer!.text).toContain('3 rolls');
    expect(expectMessage(await command(app, alice, 'history', { until: '2001-01-01' })).embed.description).toBe('No rolls match.');
    expect(expectError(await command(app, alice, 'history', { since: 'yesterday' }))).toBe(
      '`since` "yesterday": use a date (2026-11-29), a time (2026-11-29T18:00Z) or a span back from now (30m, 2h, 3d, 1w).',
    );
  });

  // Each filter is checked on data it filters (with and without it), game and system too.
  it('each filter keeps exactly the rows it names', async () => {
    app = testApp();
    const count = async (filters: Record<string, unknown>) => {
      const footer = expectMessage(await command(app, alice, 'history', filters)).embed.footer!.text;
      return footer.includes('page 1 of 1 · 0 rolls') ? 0 : Number(/· (\d+) rolls? ·/.exec(footer)![1]);
    };
    app.dice.push(6);
    const rallied = expectMessage(await command(app, alice, 'rally', { disorder: 1, unit: 'A' })).record!;
    app.dice.push(1);
    const retreated = expectMessage(await command(app, alice, 'rally', { disorder: 2, unit: 'B' })).record!;
    expect(rallied.result).not.toBe(retreated.result);
    app.dice.push(3, 3, 3);
    const morale = expectMessage(await command(app, bob, 'morale', { morale: 'professional', unit: 'C' })).record!;
    expect(morale.system).toBe('lightning-war');
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Filtered' }));
    const game = app.ledger.roster.activeGame('g1', 'c1')!;
    app.dice.push(6);
    expectMessage(await command(app, alice, 'rally', { disorder: 1, unit: 'D' }));
    const rolls = 4;
    expect(await count({})).toBe(rolls);
    expect(await count({ user: 'bob' })).toBe(1);
    expect(await count({ user: 'alice' })).toBe(3);
    expect(await count({ command: 'morale' })).toBe(1);
    expect(await count({ command: '/rally' })).toBe(3);
    expect(await count({ result: retreated.result })).toBe(1);
    expect(await count({ system: 'lightning-war' })).toBe(1);
    expect(await count({ system: 'hearts-of-tin' })).toBe(3);
    expect(await count({ game: game.id })).toBe(1);
    // Typed by its name, in any case, the game is found (it used to say "0 rolls", silently).
    expect(await count({ game: 'filtered' })).toBe(1);
    expect(await count({ since: '2099-01-01' })).toBe(0);
    expect(await count({ since: '1h' })).toBe(rolls);
    expect(await count({ until: '2001-01-01' })).toBe(0);
    expect(await count({ user: 'alice', system: 'hearts-of-tin', result: rallied.result })).toBe(2);
  });

  it('a game filter that names no game, or two, is refused saying which — /history, /stats and /export alike', async () => {
    app = testApp();
    for (const channel of ['c1', 'c2']) {
      expectMessage(await subcommand(app, { ...alice, channelId: channel }, 'game', 'start', { system: 'hearts-of-tin', name: 'Bar' }));
    }
    const [newer, older] = app.ledger.roster.recentGames('g1', undefined, 2);
    const twice = `2 games of this server are named "Bar": Bar (\`${newer!.id}\`, started ${newer!.started_at.slice(0, 10)}), Bar (\`${older!.id}\`, started ${older!.started_at.slice(0, 10)}). Give \`game\` the id of the one you mean.`;
    const none = 'There is no game "Baz" in this server, by id or by name: pick one from the list `game` offers as you type.';
    for (const [name, actor] of [
      ['history', alice],
      ['stats', alice],
      ['export', gm],
    ] as const) {
      expect(expectError(await command(app, actor, name, { game: 'Bar' })), name).toBe(twice);
      expect(expectError(await command(app, actor, name, { game: 'Baz' })), name).toBe(none);
    }
    expect(expectMessage(await command(app, alice, 'stats', { game: older!.id })).embed.description).toContain('0 rolls on record');
  });

  // A sealed roll counts in /stats only once revealed, for
  // everyone (the aggregates hold public results only); a void takes a roll out again.
  it('/stats counts a sealed roll only once revealed, for players and GMs alike, and a voided one never', async () => {
    app = testApp();
    await rallies(1, alice);
    const stats = async (actor: Actor) => expectMessage(await command(app, actor, 'stats', {})).embed.description!;
    const before = await stats(bob);
    expect(before).toContain('1 roll on record · this channel\n\n**1d6** — 1 roll, mean 5.00 (exact 3.50); too few rolls to tell (1 of 39 needed)');
    app.dice.push(2);
    const sealed = expectMessage(await command(app, alice, 'rally', { disorder: 1, unit: 'Hidden', sealed: true })).record!;
    for (const who of [bob, alice, gm]) expect(await stats(who)).toBe(before);
    expectMessage(await command(app, alice, 'reveal', { id: sealed.roll_id }));
    expect(await stats(bob)).toContain('**1d6** — 2 rolls, mean 3.50 (exact 3.50)');
    expectMessage(await command(app, gm, 'void', { id: sealed.roll_id, reason: 'wrong unit' }));
    expect(await stats(bob)).toBe(before);
  });

  it('players see this channel; a GM may see the server; voided rolls stay, struck through with the reason', async () => {
    app = testApp();
    const [id] = await rallies(1);
    await rallies(1, { ...alice, channelId: 'c2' });
    expect(expectMessage(await command(app, bob, 'history', {})).embed.footer!.text).toContain('1 roll ');
    expect(expectMessage(await command(app, gm, 'history', { scope: 'server' })).embed.footer!.text).toContain('2 rolls');
    expectMessage(await command(app, gm, 'void', { id, reason: 'wrong unit' }));
    const line = expectMessage(await command(app, bob, 'history', {})).embed.description!;
    expect(line).toMatch(/^~~.*~~ \*\(void: wrong unit\)\*$/);
    expect(expectError(await command(app, gm, 'void', { id, reason: 'again' }))).toBe(`Roll ${id} is already void.`);
    expect(app.ledger.get('g1', id!)!.result).toBe('rally');
  });
});

describe('/roll show, /annotate, /verify', () => {
  it('shows one roll in full with its linked rows and hash', async () => {
    app = testApp();
    app.dice.push(2);
    const first = expectMessage(await command(app, alice, 'rally', { disorder: 2, commander_near: true }));
    app.dice.push(5);
    await press(app, alice, first.buttons[0]!.custom_id);
    await command(app, gm, 'annotate', { id: first.record!.roll_id, note: 'table bumped' });
    const shown = expectMessage(await sub(bob, 'roll', 'show', { id: first.record!.roll_id }));
    const text = JSON.stringify(shown.embed);
    const row = app.ledger.get('g1', first.record!.roll_id)!;
    expect(text).toContain(row.hash);
    expect(text).toContain('Step: Rally');
    // Who, by mention: a display name alone can be copied by another member.
    expect(text).toContain('Re-roll · Rally by <@alice>');
    expect(text).toContain('Annotation · Annotated by <@gm>: table bumped');
    // A mark is no roll: voiding it, or asking its receipt, says what it is (with the article as said).
    const note = app.ledger.db.prepare("SELECT id FROM rolls WHERE kind = 'annotation'").get() as { id: string };
    expect(expectError(await command(app, gm, 'void', { id: note.id, reason: 'x' }))).toBe(
      `${note.id} is an annotation row, not a roll: only rolls and rulings can be voided.`,
    );
    expect(expectError(await sub(gm, 'roll', 'receipt', { id: note.id }))).toBe(
      `${note.id} is an annotation row, not a roll or a ruling: ask for the receipt of the roll it marks.`,
    );
  });

  it('/verify reports intact with the count and head hash, or the first broken row', async () => {
    app = testApp();
    const ids = await rallies(3);
    const ok = expectMessage(await command(app, bob, 'verify', {}));
    expect(ok.embed.description).toBe(
      `Intact: 3 rows, head hash \`${app.ledger.get('g1', ids[2]!)!.hash}\`. Also checked: no sealed roll or ended game yet; the dice report's totals match the 3 rolls it counts.`,
    );
    expect(expectMessage(await command(app, bob, 'verify', { id: ids[0] })).embed.description).toContain('Intact: 1 row up to');
    app.ledger.db.exec('DROP TRIGGER rolls_no_update');
    app.ledger.db.prepare("UPDATE rolls SET result = 'huzzah' WHERE id = ?").run(ids[1]);
    expect(expectMessage(await command(app, bob, 'verify', {})).embed.description).toBe(
      `The chain breaks at row ${ids[1]} (position 2): hash does not match the row contents: the row was edited. The 1 row before it hold.`,
    );
  });
});

describe('a row whose stored values were edited outside the bot', () => {
  // Text that does not parse, and JSON of a shape the bot never writes in that column.
  const edits = ['{not json', 'null', '7', '"x"', '[]', '{}'].flatMap((text) =>
    (['input', 'dice', 'outcome'] as const).map((column) => [column, text] as const),
  );
  const intact = (column: string, text: string) => (column === 'dice' ? text === '[]' : text === '{}');
  it.each(edits)('%s set to %s: /verify names the break; /history, /roll show, /stats and /export go on', async (column, text) => {
    app = testApp();
    const ids = await rallies(3);
    app.ledger.db.exec('DROP TRIGGER rolls_no_update');
    app.ledger.db.prepare(`UPDATE rolls SET ${column} = ? WHERE id = ?`).run(text, ids[1]);
    for (const options of [{}, { id: ids[2] }]) {
      expect(expectMessage(await command(app, gm, 'verify', options)).embed.description).toBe(
        `The chain breaks at row ${ids[1]} (position 2): hash does not match the row contents: the row was edited. The 1 row before it hold.`,
      );
    }
    expect(expectMessage(await command(app, gm, 'history', {})).embed.description).toContain(`\`${ids[1]}\``);
    const ledger = expectMessage(await sub(gm, 'roll', 'show', { id: ids[1] })).embed.fields!.at(-1)!.value;
    const marked = 'This row holds values the bot never writes: it was edited outside the bot. /verify names where the chain breaks.';
    if (intact(column, text)) expect(ledger).not.toContain(marked);
    else expect(ledger).toContain(marked);
    expectMessage(await command(app, gm, 'stats', {}));
    expect(expectMessage(await command(app, gm, 'export', {})).embed.description).toMatch(/^3 rows\./);
  });
});

describe('isolation between servers', () => {
  it('history, show, verify, export, stats and autocomplete never reach another server', async () => {
    app = testApp();
    const [id] = await rallies(1);
    expect(expectMessage(await command(app, other, 'history', { scope: 'server' })).embed.description).toBe('No rolls match.');
    expect(expectError(await sub(other, 'roll', 'show', { id }))).toBe(`There is no roll "${id}" in this server.`);
    expect(expectError(await command(app, other, 'verify', { id }))).toBe(`There is no roll "${id}" in this server.`);
    expect(expectMessage(await command(app, other, 'verify', {})).embed.description).toContain('Intact: 0 rows');
    expect(expectError(await command(app, other, 'void', { id, reason: 'x' }))).toBe(`There is no roll "${id}" in this server.`);
    const exported = expectMessage(await command(app, other, 'export', {}));
    // No row of another server; only the bot's receipt keys, which are public and the same for all.
    const lines = exported.type === 'message' ? attachmentData(exported.files![1]!).toString().trim().split('\n') : [];
    expect(lines.map((l) => Object.keys(JSON.parse(l)))).toEqual([['signing_key']]);
    expect(expectMessage(await command(app, other, 'stats', { scope: 'server' })).embed.description).toContain('0 rolls on record · whole server');
    expect(await app.router.handle({ type: 'autocomplete', name: 'rally', option: 'unit', value: '', actor: other })).toEqual({ type: 'choices', choices: [] });
  });
});

describe('/export', () => {
  it('CSV and JSON Lines with every field and hash', async () => {
    app = testApp();
    await rallies(2);
    const reply = expectMessage(await command(app, gm, 'export', {}));
    const [csv, jsonl] = reply.type === 'message' ? reply.files! : [];
    expect(csv!.name).toMatch(/^ledger-\d{4}-\d{2}-\d{2}\.csv$/);
    const header = attachmentData(csv!).toString().split('\n')[0];
    expect(header).toBe(
      'seq,id,guild_id,guild_seq,channel_id,user_id,user_name,game_id,turn,phase,game_seq,command,system,kind,unit,input,dice,outcome,result,parent_id,once_key,created_at,prev_hash,hash,message_id',
    );
    const rows = attachmentData(jsonl!)
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // The rows, then the receipt key the bot signs with.
    expect(rows).toHaveLength(3);
    expect(rows[1].prev_hash).toBe(rows[0].hash);
    expect(rows[2]).toEqual({
      signing_key: { fingerprint: app.signer.fingerprint, public_key: app.signer.publicKey, valid_from: expect.any(String), valid_until: null },
    });
  });

  it('CSV escapes commas, quotes and newlines, and neutralises formulas', () => {
    const row = {
      seq: 1,
      id: 'a',
      unit: '=HYPERLINK("http://x")',
      user_name: '+cmd',
      command: '-2',
      result: '@SUM(A1)',
      input: JSON.stringify({ note: 'a, "b"\nc' }),
    } as unknown as ExportRow;
    const csv = toCsv([row]);
    const line = csv.slice(csv.indexOf('\n') + 1);
    expect(line).toContain(`'=HYPERLINK(""http://x"")`);
    expect(line).toContain("'+cmd");
    expect(line).toContain("'-2");
    expect(line).toContain("'@SUM(A1)");
    expect(line).toContain('"{""note"":""a, \\""b\\""\\nc""}"');
  });
});

describe('/stats', () => {
  it('each shape against its exact distribution, with the verdict and a PNG', async () => {
    app = testApp();
    await rallies(6);
    const reply = expectMessage(await command(app, alice, 'stats', {}));
    expect(reply.embed.description).toBe(
      '6 rolls on record · this channel\n\n**1d6** — 6 rolls, mean 5.00 (exact 3.50); too few rolls to tell (6 of 39 needed)\n\n*Sealed rolls count once revealed; voided rolls never.*',
    );
    expect(reply.type === 'message' && attachmentData(reply.files![0]!).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('sealed rolls', () => {
  it('the public reply and the JSON summary carry no result; GMs get it; /reveal publishes it once', async () => {
    app = testApp();
    await sub(gm, 'config', 'gm-channel', { channel: 'gm-room' });
    app.dice.push(2);
    const reply = expectMessage(await command(app, alice, 'rally', { disorder: 2, sealed: true }));
    const publicPart = JSON.stringify({ embed: reply.embed, buttons: reply.buttons, record: reply.record });
    expect(publicPart).not.toMatch(/retreat|Retreat|Original|Final|⚁/);
    expect(reply.record).toMatchObject({ sealed: true, steps: [], result: null });
    expect(reply.type === 'message' && reply.private).toBeUndefined();
    expect(reply.type === 'message' && JSON.stringify(reply.notify)).toContain('**Retreat**');
    const id = reply.record!.roll_id;
    // Players other than the roller see "sealed" in history and no result in /roll show.
    expect(expectMessage(await command(app, bob, 'history', {})).embed.description).toContain('**sealed**');
    expect(JSON.stringify(expectMessage(await sub(bob, 'roll', 'show', { id })).embed)).not.toContain('retreat');
    expect(await app.router.handle({ type: 'autocomplete', name: 'rally', option: 'unit', value: '', actor: bob })).toEqual({ type: 'choices', choices: [] });
    expect(expectError(await command(app, bob, 'reveal', { id }))).toBe(`Only Alice, who rolled it, or a GM can reveal roll ${id}.`);
    const revealed = expectMessage(await command(app, alice, 'reveal', { id }));
    expect(JSON.stringify(revealed.embed)).toContain('**Retreat**');
    expect(revealed.embed.footer!.text).toContain('revealed by Alice');
    expect(expectError(await command(app, gm, 'reveal', { id }))).toBe(`Roll ${id} was already revealed.`);
    expect(expectMessage(await command(app, bob, 'history', {})).embed.description).toContain('**Retreat**');
  });

  it('a GM rolling sealed sees the result privately', async () => {
    app = testApp();
    app.dice.push(6);
    const reply = expectMessage(await command(app, gm, 'rally', { disorder: 1, sealed: true }));
    expect(reply.type === 'message' && JSON.stringify(reply.private)).toContain('**Rally**');
    expect(JSON.stringify(reply.embed)).not.toContain('Rally**');
  });
});

// /verify and /stats on a long ledger leave the event loop free, so the responder defers them.
describe('/verify and /stats on a long ledger', () => {
  const fill = (n: number) => {
    app = testApp();
    fillRolls(app, n);
  };
  const respond = async (name: string, deferAfterMs: number) => {
    const calls: string[] = [];
    let answer: Reply | undefined;
    const transport: TransportInteraction = {
      kind: 'command',
      actor: () => alice,
      installedByServer: () => true,
      request: (actor) => ({ type: 'command', name, options: {}, actor }),
      defer: async () => void calls.push('defer'),
      post: async () => undefined,
      deliver: async (reply, deferred) => {
        calls.push(deferred ? 'deliver (deferred)' : 'deliver');
        answer = reply;
        return undefined;
      },
    };
    await new Responder(app.router, new MessageLinks(app.ledger, app.log), app.log, deferAfterMs).respond(transport);
    return { calls, answer: expectMessage(answer!) };
  };

  it('/verify is deferred by the responder (its walk yields), then answers with the whole chain', async () => {
    fill(20_000);
    const { calls, answer } = await respond('verify', 5);
    expect(calls).toEqual(['defer', 'deliver (deferred)']);
    expect(answer.embed.description).toMatch(/^Intact: 20,000 rows, head hash/);
  }, 120_000);

  it('/stats sums the aggregates, never the rows: 6,000 rolls answered at once (no deferral), each face 1,000 times', async () => {
    fill(6_000);
    // The chart of a query is drawn once (off the thread keeps it a minute): the text is what is timed.
    await respond('stats', 60_000);
    const { calls, answer } = await respond('stats', 5);
    expect(calls).toEqual(['deliver']);
    // Every face 1,000 times: χ² = 0, so p = 1.
    expect(answer.embed.description).toContain('**1d6** — 6,000 rolls, mean 3.50 (exact 3.50); as fair as dice come (p = 1.00) (χ² = 0.00 on 5 df, p = 1.000)');
  }, 120_000);

  it('/export reads in chunks: one CSV header and every row across chunk edges, in ledger order', async () => {
    fill(2_500);
    const reply = await app.router.handle({ type: 'command', name: 'export', options: {}, actor: gm });
    expect(reply.type === 'message' && reply.embed.description).toMatch(/^2,500 rows\./);
    const files = reply.type === 'message' ? reply.files! : [];
    const csvLines = attachmentData(files[0]!).toString('utf8').trimEnd().split('\n');
    expect(csvLines).toHaveLength(2_501);
    expect(csvLines.filter((l) => l.startsWith('seq,id,'))).toHaveLength(1);
    const jsonl = attachmentData(files[1]!)
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { guild_seq: number })
      .filter((r) => !('signing_key' in r));
    expect(jsonl.map((r) => r.guild_seq)).toEqual(Array.from({ length: 2_500 }, (_, i) => i + 1));
  }, 120_000);

  it('verify.html rides inside the attachment limit: the files and the page together never pass it', async () => {
    fill(50);
    const all = await app.router.handle({ type: 'command', name: 'export', options: {}, actor: gm, attachmentLimit: 8 * 2 ** 20 });
    const files = all.type === 'message' ? all.files! : [];
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/\.csv$/), expect.stringMatching(/\.jsonl$/), 'verify.html']);
    const total = files.reduce((n, f) => n + attachmentData(f).length, 0);
    expect(attachmentData(files[2]!).toString()).toMatch(/^<!doctype html>/);
    const fits = await app.router.handle({ type: 'command', name: 'export', options: {}, actor: gm, attachmentLimit: total });
    expect(fits.type).toBe('message');
    const over = await app.router.handle({ type: 'command', name: 'export', options: {}, actor: gm, attachmentLimit: total - 1 });
    expect(expectError(over)).toMatch(/^The export passes /);
  });

  it("/export past the reply's attachment limit is refused, naming the limit and how to narrow it, before the files grow further", async () => {
    fill(2_500);
    const reply = await app.router.handle({ type: 'command', name: 'export', options: {}, actor: gm, attachmentLimit: 400 * 1024 });
    const m =
      /^The export passes 0\.4 MB, the most Discord takes in this reply, after (\d+) rows\. Narrow it with since:, until:, game:, system: or user: \(e\.g\. \/export since:30d\) and export it in parts\.$/.exec(
        expectError(reply),
      );
    // It stopped at the chunk that passed the limit (about 700 bytes a row here, beside verify.html), not at the end.
    const page = fs.statSync(path.join(import.meta.dirname, '../../dist/verify.html')).size;
    expect(Number(m?.[1])).toBeGreaterThan((400 * 1024 - page) / 2 / 1000);
    expect(Number(m?.[1])).toBeLessThan(2_500);
  }, 120_000);

  // An export is written to temporary files as it is read, never held whole in memory.
  it('/export writes to spooled files: the reply names them, the responder removes them once sent', async () => {
    fill(1_500);
    let delivered: Reply | undefined;
    let paths: string[] = [];
    const transport: TransportInteraction = {
      kind: 'command',
      actor: () => gm,
      installedByServer: () => true,
      request: (actor) => ({ type: 'command', name: 'export', options: {}, actor }),
      defer: async () => undefined,
      post: async () => undefined,
      deliver: async (reply) => {
        delivered = reply;
        const files = reply.type === 'message' ? (reply.files ?? []) : [];
        paths = files.flatMap((f) => ('path' in f && fs.statSync(f.path).size === f.bytes && f.bytes > 0 ? [f.path] : []));
        expect(attachmentData(files[1]!).toString().trimEnd().split('\n')).toHaveLength(1_500);
        return undefined;
      },
    };
    await new Responder(app.router, new MessageLinks(app.ledger, app.log), app.log).respond(transport);
    expect(expectMessage(delivered!).embed.description).toMatch(/^1,500 rows\./);
    expect(paths).toHaveLength(2);
    for (const p of paths) expect(fs.existsSync(path.dirname(p))).toBe(false);
  }, 120_000);

  it('an export past its limit stops at that chunk and leaves no file behind', async () => {
    fill(1_500);
    const spools: Spool[] = [];
    const create = Spool.create.bind(Spool);
    const spy = vi.spyOn(Spool, 'create').mockImplementation(async () => {
      const s = await create();
      spools.push(s);
      return s;
    });
    try {
      const result = await writeExport(app.ledger.history, { filter: { guildId: 'g1', kinds: 'all' }, limit: 100 * 1024, stamp: 'x' });
      expect(result.ok).toBe(false);
      expect(result.rows).toBeLessThan(1_500);
      expect(spools).toHaveLength(1);
      expect(fs.existsSync(spools[0]!.dir)).toBe(false);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);
});

describe('/roll show on a phone', () => {
  it('shows the input as it was typed, in one code span no typed backtick can end', async () => {
    const app = testApp();
    app.dice.push(4);
    const roll = expectMessage(await command(app, alice, 'rally', { disorder: 2, unit: 'a`` ` **b**' }));
    const shown = expectMessage(await subcommand(app, alice, 'roll', 'show', { id: roll.record!.roll_id }));
    const input = shown.embed.fields!.find((f) => f.name === 'Input')!.value;
    expect(input).toBe("`/rally band:false commander_near:false disorder:2 enemy_in_sight:true quality:regular unit:\"a'' ' **b**\"`");
    app.ledger.close();
  });
});
