import { afterEach, describe, expect, it } from 'vitest';
import { alice, command, expectError, expectMessage, press, testApp, type TestApp } from '../helpers/app.js';

// Trust's smaller holes: an outside anchor, and saved queries that expire.
let app: TestApp;
afterEach(() => app?.ledger.close());

describe('trust, smaller holes', () => {
  it('/verify publish posts the full head hash with how to check a later export against it', async () => {
    app = testApp();
    app.dice.push(4);
    await command(app, alice, 'rally', { disorder: 1 });
    const report = app.ledger.verify('g1');
    const head = report.ok ? report.headHash : 'broken';
    const r = expectMessage(await command(app, alice, 'verify', { publish: true }));
    expect(r.type === 'message' && r.ephemeral).toBe(false);
    expect(r.embed.title).toBe('Ledger head, for pinning');
    expect(r.embed.description).toContain(`\`${head}\``);
    expect(r.embed.description).toContain(`npm run verify -- export.jsonl --head ${head}`);
  });

  it('a history page older than a day has expired', async () => {
    app = testApp();
    for (let i = 0; i < 12; i++) {
      app.dice.push(4);
      await command(app, alice, 'rally', { disorder: 1 });
    }
    const first = expectMessage(await command(app, alice, 'history', {}));
    const next = first.buttons.find((b) => b.label.startsWith('Older'))!;
    expect(expectMessage(await press(app, alice, next.custom_id)).type).toBe('update');
    app.ledger.db.prepare("UPDATE saved_queries SET created_at = '2000-01-01T00:00:00.000Z'").run();
    expect(expectError(await press(app, alice, next.custom_id))).toBe('That history page has expired (pages last a day): run /history again.');
    // Saving the next query forgets the expired one.
    await command(app, alice, 'history', {});
    expect(app.ledger.db.prepare("SELECT COUNT(*) AS n FROM saved_queries WHERE created_at < '2001'").get()).toEqual({ n: 0 });
  });
});
