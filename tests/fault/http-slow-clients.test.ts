import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpBot } from '../../src/discord/http-bot.js';
import { startHttpHarness, type HttpHarness } from '../helpers/discord.js';
import type { TestApp } from '../helpers/app.js';
import { type FakeDiscord, slashCommand } from '../e2e/fake-discord.js';

// One client held every connection of the HTTP interactions server (~256 connections
// trickling a header byte each, reopened as they timed out) and 20 of 25 signed requests were
// refused. The bot here runs with its production defaults; the attacker connects from 127.0.0.2,
// Discord (the fake) from 127.0.0.1.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.SLOW00.TheSlowClientTestTokenMustNeverBeLogged9';
const GUILD = '900000000000000001';
let h: HttpHarness;
let fake: FakeDiscord;
let app: TestApp;
let bot: HttpBot;

beforeAll(async () => {
  h = await startHttpHarness(TOKEN, [GUILD]);
  ({ fake, app, bot } = h);
});

afterAll(async () => h?.stop());

/** `count` connections from one address (more than the server takes from everyone), each trickling a header byte a second, each reopened when closed, until stopped. */
function slowloris(port: number, count = 256, reopen = true) {
  const sockets = new Set<net.Socket>();
  let stopped = !reopen;
  const one = () => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    sockets.add(s);
    let timer: NodeJS.Timeout | undefined;
    s.on('connect', () => {
      s.write('POST /interactions HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      timer = setInterval(() => s.write('a'), 1_000);
    });
    s.on('error', () => undefined);
    s.on('close', () => {
      clearInterval(timer);
      sockets.delete(s);
      if (!stopped) setTimeout(one, 20);
    });
  };
  for (let i = 0; i < count; i++) one();
  return {
    /** Connections the server has kept open: those still here after the server's own cap had its say. */
    held: () => [...sockets].filter((s) => !s.connecting && !s.destroyed).length,
    stop: () => {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

describe('HTTP interactions under a slow-client attack', () => {
  it('one address holding every connection it can: every signed request from another address is still answered', async () => {
    // The cap first, with nothing reopened: of 40 connections from one address, 32 stay open.
    const probe = slowloris(bot.port(), 40, false);
    await new Promise((r) => setTimeout(r, 1_000));
    const held = probe.held();
    probe.stop();
    const attack = slowloris(bot.port(), 600);
    await new Promise((r) => setTimeout(r, 1_500));
    const url = `http://127.0.0.1:${bot.port()}/interactions`;
    const answers: number[] = [];
    for (let i = 0; i < 25; i++) {
      app.dice.push(4);
      const r = await fake
        .postInteraction(url, slashCommand('rally', { disorder: 1, unit: `Guard ${i}` }, { member: { id: '300000000000000001', username: 'alice' } }))
        .catch(() => ({ status: 0 }));
      answers.push(r.status);
      await new Promise((r) => setTimeout(r, 300));
    }
    attack.stop();
    expect(held).toBe(32);
    expect(answers).toEqual(new Array(25).fill(200));
    expect(app.ledger.count(GUILD)).toBe(25);
  }, 120_000);
});
