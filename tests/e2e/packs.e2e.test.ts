import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/discord.js';
import { slashCommand, slashSubcommand, type Member } from './fake-discord.js';

// A GM installs a rule pack in Discord; its command is registered in that server alone
// (a POST to the guild's commands, the built-in ones untouched), in a body valid against the
// schema Discord's OpenAPI spec gives for it; players roll it; /pack remove unregisters it.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsThePacksTestTokenDoNotLogIt1234567';
const GUILD = '900000000000000042';
const gm: Member = { id: '300000000000000501', username: 'referee', permissions: 1n << 5n };
const player: Member = { id: '300000000000000502', username: 'player' };
let h: Harness;

beforeAll(async () => {
  h = await startHarness(TOKEN, [GUILD]);
});
afterAll(() => h?.stop());

/** ApplicationCommandCreateRequest and what it refers to, from Discord's OpenAPI spec (tests/fixtures). */
function discordSchema() {
  const spec = JSON.parse(fs.readFileSync('tests/fixtures/discord-command-schema.json', 'utf8'));
  // The spec's own formats (snowflake, int32…) are not JSON Schema's: their types still hold.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'discord', components: spec.components });
  return ajv.compile({ $ref: 'discord#/components/schemas/ApplicationCommandCreateRequest' });
}

describe('a rule pack through Discord', () => {
  it('installs, registers in its server in a body Discord’s schema takes, rolls, and unregisters on remove', async () => {
    const where = { guildId: GUILD };
    // The pack is checked in a worker thread, whose first start (from the sources, on a busy machine)
    // can outlast the defer: then the answer is the follow-up or the edit that comes after the defer.
    const install = slashSubcommand('pack', 'install', { example: 'bolt-action-order' }, { ...where, member: gm });
    const first = await h.fake.send(install);
    const key = install.token.split('/')[0]!;
    const later = () => h.fake.webhookEdits.find((e) => e.method !== 'GET' && e.method !== 'DELETE' && e.path.includes(key) && e.body?.embeds);
    if (first.type === 5) await expect.poll(later, { timeout: 60_000 }).toBeDefined();
    const installed = first.type === 5 ? { data: later()!.body } : first;
    expect(installed.data.embeds[0].title).toBe('Pack installed');
    expect(installed.data.embeds[0].description).toContain('Registered in this server: /bolt-action-order is in the command list now.');
    const [body] = h.fake.commandBodies;
    const valid = discordSchema();
    expect(valid(body), JSON.stringify(valid.errors)).toBe(true);
    expect(body).toMatchObject({
      name: 'bolt-action-order',
      description: 'A pinned unit tests its morale to follow an order (2d6, at most morale minus pins)',
    });
    expect(body.options.find((o: { name: string }) => o.name === 'officer').choices).toContainEqual({ name: 'Captain (+3)', value: 'captain' });
    expect(h.fake.registered.get(`guild:${GUILD}`)!.map((c) => c.name)).toEqual(['bolt-action-order']);
    expect(h.fake.registered.get('global')).toBeUndefined();

    h.app.dice.push(2, 3);
    const rolled = await h.fake.send(slashCommand('bolt-action-order', { morale: 9, pins: 2 }, { ...where, member: player }));
    expect(rolled.data.embeds[0].title).toBe('Bolt Action — order test — Passed');

    const again = await h.fake.send(slashSubcommand('pack', 'install', { example: 'bolt-action-order' }, { ...where, member: gm }));
    expect(again.data.embeds[0].title).toBe('Pack already installed');
    expect(h.fake.commandBodies).toHaveLength(2);

    const removed = await h.fake.send(slashSubcommand('pack', 'remove', { pack: 'bolt-action-order' }, { ...where, member: gm }));
    expect(removed.data.embeds[0].title).toBe('Pack removed');
    expect(h.fake.registered.get(`guild:${GUILD}`)).toEqual([]);
  }, 30_000);

  it('an attached file reaches the bot with its name and size, and is fetched only from Discord’s file server', async () => {
    const i = slashSubcommand('pack', 'install', {}, { guildId: GUILD, member: gm });
    const attachment = {
      id: '700000000000000001',
      filename: 'nerve.yaml',
      size: 412,
      url: `${h.fake.apiBase}/attachments/nerve.yaml`,
      proxy_url: `${h.fake.apiBase}/p/nerve.yaml`,
    };
    (i.data.options as unknown as { options: unknown[] }[])[0]!.options = [{ name: 'file', type: 11, value: attachment.id }];
    (i.data as unknown as { resolved: unknown }).resolved = { attachments: { [attachment.id]: attachment } };
    const refused = await h.fake.send(i);
    // The address is the request's: a bot that fetched any address it was handed could be pointed at its own network.
    expect(refused.data.content ?? refused.data.embeds?.[0]?.description).toContain("nerve.yaml is not on Discord's file server: it was not read.");
    expect(refused.data.flags & 64).toBe(64);
  });

  it('the check can fail: a body with an option Discord does not know is refused by the schema', () => {
    const valid = discordSchema();
    expect(valid({ name: 'x', description: 'y', options: [{ type: 99, name: 'z', description: 'w' }] })).toBe(false);
  });
});
