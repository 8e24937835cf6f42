import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/core/command.js';
import { alice, command, gm, oddsRoll, subcommand, testApp, type TestApp } from '../helpers/app.js';

/**
 * A result code (`rout_commander_lost`, `battle_hardening`) is the ledger's word,
 * never the player's. Every reply of a session through the router — rolls of each system, /odds of
 * each, /history, /roll show, the roster — is read as a player reads it: outside code spans, links,
 * mentions and the footer's ids, no snake_case word is left.
 */
const SNAKE = /(?<![\w/:.-])[a-z]+(?:_[a-z0-9]+)+(?![\w/-])/g;

function playerText(r: Reply): string {
  if (r.type !== 'message' && r.type !== 'update') return '';
  const e = r.embed;
  const files = r.type === 'message' ? (r.files ?? []).map((f) => f.description) : [];
  const parts = [e.title, e.description, ...(e.fields ?? []).flatMap((f) => [f.name, f.value]), ...r.buttons.map((b) => b.label), ...files];
  // A table in a code block (the odds) is read; the stored input of /roll show is the record itself.
  return parts
    .filter(Boolean)
    .join('\n')
    .replace(/```json[\s\S]*?```/g, '')
    .replace(/```/g, '')
    .replace(/`[^`]*`/g, '')
    .replace(/<[@#!&t:][^>]*>/g, '')
    .replace(/\(https?:[^)]*\)/g, '');
}

async function session(app: TestApp): Promise<[string, Reply][]> {
  const out: [string, Reply][] = [];
  const run = async (label: string, p: Promise<Reply>) => out.push([label, await p]);
  app.dice.push(1, 1, 1, 2);
  await run('/mc with a chained HoB', command(app, alice, 'mc', { unit: 'Russian 4-4-7' }));
  app.dice.push(3, 4);
  await run('/hob', command(app, alice, 'hob', { unit: 'German 4-6-7' }));
  app.dice.push(1);
  await run('/rally rout, the re-roll offered', command(app, alice, 'rally', { disorder: 2, commander_near: true }));
  app.dice.push(1, 1, 1);
  await run('/morale', command(app, alice, 'morale', { morale: 'leery', casualties: '2/5' }));
  await run('/disorder', command(app, alice, 'disorder', { lost: 3, strength: 10 }));
  await run('/brigade', command(app, alice, 'brigade', { original: 24, lost: 12, brigade: 'Highland Brigade' }));
  await run('/fatigue', subcommand(app, alice, 'fatigue', 'event', { event: 'ena_activated', status: 'normal' }));
  for (const [name, o] of [
    ['rally', { disorder: 2, commander_near: true }],
    ['morale', { morale: 'leery' }],
    ['hob', { unit: 'German 4-6-7' }],
    ['mc', { unit: 'Russian 4-4-7' }],
    ['mc', { unit: 'Russian 4-4-7', check: 'rally', leader_drm: -1, broken: true }],
  ] as const)
    await run(`/odds ${name}`, command(app, alice, 'odds', oddsRoll(name, o)));
  await run('/history', command(app, alice, 'history', {}));
  const ids = app.ledger.history.page({ guildId: 'g1' }, 20, 0).rows.map((r) => r.id);
  for (const id of ids) await run(`/roll show ${id}`, subcommand(app, gm, 'roll', 'show', { id }));
  return out;
}

describe('the words a player reads', () => {
  it('no result code or other snake_case key reaches a reply', async () => {
    const app = testApp();
    const replies = await session(app);
    expect(replies.length).toBeGreaterThan(15);
    expect(replies.filter(([, r]) => r.type === 'error').map(([label, r]) => `${label}: ${JSON.stringify(r)}`)).toEqual([]);
    const found = replies.flatMap(([label, r]) => [...playerText(r).matchAll(SNAKE)].map((m) => `${label}: ${m[0]}`));
    expect(found).toEqual([]);
    app.ledger.close();
  });

  it('the check can fail: a code left in a reply is caught', () => {
    const r = { type: 'message', ephemeral: false, embed: { title: 'Rally — rout_commander_lost' }, buttons: [] } as Reply;
    expect([...playerText(r).matchAll(SNAKE)].map((m) => m[0])).toEqual(['rout_commander_lost']);
  });
});
