import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { commandDefinitions } from '../../src/discord/definitions.js';
import { alice, command, expectError, expectMessage, gm, press, testApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.ledger.close());

describe('access declared once', () => {
  it('a paging button re-checks GM status on every press: a member no longer GM pages no further', async () => {
    app = testApp();
    for (let i = 0; i < 12; i++) {
      app.dice.push(4);
      await command(app, { ...alice, channelId: `c${i % 3}` }, 'rally', { disorder: 1 });
    }
    const first = expectMessage(await command(app, { ...gm, userId: 'alice' }, 'history', { scope: 'server' }));
    const next = first.buttons.find((b) => b.label.startsWith('Older'))!;
    expect(expectMessage(await press(app, { ...gm, userId: 'alice' }, next.custom_id)).type).toBe('update');
    expect(expectError(await press(app, { ...alice }, next.custom_id))).toBe(
      "Only a GM (Manage Server, or the GM role set with /config gm-role) can see the whole server's history.",
    );
  });

  it('deploy-commands derives Discord’s fields from the declarations', () => {
    const defs = Object.fromEntries(commandDefinitions(COMMANDS).map((d) => [d.name, d]));
    for (const d of Object.values(defs)) {
      expect(d.contexts).toEqual([0]);
      expect(d.integration_types).toEqual([0]);
    }
    // GM-only commands need Manage Server by default (a server may open them to a GM role).
    for (const name of ['void', 'annotate', 'export', 'config']) expect(defs[name]!.default_member_permissions, name).toBe('32');
    for (const name of ['rally', 'hob', 'history', 'stats', 'unit', 'game']) expect(defs[name]!.default_member_permissions, name).toBeNull();
  });
});
