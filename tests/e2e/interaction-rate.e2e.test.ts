import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testChain } from '../helpers/beacon-relay.js';
import { startBeaconHttpHarness, type HttpHarness } from '../helpers/discord.js';
import { type Member, originalEdit, slashCommand, slashSubcommand } from './fake-discord.js';

// Discord does not count requests made with an interaction's token (edits, follow-ups)
// against the bot's global limit of 50 a second, but @discordjs/rest counted them: 200 beacon
// results edited in at once (a tournament's turn ending together) waited up to four seconds.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheRateTestTokenDoNotLogIt01234567';
const GUILD = '900000000000000041';
const { chain, sign } = testChain(41, 1);
let h: HttpHarness;

beforeAll(async () => {
  h = await startBeaconHttpHarness(TOKEN, [GUILD], chain, sign);
});

afterAll(() => h?.stop());

describe("interaction edits and the bot's global limit", () => {
  it('thirty beacon results edited in at once spend none of the 50 requests a second the bot token may make', async () => {
    const host: Member = { id: '300000000000000400', username: 'host' };
    const start = slashSubcommand('game', 'start', { system: 'hearts-of-tin', name: 'Quatre Bras' }, { guildId: GUILD, member: host });
    expect((await h.fake.postInteraction(h.url, start)).status).toBe(200);
    // Thirty at once: the HTTP server takes 32 connections from one address.
    const players: Member[] = Array.from({ length: 30 }, (_, p) => ({ id: String(300000000000000401n + BigInt(p)), username: `p${p}` }));
    const rolls = players.map((member, p) => slashCommand('rally', { disorder: 1, unit: `Battalion ${p}` }, { guildId: GUILD, member }));
    const bound = await Promise.all(rolls.map((r) => h.fake.postInteraction(h.url, r)));
    expect(bound.map((b) => b.body.data.embeds[0].title)).toEqual(rolls.map(() => expect.stringMatching(/^\/rally · bound to beacon round \d+$/)));
    const edits = await Promise.all(rolls.map((r) => originalEdit(h.fake, r.token)));
    expect(edits.map((e) => e.body.embeds[0].title.split(' — ')[0])).toEqual(players.map((_, p) => `Rally · Battalion ${p}`));
    expect(h.bot.rest.globalRemaining).toBe(50);
  }, 30_000);
});
