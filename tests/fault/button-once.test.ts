import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from '../../src/core/router.js';
import type { HttpBot } from '../../src/discord/http-bot.js';
import { startHttpHarness, type HttpHarness } from '../helpers/discord.js';
import { alice, expectError, expectMessage, testApp, type TestApp } from '../helpers/app.js';
import { buttonPress, type FakeDiscord, slashCommand, type Member } from '../e2e/fake-discord.js';

// A button press is an interaction like any other and is used once. With the claim taken
// out of the router's button path, one "Roll again" press delivered twice recorded two rolls and no
// test failed. "Roll again" carries no once-key of its own (every press of it is a new roll), so the
// interaction's claim is all that stands between a redelivery and a second roll.
const rolls = (app: TestApp) => (app.ledger.db.prepare("SELECT count(*) AS n FROM rolls WHERE command = 'dr'").get() as { n: number }).n;

describe('a button press is used once: through the router', () => {
  it('one "Roll again" press delivered twice: one roll, and the second delivery is told it was handled', async () => {
    const app = testApp();
    app.dice.push(3, 4);
    const first = expectMessage(
      await app.router.handle({ type: 'command', name: 'dr', options: { category: 'IFT' }, actor: alice, interactionId: '1300000000000000001' }),
    );
    const press: Request = { type: 'button', customId: first.buttons[0]!.custom_id, actor: alice, interactionId: '1300000000000000002' };
    app.dice.push(5, 6);
    expectMessage(await app.router.handle(press));
    app.dice.push(1, 1);
    expect(expectError(await app.router.handle(press))).toMatch(/already/i);
    expect(rolls(app)).toBe(2);
    // A second, distinct press is a new roll: the guard is the interaction's id, not the button.
    expectMessage(await app.router.handle({ ...press, interactionId: '1300000000000000003' }));
    expect(rolls(app)).toBe(3);
    app.ledger.close();
  });
});

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.ONCE00.TheButtonOnceTestTokenMustNeverBeLogged98';
const GUILD = '900000000000000001';
const carol: Member = { id: '300000000000000009', username: 'carol' };
let h: HttpHarness;
let fake: FakeDiscord;
let app: TestApp;
let bot: HttpBot;

beforeAll(async () => {
  h = await startHttpHarness(TOKEN, [GUILD]);
  ({ fake, app, bot } = h);
});

afterAll(async () => h?.stop());

describe('a button press is used once: over HTTP, signed as Discord signs it', () => {
  it('the same signed press POSTed twice (a replay within the signature window): one roll', async () => {
    const url = `http://127.0.0.1:${bot.port()}/interactions`;
    app.dice.push(2, 5);
    const first = await fake.postInteraction(url, slashCommand('dr', { category: 'TH' }, { member: carol }));
    expect(first.status).toBe(200);
    const customId = first.body.data.components[0].components[0].custom_id as string;
    const press = buttonPress(customId, { id: '1400000000000000001', embeds: first.body.data.embeds }, { member: carol });
    app.dice.push(6, 6);
    const pressed = await fake.postInteraction(url, press);
    expect(pressed.status).toBe(200);
    expect(pressed.body.data.embeds[0].title).toMatch(/^TH DR/);
    app.dice.push(1, 2);
    const again = await fake.postInteraction(url, press);
    expect(again.status).toBe(200);
    expect(again.body.data.flags & 64).toBe(64);
    expect(again.body.data.content).toMatch(/already/i);
    expect(rolls(app)).toBe(2);
  });
});
