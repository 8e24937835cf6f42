import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/core/schedule.js';
import { clockPoster } from '../../src/discord/clock-post.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { startHarness, type Harness } from '../helpers/discord.js';
import { buttonPress, PERMISSION_MANAGE_GUILD, slashSubcommand, type Member } from './fake-discord.js';

// What the bot posts on its own, later (reminders, a game's card, a request's message once settled),
// through Discord's REST API as the bot's token reaches it: the real poster against the fake Discord,
// the clock the test's. A German server gets German; Discord down is tried again; a retry of a post
// that arrived (its answer lost) is shown once, by Discord's nonce.

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheClockPostTokenDoNotLogIt012345';
const GUILD = '900000000000000071';
const alice: Member = { id: '300000000000000071', username: 'alice' };
const bob: Member = { id: '300000000000000072', username: 'bob' };
const referee: Member = { id: '300000000000000074', username: 'referee', permissions: PERMISSION_MANAGE_GUILD };
const MIN = 60_000;
const H = 60 * MIN;

/** An interaction from a server whose preferred language is `locale`, whatever its player's own. */
const inServerOf = <T extends object>(locale: string, i: T): T => ({ ...i, guild_locale: locale });

/** `/ask roll` with its user option resolved, as Discord sends it. */
function askRoll(asker: Member, player: Member, roll: string) {
  const i = slashSubcommand('ask', 'roll', { player: player.id, roll }, { guildId: GUILD, member: asker });
  const sub = (i.data.options as unknown as { options: { name: string; type: number }[] }[])[0]!;
  for (const o of sub.options) if (o.name === 'player') o.type = 6;
  const resolved = {
    users: { [player.id]: { id: player.id, username: player.username, discriminator: '0', global_name: null, avatar: null, bot: false } },
    members: { [player.id]: { roles: [], joined_at: '2026-01-01T00:00:00.000Z', nick: null, permissions: '0', flags: 0 } },
  };
  return inServerOf('de', { ...i, data: { ...i.data, resolved } });
}

describe('the scheduler on Discord', () => {
  let h: Harness;
  let scheduler: Scheduler;
  const base = Date.now();
  let offset = 0;
  const at = (ms: number) => {
    offset = ms;
    return scheduler.tick();
  };
  const reminders = () => h.fake.channelMessages.filter((m) => m.body.content);
  let request = { id: '', message: '' };

  beforeAll(async () => {
    h = await startHarness(TOKEN, [GUILD]);
    scheduler = new Scheduler(sqliteStore(h.app.ledger), clockPoster(TOKEN, h.fake.apiBase), h.app.log, () => new Date(base + offset));
    await h.fake.send(slashSubcommand('game', 'start', { system: 'hearts-of-tin', name: 'Quatre Bras' }, { guildId: GUILD, member: alice }));
    await h.fake.send(inServerOf('de', slashSubcommand('game', 'clock', { remind_after: '1h', repeat_every: '6h' }, { guildId: GUILD, member: alice })));
  });
  afterAll(() => h?.stop());

  it("pings the asked player alone, reminds them in the server's language, and retries what Discord did not take", async () => {
    const asked = await h.fake.send(askRoll(alice, bob, 'rally disorder:2'));
    // Discord pings only who the content names: Bob is named there, and he alone may be pinged.
    expect(asked.data.content).toBe(`<@${bob.id}>`);
    expect(asked.data.allowed_mentions).toEqual({ parse: [], users: [bob.id] });
    request = { id: asked.data.components[0].components[0].custom_id.slice('v1:ask:'.length), message: h.fake.messageIds.get(asked.interactionId)! };
    // The card, due at once, is posted in German.
    await at(MIN);
    const card = h.fake.channelMessages.find((m) => m.body.embeds?.[0]?.title?.startsWith('Stand · '));
    expect(card?.body.nonce).toBeTypeOf('string');
    expect(card?.body.enforce_nonce).toBe(true);

    // Discord is down when the reminder is due: every try of the REST client fails, and nothing is shown.
    h.fake.failChannelPosts.push(...Array.from({ length: 4 }, () => ({ status: 503 })));
    await at(H + 2 * MIN);
    expect(reminders()).toEqual([]);
    expect(h.fake.failChannelPosts).toEqual([]);
    // A minute on, it is tried again: shown once, in German, pinging Bob alone.
    await at(H + 3 * MIN);
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]!.body.content).toBe(
      `<@${bob.id}>, Quatre Bras wartet auf deinen Wurf: \`/rally disorder:2\`, angefordert von <@${alice.id}> ${reminders()[0]!.body.content.match(/<t:\d+:R>/)![0]}.`,
    );
    expect(reminders()[0]!.body.allowed_mentions).toEqual({ parse: [], users: [bob.id] });
  }, 30_000);

  it('shows a post that arrived though its answer was lost once, when it is tried again', async () => {
    // The repeat is due 6 h after the last reminder: Discord makes it, but every answer is lost.
    h.fake.failChannelPosts.push(...Array.from({ length: 4 }, () => ({ status: 500, lost: true })));
    await at(7 * H + 4 * MIN);
    expect(reminders()).toHaveLength(2);
    await at(7 * H + 5 * MIN);
    // The retry carried the same nonce: Discord returned the message it had, and made none.
    expect(reminders()).toHaveLength(2);
    // The next firing (6 h on) is a new reminder with a nonce of its own.
    await at(13 * H + 6 * MIN);
    expect(reminders()).toHaveLength(3);
    expect(new Set(reminders().map((m) => m.body.nonce)).size).toBe(3);
  }, 30_000);

  it('edits a request’s message once it is answered or withdrawn, in German, its button gone', async () => {
    const requestMessage = request.message;
    h.app.dice.push(4);
    await h.fake.send(inServerOf('de', buttonPress(`v1:ask:${request.id}`, { id: requestMessage }, { guildId: GUILD, member: bob })));
    const answerId = h.app.ledger.requests.request(GUILD, request.id)!.answer_id!;
    // The links of both messages are written in a batch off the reply's path: wait for them.
    for (let n = 0; n < 200 && h.app.ledger.history.messages([request.id, answerId]).size < 2; n++) await new Promise((r) => setTimeout(r, 25));
    const answerMessage = h.app.ledger.history.messages([answerId]).get(answerId)!;

    await at(13 * H + 7 * MIN);
    const edit = h.fake.messageEdits.find((e) => e.messageId === requestMessage)!;
    expect(edit.body.components).toEqual([]);
    expect(edit.body.embeds[0].title).toBe('Angeforderter Wurf beantwortet');
    expect(edit.body.embeds[0].description).toContain(`<@${bob.id}> hat \`/rally disorder:2\` beantwortet`);
    expect(edit.body.embeds[0].description).toContain(`[zum Wurf](https://discord.com/channels/${GUILD}/`);
    expect(edit.body.embeds[0].description).toContain(`/${answerMessage})`);
    // Settled, the request is reminded of no more.
    await at(20 * H);
    expect(reminders()).toHaveLength(3);

    const second = await h.fake.send(askRoll(alice, bob, 'rally disorder:1'));
    const secondId = second.data.components[0].components[0].custom_id.slice('v1:ask:'.length);
    const secondMessage = h.fake.messageIds.get(second.interactionId)!;
    for (let n = 0; n < 200 && !h.app.ledger.history.messages([secondId]).size; n++) await new Promise((r) => setTimeout(r, 25));
    await h.fake.send(slashSubcommand('ask', 'cancel', { request: secondId }, { guildId: GUILD, member: referee }));
    await at(20 * H + MIN);
    const withdrawn = h.fake.messageEdits.find((e) => e.messageId === secondMessage)!;
    expect(withdrawn.body.components).toEqual([]);
    expect(withdrawn.body.embeds[0].title).toBe('Anforderung zurückgezogen');
  }, 30_000);
});
