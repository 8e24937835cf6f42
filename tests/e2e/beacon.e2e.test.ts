import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundRound, roundTime } from '../../src/beacon/chain.js';
import { relaySource } from '../../src/beacon/relay.js';
import { startHarness, type Harness } from '../helpers/discord.js';
import { FakeRelay, testChain } from '../helpers/beacon-relay.js';
import { originalEdit, slashCommand, type Member } from './fake-discord.js';

// A beacon game through the real discord.js client against a local fake Discord, with a
// local drand relay serving a test chain (a round a second): the channel sees the binding within
// Discord's 3 s, and the same message becomes the result once the round is out.

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsTheBeaconTestTokenDoNotLogIt01234567';
const GUILD = '900000000000000011';
const alice: Member = { id: '300000000000000011', username: 'alice' };
const { chain, sign } = testChain(11, 1);
let harness: Harness;
let relay: FakeRelay;

beforeAll(async () => {
  relay = await new FakeRelay(chain, sign).start();
  harness = await startHarness(TOKEN, [GUILD], { beacon: relaySource(chain, { urls: [relay.url], retryMs: 100 }) });
});
afterAll(async () => {
  await harness?.stop();
  await relay?.stop();
});

const sub = (name: string, subName: string, options: Record<string, unknown>) => {
  const i = slashCommand(name, {}, { guildId: GUILD, member: alice });
  i.data.options = [{ name: subName, type: 1, options: Object.entries(options).map(([k, v]) => ({ name: k, type: 3, value: v })) }] as never;
  return harness.fake.send(i);
};

describe('a beacon game over the gateway', () => {
  it('a roll is bound at once, publicly, and its message becomes the result when the round is out', async () => {
    const started = await sub('game', 'start', { system: 'hearts-of-tin', name: 'Wavre' });
    expect(started.data.embeds[0].description).toContain("Each roll's dice come from a public drand beacon round (of a private chain: trust its operator)");
    const interaction = slashCommand('rally', { disorder: 2, unit: 'Ney' }, { guildId: GUILD, member: alice });
    const round = boundRound(chain, interaction.id);
    const cb = await harness.fake.send(interaction);
    // The first answer: public, naming who rolled and the round, within Discord's 3 s.
    expect(cb.type).toBe(4);
    expect(cb.data.flags ?? 0).toBe(0);
    expect(cb.data.embeds[0].title).toBe(`/rally · bound to beacon round ${round}`);
    expect(cb.at).toBeLessThan(roundTime(chain, round));
    const edit = await originalEdit(harness.fake, interaction.token);
    expect(edit.body.embeds[0].title).toMatch(/^Rally · Ney/);
    const rollId = /roll (\w+)/.exec(edit.body.embeds[0].footer.text)![1]!;
    const row = harness.app.ledger.get(GUILD, rollId)!;
    expect((row.input as { beacon: { round: number; interaction: string } }).beacon).toMatchObject({ round, interaction: interaction.id });
    expect(Date.parse(row.created_at)).toBeGreaterThanOrEqual(roundTime(chain, round));
  });
});
