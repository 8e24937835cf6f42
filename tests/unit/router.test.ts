import { describe, expect, it } from 'vitest';
import { EVERYONE, gmOnly } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { Router } from '../../src/core/router.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger } from '../../src/log.js';
import { alice } from '../helpers/app.js';
import { tmpDb } from '../helpers/tmp.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { said } from '../../src/i18n/said.js';

describe('the router when a handler throws', () => {
  it('answers "something went wrong (ref …)", logs the same ref, and keeps serving', async () => {
    const logs: string[] = [];
    const ledger = Ledger.open(tmpDb());
    const boom = defineCommand({
      name: 'boom',
      access: EVERYONE,
      description: 'throws',
      example: '/boom',
      options: {},
      run: () => {
        throw new Error('kaboom');
      },
    });
    const ok = defineCommand({
      name: 'ok',
      access: EVERYONE,
      description: 'fine',
      example: '/ok',
      options: {},
      run: () => ({ type: 'error', message: 'fine' }),
    });
    const router = new Router([boom, ok], {
      ledger: sqliteStore(ledger),
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

  it('blanks fields named like secrets, whatever their value (pino redact), as well as the known secret values', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', write: (l) => lines.push(l) });
    log.warn('request failed', { password: 'hunter2-long-enough', headers: { authorization: 'Bot abc.def.ghi' }, config: { token: 'xyz-token-1234' } });
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ password: '[redacted]', headers: { authorization: '[redacted]' }, config: { token: '[redacted]' }, level: 'warn' });
    expect(lines[0]).not.toMatch(/hunter2|abc\.def|xyz-token/);
  });

  it('scrubs secrets from every log line', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', secrets: ['super.secret.token-value'], write: (l) => lines.push(l) });
    log.error('request failed', { header: 'Bot super.secret.token-value', err: new Error('401 for super.secret.token-value') });
    expect(lines.join('\n')).not.toContain('super.secret.token-value');
    expect(lines[0]).toContain('[redacted]');
  });
});

describe('access, declared once', () => {
  it('every command and subcommand declares who may run it', async () => {
    const { COMMANDS } = await import('../../commands/index.js');
    const missing: string[] = [];
    for (const c of COMMANDS) {
      if ('subcommands' in c) for (const [n, sub] of Object.entries(c.subcommands)) !sub.access && missing.push(`/${c.name} ${n}`);
      else if (!c.access) missing.push(`/${c.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('the router refuses a GM-only command to a member before it runs', async () => {
    let ran = 0;
    const gmCommand = defineCommand({
      name: 'secret',
      access: gmOnly(said('gmExport')),
      description: 'GM only',
      example: '/secret',
      options: {},
      run: () => {
        ran++;
        return { type: 'error', message: 'ran' };
      },
    });
    const ledger = Ledger.open(tmpDb());
    const router = new Router([gmCommand], {
      ledger: sqliteStore(ledger),
      roller: cryptoRoller,
      gameRoller: () => cryptoRoller,
      log: createLogger({ level: 'silent' }),
    });
    const reply = await router.handle({ type: 'command', name: 'secret', options: {}, actor: alice });
    expect(reply).toEqual({ type: 'error', message: 'Only a GM (Manage Server, or the GM role set with /config gm-role) can export the ledger.' });
    expect(ran).toBe(0);
    await router.handle({ type: 'command', name: 'secret', options: {}, actor: { ...alice, isGm: true } });
    expect(ran).toBe(1);
    ledger.close();
  });
});
