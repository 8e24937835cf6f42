import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/command.js';
import type { MessageLinks } from '../../src/core/message-links.js';
import { OUTSIDE_A_SERVER, Responder, type TransportInteraction } from '../../src/core/responder.js';
import { createLogger } from '../../src/log.js';
import { alice } from '../helpers/app.js';

/** A transport that records what the responder asked of it, in order. */
function transport(kind: TransportInteraction['kind'], inGuild = true) {
  const calls: string[] = [];
  const t: TransportInteraction = {
    kind,
    actor: () => (inGuild ? alice : undefined),
    request: (actor) => ({ type: 'command', name: 'x', options: {}, actor }),
    defer: async () => void calls.push('defer'),
    deliver: async (reply, deferred) => {
      calls.push(`deliver ${reply.type}${deferred ? ' (deferred)' : ''}`);
      return 'm1';
    },
  };
  return { t, calls };
}
const rolled: Reply = {
  type: 'message',
  ephemeral: false,
  embed: {},
  buttons: [],
  record: { command: 'x', system: null, roll_id: 'r1', steps: [], result: null },
};
const finishingIn = (ms: number) => ({ handle: () => new Promise<Reply>((r) => setTimeout(() => r(rolled), ms)) });
const links = () => {
  const shown: [string, string][] = [];
  return { shown, links: { shown: (a: string, b: string) => void shown.push([a, b]), flush: async () => undefined } as unknown as MessageLinks };
};
const log = createLogger({ level: 'silent' });

describe('the responder (one interaction sequence for every transport)', () => {
  it('answers fast work at once, and remembers the message that shows the roll', async () => {
    const { t, calls } = transport('command');
    const l = links();
    await new Responder(finishingIn(1), l.links, log, 200).respond(t);
    expect(calls).toEqual(['deliver message']);
    expect(l.shown).toEqual([['r1', 'm1']]);
  });

  it('defers work still running after the delay, then delivers it as deferred', async () => {
    const { t, calls } = transport('button');
    await new Responder(finishingIn(120), links().links, log, 30).respond(t);
    expect(calls).toEqual(['defer', 'deliver message (deferred)']);
  });

  it('never defers autocomplete, and answers outside a server without asking the router', async () => {
    const a = transport('autocomplete');
    await new Responder(finishingIn(60), links().links, log, 10).respond(a.t);
    expect(a.calls).toEqual(['deliver message']);
    const outside = transport('command', false);
    let asked = false;
    const router = {
      handle: async () => {
        asked = true;
        return rolled;
      },
    };
    await new Responder(router, links().links, log).respond({
      ...outside.t,
      deliver: async (reply) => void outside.calls.push(reply.type === 'error' ? reply.message : reply.type) as never,
    });
    expect(outside.calls).toEqual([OUTSIDE_A_SERVER]);
    expect(asked).toBe(false);
  });
});
