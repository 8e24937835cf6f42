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
    installedByServer: () => inGuild,
    request: (actor) => ({ type: 'command', name: 'x', options: {}, actor }),
    defer: async () => void calls.push('defer'),
    post: async (channelId) => void calls.push(`post ${channelId}`),
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

  // The reply used to say "sent to #gm" before the post was tried; a failed post told nobody.
  describe("a reply with a post to the GMs' channel", () => {
    const sealed: Reply = {
      ...rolled,
      embed: { description: 'Sealed roll r1.' },
      notify: { channelId: 'gm', embed: { title: 'result' }, sent: ' Sent to <#gm>.', failed: ' Could not post to <#gm>.' },
    };
    const delivered = () => {
      const replies: Reply[] = [];
      const calls: string[] = [];
      return { replies, calls };
    };

    it('posts first, then replies saying it was sent', async () => {
      const d = delivered();
      const { t } = transport('command');
      await new Responder({ handle: async () => sealed }, links().links, log).respond({
        ...t,
        post: async (channelId) => void d.calls.push(`post ${channelId}`),
        deliver: async (reply) => {
          d.calls.push('deliver');
          d.replies.push(reply);
          return 'm1';
        },
      });
      expect(d.calls).toEqual(['post gm', 'deliver']);
      expect(d.replies[0]).toMatchObject({ embed: { description: 'Sealed roll r1. Sent to <#gm>.' } });
      expect(d.replies[0]).not.toHaveProperty('notify');
    });

    it('when the post fails, the reply says so, the log names the post (not the interaction), and the roll is still linked', async () => {
      const d = delivered();
      const lines: string[] = [];
      const l = links();
      const { t } = transport('command');
      await new Responder({ handle: async () => sealed }, l.links, createLogger({ level: 'info', write: (x) => void lines.push(x) })).respond({
        ...t,
        post: async () => {
          throw Object.assign(new Error('Missing Permissions'), { code: 50013 });
        },
        deliver: async (reply) => {
          d.replies.push(reply);
          return 'm1';
        },
      });
      expect(d.replies[0]).toMatchObject({ embed: { description: 'Sealed roll r1. Could not post to <#gm>.' } });
      // The failed post's warning, then the interaction's own line.
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: expect.stringContaining('could not post to the GM channel'), channelId: 'gm' });
      expect(lines[0]).toContain('Missing Permissions');
      expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'info', msg: 'interaction', result: 'ok', deferred: false });
      expect(l.shown).toEqual([['r1', 'm1']]);
    });
  });
});

// One info line per interaction, and the same outcome handed to the metrics.
describe('what each interaction came to', () => {
  const outcomes = async (reply: Reply, o: { kind?: TransportInteraction['kind']; inGuild?: boolean; ms?: number; deferAfter?: number } = {}) => {
    const lines: string[] = [];
    const seen: unknown[] = [];
    const { t } = transport(o.kind ?? 'command', o.inGuild ?? true);
    const withId: TransportInteraction = { ...t, request: (actor) => ({ ...t.request(actor), interactionId: '1234' }) };
    const router = { handle: () => new Promise<Reply>((r) => setTimeout(() => r(reply), o.ms ?? 0)) };
    await new Responder(router, links().links, createLogger({ level: 'info', write: (x) => void lines.push(x) }), o.deferAfter ?? 200, (x) =>
      seen.push(x),
    ).respond(withId);
    const info = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'interaction');
    expect(info).toHaveLength(1);
    expect(seen).toHaveLength(1);
    const { level, time, pid, msg, ...fields } = info[0];
    expect(fields).toEqual(seen[0]);
    return fields;
  };

  it('ok: its id, guild, command, latency and whether it was deferred', async () => {
    const o = await outcomes(rolled, { ms: 40, deferAfter: 10 });
    expect(o).toMatchObject({ id: '1234', guild: 'g1', command: '/x', result: 'ok', deferred: true });
    expect(o.ms).toBeGreaterThanOrEqual(35);
    expect(o.ref).toBeUndefined();
  });

  it('refused, rate-limited, a duplicate, and a failure with its reference', async () => {
    expect(await outcomes({ type: 'error', message: 'no' })).toMatchObject({ result: 'refused', deferred: false });
    expect(await outcomes({ type: 'error', message: 'slow', code: 'rate_limited' })).toMatchObject({ result: 'rate_limited' });
    expect(await outcomes({ type: 'error', message: 'again', code: 'duplicate' })).toMatchObject({ result: 'duplicate' });
    expect(await outcomes({ type: 'error', message: 'bug', ref: 'abcd1234' })).toMatchObject({ result: 'failed', ref: 'abcd1234' });
  });

  it('outside a server it is named by its kind', async () => {
    expect(await outcomes(rolled, { inGuild: false })).toMatchObject({ command: 'command', result: 'outside_a_server' });
  });
});
