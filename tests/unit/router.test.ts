import { describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/core/command.js';
import { Router } from '../../src/core/router.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger } from '../../src/log.js';
import { alice } from '../helpers/app.js';
import { tmpDb } from '../helpers/tmp.js';

describe('the router when a handler throws', () => {
  it('answers "something went wrong (ref …)", logs the same ref, and keeps serving', async () => {
    const logs: string[] = [];
    const ledger = Ledger.open(tmpDb());
    const boom = defineCommand({
      name: 'boom',
      description: 'throws',
      example: '/boom',
      options: {},
      run: () => {
        throw new Error('kaboom');
      },
    });
    const ok = defineCommand({ name: 'ok', description: 'fine', example: '/ok', options: {}, run: () => ({ type: 'error', message: 'fine' }) });
    const router = new Router([boom, ok], {
      ledger,
      roller: cryptoRoller,
      gameRoller: () => cryptoRoller,
      log: createLogger({ level: 'error', write: (l) => logs.push(l) }),
    });
    const reply = await router.handle({ type: 'command', name: 'boom', options: {}, actor: alice });
    expect(reply.type).toBe('error');
    const ref = reply.type === 'error' ? reply.ref : undefined;
    expect(ref).toMatch(/^[0-9a-f]{8}$/);
    expect(reply.type === 'error' && reply.message).toBe(`Something went wrong (ref ${ref}). Nothing was recorded for this request.`);
    expect(logs).toHaveLength(1);
    expect(JSON.parse(logs[0]!)).toMatchObject({ level: 'error', msg: 'handler failed', ref, err: { message: 'kaboom' } });
    expect(await router.handle({ type: 'command', name: 'ok', options: {}, actor: alice })).toEqual({ type: 'error', message: 'fine' });
    ledger.close();
  });

  it('scrubs secrets from every log line', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', secrets: ['super.secret.token-value'], write: (l) => lines.push(l) });
    log.error('request failed', { header: 'Bot super.secret.token-value', err: new Error('401 for super.secret.token-value') });
    expect(lines.join('\n')).not.toContain('super.secret.token-value');
    expect(lines[0]).toContain('[redacted]');
  });
});
