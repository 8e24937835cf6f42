import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundRound, roundTime } from '../../src/beacon/chain.js';
import { type FakeRelay, testChain } from '../helpers/beacon-relay.js';
import { startBeaconHttpHarness, type HttpHarness } from '../helpers/discord.js';
import { type Member, originalEdit, slashCommand, slashSubcommand } from './fake-discord.js';

// A beacon game in HTTP interactions mode: Discord signs and POSTs the roll; the binding is the HTTP
// response itself (within Discord's 3 s), and the result is edited in over REST once the round is out.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheBeaconHttpTokenDoNotLogIt0123456';
const GUILD = '900000000000000021';
const TOURNAMENT = '900000000000000022';
const alice: Member = { id: '300000000000000021', username: 'alice' };
const { chain, sign } = testChain(29, 1);
let h: HttpHarness & { relay: FakeRelay };

beforeAll(async () => {
  h = await startBeaconHttpHarness(TOKEN, [GUILD, TOURNAMENT], chain, sign);
});

afterAll(() => h?.stop());

describe('a beacon game over HTTP interactions', () => {
  it('the signed request is answered with its binding, and its message is edited into the result', async () => {
    const start = slashSubcommand('game', 'start', { system: 'hearts-of-tin', name: 'Ligny' }, { guildId: GUILD, member: alice });
    expect((await h.fake.postInteraction(h.url, start)).status).toBe(200);
    const rally = slashCommand('rally', { disorder: 1, unit: 'Blücher' }, { guildId: GUILD, member: alice });
    const round = boundRound(chain, rally.id);
    const res = await h.fake.postInteraction(h.url, rally);
    // The binding is the answer itself, given before any relay had served its round.
    expect(h.relay.served.filter((r) => r >= round)).toEqual([]);
    expect(res.status).toBe(200);
    const body = res.body as { type: number; data: { embeds: { title: string }[]; flags?: number } };
    expect(body.type).toBe(4);
    expect(body.data.flags ?? 0).toBe(0);
    expect(body.data.embeds[0]!.title).toBe(`/rally · bound to beacon round ${round}`);
    const edit = await originalEdit(h.fake, rally.token);
    expect(edit.body.embeds[0].title).toMatch(/^Rally · Blücher/);
    // The binding's message is never fetched for its id: the result's edit answers with it.
    expect(h.fake.webhookEdits.filter((e) => e.method === 'GET' && e.path.includes(rally.token))).toEqual([]);
    expect(Date.now()).toBeGreaterThanOrEqual(roundTime(chain, round));
  });

  it('a tournament game says its bound roll never expires, and /game end is refused while it waits, naming it; ended once rolled', async () => {
    const where = { guildId: TOURNAMENT, member: alice };
    expect(
      (await h.fake.postInteraction(h.url, slashSubcommand('game', 'start', { system: 'hearts-of-tin', name: 'Wavre', fair: 'tournament' }, where))).status,
    ).toBe(200);
    // The host's relay withholds the round.
    h.relay.down = true;
    const rally = slashCommand('rally', { disorder: 1, unit: 'Grouchy' }, where);
    const round = boundRound(chain, rally.id);
    const bound = (await h.fake.postInteraction(h.url, rally)).body as { data: { embeds: { description: string }[] } };
    expect(bound.data.embeds[0]!.description).toContain(
      `A tournament game: this roll never expires. The bot asks every relay (1 relay) again and again until round ${round} comes`,
    );
    const refused = (await h.fake.postInteraction(h.url, slashSubcommand('game', 'end', {}, where))).body as {
      data: { content?: string; embeds?: { description: string }[] };
    };
    expect(JSON.stringify(refused.data)).toContain(`Wavre cannot end while a roll waits for its beacon round: <@${alice.id}>'s /rally (round ${round})`);
    h.relay.down = false;
    expect((await originalEdit(h.fake, rally.token)).body.embeds[0].title).toMatch(/^Rally · Grouchy/);
    // The end carries verify.html: its answer goes to the callback endpoint (202 on the exchange).
    const end = slashSubcommand('game', 'end', {}, where);
    expect((await h.fake.postInteraction(h.url, end)).status).toBe(202);
    for (let i = 0; i < 100 && !h.fake.callbacks.some((c) => c.interactionId === end.id); i++) await new Promise((r) => setTimeout(r, 50));
    expect(h.fake.callbacks.find((c) => c.interactionId === end.id)!.data.embeds[0].title).toMatch(/^Game ended/);
  });
});
