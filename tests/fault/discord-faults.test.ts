import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice as routerAlice, command, expectError, expectMessage, testApp, type TestApp } from '../helpers/app.js';
import { buttonPress, PERMISSION_MANAGE_GUILD, slashCommand, type FakeDiscord } from '../e2e/fake-discord.js';
import { startHarness, type Harness } from '../helpers/discord.js';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAULT0.RecognisableFaultTestTokenNeverLogged1';
const GUILD = '900000000000000001';
const alice = { id: '300000000000000001', username: 'alice' };
const referee = { id: '300000000000000003', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };

let fake: FakeDiscord;
let app: TestApp;
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(TOKEN, [GUILD]);
  ({ fake, app } = harness);
});
afterAll(async () => harness?.stop());

const rowsFor = (unit: string) => app.ledger.db.prepare('SELECT id FROM rolls WHERE unit = ?').all(unit).length;

describe('Discord answering 429 and 500', () => {
  it('a 429 with retry-after, then a 500: the reply gets through, the roll is recorded once', async () => {
    fake.failCallbacks.push({ status: 429, retryAfter: 0.1 }, { status: 500 });
    app.dice.push(5);
    const interaction = slashCommand('rally', { disorder: 1, unit: 'Retried' }, { member: alice });
    const cb = await fake.send(interaction, 8_000);
    expect(cb.type).toBe(4);
    expect(fake.callbackAttempts.get(interaction.id)).toBe(3);
    expect(rowsFor('Retried')).toBe(1);
  });

  it('when every attempt fails the roll stays in the ledger, nothing is rolled twice, and the bot serves the next command', async () => {
    fake.failCallbacks.push({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    // Spare dice queued behind the one the roll takes: a second roll would take one.
    app.dice.push(5, 2, 2, 2);
    const rowsBefore = app.ledger.count(GUILD);
    const lost = slashCommand('rally', { disorder: 1, unit: 'Lost reply' }, { member: alice });
    await expect(fake.send(lost, 6_000)).rejects.toThrow(/no callback/);
    expect(rowsFor('Lost reply')).toBe(1);
    expect(app.ledger.count(GUILD)).toBe(rowsBefore + 1);
    expect(app.dice.pending()).toBe(3);
    app.dice.clear();
    fake.failCallbacks.length = 0;
    app.dice.push(6);
    const next = await fake.send(slashCommand('rally', { disorder: 1, unit: 'Next' }, { member: alice }));
    expect(next.data.embeds[0].title).toBe('Rally · Next — Rally');
    expect(app.logs.some((l) => l.includes('could not answer the interaction'))).toBe(true);
  }, 120_000);
});

describe('concurrent presses', () => {
  it('50 concurrent presses of one re-roll button produce exactly one re-roll', async () => {
    app.dice.push(1);
    const first = await fake.send(slashCommand('rally', { disorder: 2, commander_near: true, unit: 'Pressed' }, { member: alice }));
    const button = first.data.components[0].components[0];
    const message = { id: '500000000000000009', embeds: first.data.embeds, components: first.data.components };
    app.dice.push(...Array(50).fill(4));
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fake.send(buttonPress(button.custom_id, message, { member: i % 2 ? alice : referee }))),
    );
    expect(replies.filter((r) => r.type === 7)).toHaveLength(1);
    const refused = replies.filter((r) => r.type === 4 && r.data.flags === 64);
    expect(refused).toHaveLength(49);
    // Each refusal says why (a crash reply is ephemeral too, and would not say this).
    for (const r of refused) expect(r.data.content).toMatch(/^⚠️ The commander has already joined this unit\b.*one re-roll per rally\.$/);
    app.dice.clear();
    const rollId = button.custom_id.split(':')[2];
    expect(app.ledger.children(GUILD, rollId).filter((r) => r.kind === 'reroll')).toHaveLength(1);
  });
});

describe('presses that really race', () => {
  it('twenty presses in flight together: one re-roll; the others read it in their own transactions and draw no die', async () => {
    const local = testApp();
    local.dice.push(1);
    const first = expectMessage(await command(local, routerAlice, 'rally', { disorder: 2, commander_near: true, unit: 'Raced' }));
    const customId = first.buttons[0]!.custom_id;
    local.dice.push(...Array(20).fill(4));
    const replies = await Promise.all(Array.from({ length: 20 }, () => local.router.handle({ type: 'button', customId, actor: routerAlice })));
    expect(replies.filter((r) => r.type === 'update')).toHaveLength(1);
    const refusals = replies.filter((r) => r.type === 'error').map((r) => (r as { message: string }).message);
    expect(refusals).toHaveLength(19);
    // The button's checks read the rally's linked rows inside the press's transaction, after the
    // first press committed: every other press sees its re-roll, names it, and rolls nothing (the
    // ledger's once-key stays as the backstop, tested with the ledger).
    const reroll = local.ledger.children('g1', first.record!.roll_id).filter((r) => r.kind === 'reroll');
    expect(reroll).toHaveLength(1);
    expect(refusals).toEqual(Array(19).fill(`The commander has already joined this unit (re-roll ${reroll[0]!.id}): one re-roll per rally.`));
    expect(local.dice.pending()).toBe(19);
    expect(local.ledger.verify('g1').ok).toBe(true);
    local.ledger.close();
  });
});

describe('SQLite refusing the write', () => {
  it('busy past the timeout, then disk full: a clear ephemeral error, no partial row, and the next command works', async () => {
    const local = testApp();
    local.dice.push(4, 4, 4);
    local.ledger.db.pragma('busy_timeout = 50');
    const other = new Database(local.file);
    other.exec('BEGIN IMMEDIATE');
    expect(expectError(await command(local, routerAlice, 'rally', { disorder: 1 }))).toMatch(/could not be recorded, so no result is shown/);
    other.exec('ROLLBACK');
    other.close();
    // Disk full: no page may be added.
    local.ledger.db.pragma(`max_page_count = ${local.ledger.db.pragma('page_count', { simple: true })}`);
    const big = 'x'.repeat(80);
    let refused = 0;
    for (let i = 0; i < 200 && !refused; i++) {
      local.dice.push(4);
      const r = await command(local, routerAlice, 'rally', { disorder: 1, unit: `${big.slice(0, 70)}${i}` });
      if (r.type === 'error') {
        expect(r.message).toMatch(/could not be recorded, so no result is shown/);
        refused++;
      }
    }
    expect(refused).toBe(1);
    expect(local.ledger.verify('g1').ok).toBe(true);
    local.ledger.db.pragma('max_page_count = 1073741823');
    local.dice.push(6);
    expect(expectMessage(await command(local, routerAlice, 'rally', { disorder: 1 })).record!.result).toBe('rally');
    local.ledger.close();
  });
});

describe('the token', () => {
  it('never appears in any log line of these runs', () => {
    expect(app.logs.length).toBeGreaterThan(0);
    expect(app.logs.join('\n')).not.toContain(TOKEN);
  });
});
