import { inflateRawSync } from 'node:zlib';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testChain } from '../helpers/beacon-relay.js';
import { startBeaconHttpHarness, startHarness, type Harness, type HttpHarness } from '../helpers/discord.js';
import { evidenceDigest } from '../../src/verify/evidence.js';
import { buttonPress, originalEdit, PERMISSION_MANAGE_GUILD, slashSubcommand, type Member } from './fake-discord.js';

// Requested rolls through the real transports: the discord.js client against the fake Discord's
// gateway, and the HTTP interactions endpoint with Discord's signatures (a tournament game, where
// the answer's row carries the asked player's own signed press as its evidence).

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheAskE2eTokenDoNotLogIt0123456789';
const GUILD = '900000000000000061';
const BARE_GUILD = '900000000000000062';
const alice: Member = { id: '300000000000000061', username: 'alice' };
const bob: Member = { id: '300000000000000062', username: 'bob' };
const carol: Member = { id: '300000000000000063', username: 'carol' };
const referee: Member = { id: '300000000000000064', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };
const robot = { id: '300000000000000069', username: 'robot', bot: true };

type Interaction = ReturnType<typeof slashSubcommand>;

/** `player` as Discord sends a user option: type 6, the user (and their membership) resolved beside the options. */
function withPlayer(i: Interaction, user: { id: string; username: string; bot?: boolean }, member = true): Interaction {
  const sub = (i.data.options as unknown as { options: { name: string; type: number }[] }[])[0]!;
  for (const o of sub.options) if (o.name === 'player') o.type = 6;
  const resolved = {
    users: { [user.id]: { id: user.id, username: user.username, discriminator: '0', global_name: null, avatar: null, bot: user.bot ?? false } },
    ...(member ? { members: { [user.id]: { roles: [], joined_at: '2026-01-01T00:00:00.000Z', nick: null, permissions: '0', flags: 0 } } } : {}),
  };
  return { ...i, data: { ...i.data, resolved } } as unknown as Interaction;
}

const askRoll = (guildId: string, asker: Member, player: { id: string; username: string; bot?: boolean }, roll: string, member = true) =>
  withPlayer(slashSubcommand('ask', 'roll', { player: player.id, roll }, { guildId, member: asker }), player, member);

/**
 * The first answer to an HTTP interaction: in the response (200), or, for a reply with a file (a
 * request's odds chart), through the callback endpoint after a 202.
 */
async function firstAnswer(h: HttpHarness, i: { id: string }, res: { status: number; body: any }): Promise<any> {
  if (res.status === 200) return res.body.data;
  expect(res.status).toBe(202);
  for (let n = 0; n < 200; n++) {
    const cb = h.fake.callbacks.find((c) => c.interactionId === i.id);
    if (cb) return cb.data;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no answer to interaction ${i.id}`);
}

const buttonOf = (data: { components?: { components: { custom_id: string }[] }[] }) => data.components?.[0]?.components[0]?.custom_id ?? '';

describe('/ask through the gateway', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(TOKEN, [GUILD, BARE_GUILD]);
    await h.fake.send(slashSubcommand('game', 'start', { system: 'hearts-of-tin', name: 'Quatre Bras' }, { guildId: GUILD, member: alice }));
  });
  afterAll(() => h?.stop());

  it('is answered by the asked player alone, listed, and cancelled', async () => {
    const asked = await h.fake.send(askRoll(GUILD, alice, bob, 'rally disorder:2'));
    expect(asked.data.flags ?? 0).toBe(0);
    expect(asked.data.embeds[0].description).toContain(`<@${bob.id}>`);
    const button = buttonOf(asked.data);
    expect(button).toMatch(/^v1:ask:\w+$/);
    const id = button.slice('v1:ask:'.length);

    const listed = await h.fake.send(slashSubcommand('ask', 'list', {}, { guildId: GUILD, member: carol }));
    expect(listed.data.embeds[0].description).toContain(`\`${id}\``);

    const stranger = await h.fake.send(buttonPress(button, { id: '700000000000000061' }, { guildId: GUILD, member: carol }));
    expect(stranger.data.content).toContain('only they can answer it');
    expect(stranger.data.flags).toBe(64);

    h.app.dice.push(4);
    const answered = await h.fake.send(buttonPress(button, { id: '700000000000000061' }, { guildId: GUILD, member: bob }));
    expect(answered.data.embeds[0].description).toMatch(/answered after/);
    const roll = h.app.ledger.children(GUILD, id).find((r) => r.kind === 'roll')!;
    expect(roll).toMatchObject({ user_id: bob.id, command: 'rally', parent_id: id, dice: [4] });
    const again = await h.fake.send(buttonPress(button, { id: '700000000000000061' }, { guildId: GUILD, member: bob }));
    expect(again.data.content).toContain('answered already');

    const second = buttonOf((await h.fake.send(askRoll(GUILD, alice, bob, 'rally disorder:1'))).data).slice('v1:ask:'.length);
    const refused = await h.fake.send(slashSubcommand('ask', 'cancel', { request: second }, { guildId: GUILD, member: carol }));
    expect(refused.data.content).toContain('who asked, or a GM');
    const cancelled = await h.fake.send(slashSubcommand('ask', 'cancel', { request: second }, { guildId: GUILD, member: referee }));
    expect(cancelled.data.embeds[0].title).toBe('Request cancelled');
    expect(h.app.ledger.requests.request(GUILD, second)!.state).toBe('cancelled');
  }, 30_000);

  it('refuses a bot, a player who is not a member, and a channel with no game, each ephemeral', async () => {
    const bot = await h.fake.send(askRoll(GUILD, alice, robot, 'rally disorder:2'));
    expect(bot.data.content).toContain('names a bot');
    expect(bot.data.flags).toBe(64);
    const gone = await h.fake.send(askRoll(GUILD, alice, { id: '300000000000000068', username: 'gone' }, 'rally disorder:2', false));
    expect(gone.data.content).toContain('must be a member of this server');
    const bare = await h.fake.send(askRoll(BARE_GUILD, alice, bob, 'rally disorder:2'));
    expect(bare.data.content).toContain('No game is running in this channel');
    const bad = await h.fake.send(askRoll(GUILD, alice, bob, 'rally disorder:99'));
    expect(bad.data.content).toContain('`disorder` must be');
  }, 30_000);
});

describe('/ask over HTTP interactions, in a tournament game', () => {
  let h: HttpHarness;
  const { chain, sign } = testChain(41, 1);
  beforeAll(async () => {
    h = await startBeaconHttpHarness(TOKEN, [GUILD], chain, sign);
    const start = slashSubcommand('game', 'start', { system: 'hearts-of-tin', name: 'Ligny', fair: 'tournament' }, { guildId: GUILD, member: alice });
    expect((await h.fake.postInteraction(h.url, start)).status).toBe(200);
  });
  afterAll(() => h?.stop());

  it("keeps the asked player's signed press as the answer's evidence", async () => {
    const ask = askRoll(GUILD, alice, bob, 'rally disorder:1 unit:Blücher');
    const asked = await firstAnswer(h, ask, await h.fake.postInteraction(h.url, ask));
    // The asked player alone is pinged, over HTTP as through the gateway.
    expect(asked.content).toBe(`<@${bob.id}>`);
    expect(asked.allowed_mentions).toEqual({ parse: [], users: [bob.id] });
    const button = buttonOf(asked);
    const id = button.slice('v1:ask:'.length);
    // The request's own row commits to the asker's signed /ask.
    expect(h.app.ledger.get(GUILD, id)).toMatchObject({ kind: 'request', user_id: alice.id, input: { evidence: { interaction: ask.id } } });

    const press = buttonPress(button, { id: '700000000000000062', embeds: asked.embeds }, { guildId: GUILD, member: bob });
    const bound = await h.fake.postInteraction(h.url, press);
    expect(bound.status).toBe(200);
    const edit = await originalEdit(h.fake, press.token);
    expect(edit.body.embeds[0].description).toMatch(/answered after/);
    const roll = h.app.ledger.children(GUILD, id).find((r) => r.kind === 'roll')!;
    expect(roll).toMatchObject({ user_id: bob.id, parent_id: id, input: { evidence: { interaction: press.id }, beacon: { interaction: press.id } } });
    // The evidence is the press itself: a type-3 interaction by the asked player, naming the request.
    const kept = h.app.ledger.history.evidenceOf([press.id]).get(press.id)!;
    const body = inflateRawSync(kept.body);
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ type: 3, member: { user: { id: bob.id } }, data: { custom_id: `v1:ask:${id}` } });
    expect((roll.input as { evidence: { sha256: string } }).evidence.sha256).toBe(evidenceDigest(kept.timestamp, body));
    // And every verifier takes the press as the answer's request: the in-bot check over the kept bytes.
    const verdict = await verifyLedger(sqliteStore(h.app.ledger), GUILD);
    expect(verdict.promises.lines.join('\n')).toMatch(/tournament: every roll asked through Discord; 3 rows signed by Discord/);
    expect(verdict.promises.ok).toBe(true);
  }, 60_000);

  it("refuses anyone else's signed press, and keeps nothing of it", async () => {
    const ask = askRoll(GUILD, alice, bob, 'rally disorder:2');
    const button = buttonOf(await firstAnswer(h, ask, await h.fake.postInteraction(h.url, ask)));
    const press = buttonPress(button, { id: '700000000000000063' }, { guildId: GUILD, member: carol });
    const refused = await h.fake.postInteraction(h.url, press);
    expect(refused.body.data.content).toContain('only they can answer it');
    expect(h.app.ledger.history.evidenceOf([press.id]).size).toBe(0);
  }, 30_000);
});
