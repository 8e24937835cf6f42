import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Actor, Reply } from '../../src/core/command.js';
import { testPostgres } from '../helpers/postgres.js';
import { postgresBackend, routerOver, sqliteBackend, type Backend } from '../helpers/retention.js';

// /config retention as a GM and a player use it, through the router, on both backends: the
// server's own number of days after the bot leaves before its data is deleted, or the host's.
const server = await testPostgres();
afterAll(() => server?.stop());

const gm: Actor = { guildId: 'g1', channelId: 'c1', userId: 'gm', userName: 'Game Master', isGm: true };
const alice: Actor = { ...gm, userId: 'alice', userName: 'Alice', isGm: false };

const BACKENDS: [string, () => Promise<Backend>][] = [
  ['SQLite', sqliteBackend],
  ['PostgreSQL', () => (server ? postgresBackend(server) : Promise.reject(new Error('no PostgreSQL')))],
];

function text(r: Reply): string {
  if (r.type === 'error') return r.message;
  if (r.type !== 'message') throw new Error(JSON.stringify(r));
  return r.embed.description ?? '';
}

describe.each(BACKENDS)('/config retention on %s', (name, make) => {
  const skip = name === 'PostgreSQL' && !server;
  let b: Backend | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });
  const retention = (actor: Actor, options: Record<string, unknown> = {}, locale?: string, host?: number) =>
    routerOver(b!.store, host === undefined ? {} : { retentionDays: host }).router.handle({
      type: 'command',
      name: 'config',
      subcommand: 'retention',
      options,
      actor,
      ...(locale ? { locale } : {}),
    });

  it.skipIf(skip)("shows the host's default, sets the server's own (a chained config row), and shows that it is the server's", async () => {
    b = await make();
    expect(text(await retention(gm))).toBe(
      "When the bot leaves this server, this server's data is deleted after 30 days: the host's default. /config retention with a number of days from 0 to 365 sets this server's own.",
    );
    expect(text(await retention(gm, {}, undefined, 7))).toContain('after 7 days: the host’s default'.replace('’', "'"));
    const set = await retention(gm, { days: 90 });
    expect(set).toMatchObject({ type: 'message', ephemeral: true });
    expect(text(set)).toBe("From now on, when the bot leaves this server, this server's data is deleted after 90 days.");
    expect(text(await retention(gm, {}, undefined, 7))).toBe(
      "When the bot leaves this server, this server's data is deleted after 90 days: this server's own setting (the host's default is 7 days).",
    );
    expect(await b.store.retention.retentionDays('g1')).toBe(90);
    expect(await b.store.retention.retentionDays('g2')).toBeNull();
    // Recorded on the server's chain as the other settings are, and the chain holds.
    const page = await b.store.history.page({ guildId: 'g1', kinds: 'all' }, 10, 0);
    expect(page.rows.map((r) => [r.command, r.kind, r.input])).toEqual([['config', 'config', { retention_days: '90' }]]);
    expect(await b.store.verifyInChunks('g1')).toMatchObject({ ok: true, count: 1 });
    expect(text(await retention(gm, { days: 0 }))).toBe("From now on, when the bot leaves this server, this server's data is deleted within the hour.");
    expect(text(await retention(gm, { days: 1 }))).toBe("From now on, when the bot leaves this server, this server's data is deleted after 1 day.");
  });

  it.skipIf(skip)('refuses a value out of range, naming it and the range, and refuses a player (the GM check is the bot’s own)', async () => {
    b = await make();
    for (const days of [366, -1, 10_000]) {
      const r = await retention(gm, { days });
      expect(r).toMatchObject({ type: 'error' });
      expect(text(r)).toBe(`\`days\` must be a whole number from 0 to 365 (you gave ${days}).`);
    }
    expect(text(await retention(gm, { days: 'forever' }))).toBe('`days` must be a whole number from 0 to 365 (you gave "forever").');
    for (const options of [{ days: 5 }, {}]) expect(text(await retention(alice, options))).toContain('can change the settings');
    expect(await b.store.retention.retentionDays('g1')).toBeNull();
    expect(await b.store.verifyInChunks('g1')).toMatchObject({ ok: true, count: 0 });
  });

  it.skipIf(skip)('answers in German and French', async () => {
    b = await make();
    expect(text(await retention(gm, {}, 'de'))).toBe(
      'Verlässt der Bot diesen Server, werden dessen Daten nach 30 Tagen gelöscht: die Vorgabe des Betreibers. Mit /einstellungen aufbewahrung und einer Zahl von 0 bis 365 Tagen legst du einen eigenen Wert für diesen Server fest.',
    );
    expect(text(await retention(gm, { days: 1 }, 'de'))).toBe('Ab jetzt gilt: Verlässt der Bot diesen Server, werden dessen Daten nach 1 Tag gelöscht.');
    expect(text(await retention(gm, { days: 0 }, 'fr'))).toBe(
      'Désormais, si le bot quitte ce serveur, les données de ce serveur sont supprimées dans l’heure.',
    );
    expect(text(await retention(gm, {}, 'fr', 45))).toBe(
      'Si le bot quitte ce serveur, les données de ce serveur sont supprimées dans l’heure\u202f: c’est le réglage propre à ce serveur (par défaut, l’hébergeur les garde 45 jours).',
    );
    expect(text(await retention(gm, { days: 400 }, 'de'))).toBe('`tage` muss eine ganze Zahl von 0 bis 365 sein (du gabst 400).');
    expect(text(await retention(gm, { days: 400 }, 'fr'))).toContain('400');
    expect(text(await retention(gm, {}, 'de', 30))).toBe(
      'Verlässt der Bot diesen Server, werden dessen Daten innerhalb einer Stunde gelöscht: die eigene Einstellung für diesen Server (Vorgabe des Betreibers: 30 Tage).',
    );
  });
});
