import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../../src/console/session.js';
import { alice, testApp } from '../helpers/app.js';

// A bare `press` presses the one button of the last reply; without one, it says so, and with more
// than one, it lists them with how to press each.
const json = async (s: ConsoleSession, line: string) => ((await s.run(line)) as { json: Record<string, any> }).json;
const EARLIER = 'Press a button of an earlier reply by its custom_id: press v1:reroll:<roll id>.';

describe('press without a custom_id', () => {
  it('before any reply, and after a reply with no button: says there is none to press', async () => {
    const app = testApp();
    const c = new ConsoleSession(app.router, alice);
    expect(await json(c, 'press')).toEqual({ ok: false, command: 'press', error: `there is no button to press yet. ${EARLIER}` });
    app.dice.push(6);
    expect(await json(c, '/rally disorder:1')).toMatchObject({ ok: true, result: 'rally', buttons: [] });
    expect(await json(c, 'press')).toEqual({
      ok: false,
      command: 'press',
      error: `there is no button on the last reply (to /rally disorder:1). ${EARLIER}`,
    });
  });

  it('after a reply with two buttons: lists each with its press line', async () => {
    const app = testApp();
    const c = new ConsoleSession(app.router, { ...alice, isGm: true });
    for (let i = 0; i < 25; i++) {
      app.dice.push(6);
      expect(await json(c, '/rally disorder:1')).toMatchObject({ ok: true });
    }
    const first = await json(c, '/history');
    expect(first.buttons).toEqual([{ custom_id: expect.stringMatching(/^v1:/), label: 'Older ▶' }]);
    const second = await json(c, 'press');
    expect(second).toMatchObject({ ok: true, updated_message: true });
    const [newer, older] = second.buttons as { custom_id: string; label: string }[];
    expect(await json(c, 'press')).toEqual({
      ok: false,
      command: 'press',
      error: `the last reply (to press) has 2 buttons; press one by its custom_id: press ${newer!.custom_id} (${newer!.label}), press ${older!.custom_id} (${older!.label}).`,
    });
  });
});
