import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb } from '../helpers/tmp.js';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the console exactly as a user pipes into it (npm run console -- --json), on a fresh ledger. */
function runConsole(input: string, args: string[] = []) {
  const db = tmpDb();
  const r = spawnSync('npm', ['run', '--silent', 'console', '--', '--json', '--db', db, ...args], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DISCORD_TOKEN: '', LOG_LEVEL: '' },
  });
  return { ...r, db, lines: r.stdout.split('\n').filter((l) => l !== '') };
}

describe('npm run console -- --json', () => {
  it('prints one JSON line per input line and records only the valid roll', () => {
    const r = runConsole('/rally disorder:2\n/rally disorder:0\n');
    expect(r.status).toBe(0);
    expect(r.lines).toHaveLength(2);
    const [ok, bad] = r.lines.map((l) => JSON.parse(l));
    expect(ok).toMatchObject({ ok: true, command: 'rally', system: 'hearts-of-tin', steps: [{ kind: 'rally' }] });
    expect(ok.roll_id).toMatch(/^[0-9a-z]{10}$/);
    expect(['huzzah', 'rally', 'retreat', 'rout']).toContain(ok.result);
    expect(ok.embed.footer.text).toContain(ok.roll_id);
    expect(bad).toEqual({
      ok: false,
      command: 'rally',
      error: '`disorder` must be a whole number from 1 to 30 (you gave 0): a unit with no disorder does not need to rally.',
    });
    const ledger = Ledger.open(r.db);
    expect(ledger.count('console-guild')).toBe(1);
    expect(ledger.verify('console-guild')).toMatchObject({ ok: true, count: 1 });
    ledger.close();
  });

  it('--locale de answers as the bot answers a German player: results and refusals in German', () => {
    const r = runConsole('/rally disorder:2\n/rally disorder:0\n', ['--locale', 'de']);
    expect(r.status).toBe(0);
    const [ok, bad] = r.lines.map((l) => JSON.parse(l));
    expect(ok.embed.title).toMatch(/^Sammelwurf — (Hurra!|Sammeln|Rückzug|Flucht)$/);
    expect(ok.embed.fields.map((f: { name: string }) => f.name)).toContain('Würfel');
    expect(bad.error).toMatch(/^`unordnung` muss eine ganze Zahl von 1 bis 30 sein/);
  });

  it('presses a button, switches users, and enforces who may press', () => {
    // Militia with 4 markers: Final ≤ 6 − 1 − 3 = 2, so whatever the die, the rally fails.
    const first = runConsole('/rally disorder:4 quality:militia commander_near:true\n');
    const failed = JSON.parse(first.lines[0]!);
    expect(['retreat', 'rout']).toContain(failed.result);
    const id = failed.buttons[0].custom_id;
    expect(failed.buttons[0].label).toBe('Commander joins — re-roll');
    const script = [`as mallory`, `press ${id}`, `as referee gm`, `press ${id}`, `press ${id}`].join('\n');
    const r = spawnSync('npm', ['run', '--silent', 'console', '--', '--json', '--db', first.db], {
      cwd: ROOT,
      input: `${script}\n`,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(5);
    expect(out[0]).toEqual({ ok: true, as: { user: 'mallory', gm: false } });
    expect(out[1]).toMatchObject({ ok: false, command: 'press', error: 'Only player, who rolled this rally, or a GM can call the commander in.' });
    expect(out[3]).toMatchObject({ ok: true, command: 'rally', parent_roll_id: failed.roll_id, updated_message: true, buttons: [] });
    expect(out[3].steps[0].kind).toBe('commander_reroll');
    expect(out[4]).toMatchObject({ ok: false, error: expect.stringContaining('already joined') });
  });

  it('Lightning War and disorder: a result, a clear error, and two disorder markers gained', () => {
    const r = runConsole(
      '/morale morale:leery casualties:2/5 cover:soft\n/morale morale:professional casualties:3/2\n/disorder strength:4 lost:1 melee:defeated\n',
    );
    const [morale, bad, disorder] = r.lines.map((l) => JSON.parse(l));
    expect(r.lines).toHaveLength(3);
    expect(morale).toMatchObject({ ok: true, command: 'morale', system: 'lightning-war', steps: [{ kind: 'morale' }] });
    expect(morale.steps[0].dice).toHaveLength(3);
    expect(bad).toMatchObject({ ok: false, command: 'morale', error: expect.stringContaining('more lost than the original strength') });
    expect(disorder).toMatchObject({ ok: true, command: 'disorder', result: 'disorder', steps: [{ markers: 2 }] });
  });

  it('ASL: two results and one clear refusal', () => {
    const r = runConsole('/hob unit:"German 4-6-7" broken:true\n/mc unit:"Russian 4-4-7" number:2 leader_drm:-1\n/hob unit:"German crew"\n');
    const [hob, mc, crew] = r.lines.map((l) => JSON.parse(l));
    expect(r.lines).toHaveLength(3);
    expect(hob).toMatchObject({
      ok: true,
      command: 'hob',
      system: 'asl',
      steps: [{ kind: 'hob', modifiers: [{ reason: 'broken when the Original 2 was rolled', value: 1 }] }],
    });
    expect(hob.steps[0].dice).toHaveLength(2);
    expect(['hero', 'hero_and_battle_hardening', 'battle_hardening', 'berserk', 'surrender', 'disrupted']).toContain(hob.result);
    // Real dice: an Original 2 would add a chained hob step, so only the first step is pinned here.
    expect(mc).toMatchObject({ ok: true, command: 'mc' });
    expect(mc.steps[0]).toMatchObject({ kind: 'mc', ml: 7, modifiers: [{ reason: '2MC', value: 2 }, { value: -1 }] });
    expect(crew).toMatchObject({
      ok: false,
      command: 'hob',
      error: expect.stringContaining('crews, inherent or temporary, are not subject to Heat of Battle (A15.1)'),
    });
  });

  it('/odds prints the outcome table, and its probabilities sum to 1', () => {
    const r = runConsole('/odds roll:"rally disorder:2 quality:militia commander_near:true"\n');
    expect(r.lines).toHaveLength(1);
    const out = JSON.parse(r.lines[0]!);
    expect(out).toMatchObject({ ok: true, command: 'odds', attachments: [{ name: 'odds.png' }] });
    // No chart is left in a temporary folder; it is kept where the console says, beside its ledger.
    expect(path.dirname(out.attachments[0].path)).toBe(path.join(path.dirname(r.db), 'console-files'));
    expect(fs.statSync(out.attachments[0].path).size).toBe(out.attachments[0].bytes);
    const rows = [...out.embed.description.matchAll(/^(\S.*?)\s+(\d+)\/(\d+)\s+[\d.]+%$/gm)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
    expect(rows).toEqual([
      ['Rally', 11, 36],
      ['Retreat', 5, 12],
      ['Rout, commander lost', 5, 18],
    ]);
    expect(rows.reduce((a, [, n, d]) => a + (n as number) * (36 / (d as number)), 0)).toBe(36);
    const ledger = Ledger.open(r.db);
    expect(ledger.count('console-guild')).toBe(0);
    ledger.close();
  });

  it('a Wacht am Rhein session: fatigue, quartering, two recoveries, and a second channel sees none of it', () => {
    const unit = 'unit:"1/506 PIR"';
    const r = runConsole(
      `${[
        '/game start system:wacht-am-rhein name:"The Bulge"',
        '/unit add name:"1/506 PIR" fields:"attack:7 defense:5 movement:6"',
        `/fatigue event ${unit} event:ena_activated`,
        `/fatigue status ${unit}`,
        '/game turn number:1 phase:resting',
        `/fatigue recover ${unit} adjacent_enemy:false moved:false`,
        '/game turn number:2 phase:resting',
        `/fatigue recover ${unit} adjacent_enemy:false moved:false`,
        'in second-channel',
        '/game status',
        `/unit show ${unit}`,
        `complete /unit show unit:1`,
      ].join('\n')}\n`,
    );
    const out = r.lines.map((l) => JSON.parse(l));
    expect(out).toHaveLength(12);
    expect(out.slice(0, 8).every((o) => o.ok)).toBe(true);
    expect(out[2]).toMatchObject({ command: 'fatigue', result: 'fatigued' });
    expect(JSON.stringify(out[3].embed)).toContain('**2-2-2** (quartered, rounded up, from 7-5-6)');
    expect(out[5]).toMatchObject({ result: 'resting' });
    expect(out[7]).toMatchObject({ result: 'normal' });
    expect(out[9]).toMatchObject({ ok: false, error: expect.stringContaining('No game is running in this channel') });
    expect(out[10]).toMatchObject({ ok: false });
    expect(out[11]).toEqual({ ok: true, command: 'unit', choices: [] });
  });

  it('a GM lists and pages history, voids a roll, exports, and the export verifies (and fails after one byte changes)', async () => {
    const luck = createHash('sha256').update('my own luck', 'utf8').digest('hex');
    const game = ['/game start system:lightning-war name:Kursk', '/game join side:axis', `/game seed commit:${luck}`, '/game seed reveal:"my own luck"'];
    const rolls = Array.from({ length: 11 }, (_, i) => `/morale morale:professional unit:"Platoon ${i}"`);
    const first = runConsole(`${[...game, ...rolls, '/game end'].join('\n')}\n`, ['--gm']);
    const out = first.lines.map((l) => JSON.parse(l));
    expect(out.every((o) => o.ok)).toBe(true);
    const victim = out[14].roll_id; // the newest roll, on the first page
    // The export is kept in the folder --files names (without it, in console-files/ beside the ledger).
    const kept = path.join(path.dirname(first.db), 'kept');
    const r = spawnSync('npm', ['run', '--silent', 'console', '--', '--json', '--gm', '--db', first.db, '--files', kept], {
      cwd: ROOT,
      input: `${['/history scope:server', 'press', `/void id:${victim} reason:"measured from the wrong hex"`, '/history', '/export'].join('\n')}\n`,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const [page1, page2, voided, again, exported] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(page1.embed.footer.text).toMatch(/^whole server · page 1 of 2 · 11 rolls/);
    expect(page2).toMatchObject({ ok: true, updated_message: true });
    expect(voided).toMatchObject({ ok: true, command: 'void' });
    expect(again.embed.description).toContain('*(void: measured from the wrong hex)*');
    const jsonl = exported.attachments.find((a: { name: string }) => a.name.endsWith('.jsonl')).path;
    expect(path.dirname(jsonl)).toBe(kept);
    const verify = (file: string) => spawnSync('npm', ['run', 'verify', '--', file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const good = verify(jsonl);
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/chain intact, 17 rows/); // start, side joined, seed commitment and reveal, 11 rolls, end, void
    expect(good.stdout).toMatch(/seed matches its commitment; all 11 rolls' dice recomputed and equal/);
    const text = fs.readFileSync(jsonl, 'utf8');
    const at = text.indexOf('"user_name":"player"') + '"user_name":"p'.length;
    fs.writeFileSync(jsonl, `${text.slice(0, at)}P${text.slice(at + 1)}`);
    const bad = verify(jsonl);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/chain BROKEN at row [0-9a-z]{10} \(position 1\)/);
  });

  it('a one-shot /export leaves no spool behind: its files are removed before the process ends', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'console-spool-'));
    const r = spawnSync('npm', ['run', '--silent', 'console', '--', '--json', '--gm', '--db', path.join(tmp, 'c.db')], {
      cwd: ROOT,
      input: '/rally disorder:1 unit:Rifles\n/export\n',
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, TMPDIR: tmp },
    });
    const [, exported] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(exported).toMatchObject({ ok: true, command: 'export' });
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('morale-officer-spool-'))).toEqual([]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('an unreadable line is an error line, not a crash', () => {
    const r = runConsole('/rally unit:"open\nnonsense\n/rally disorder\n/help\n/roll 3d6\n');
    const out = r.lines.map((l) => JSON.parse(l));
    expect(out.map((o) => o.ok)).toEqual([false, false, false, true, false]);
    // Each says how the command is written ("/roll 3d6" once got no suggestion).
    expect(out[2].error).toBe(
      'expected option:value after /rally, got "disorder". For example /rally disorder:2 quality:militia commander_near:true unit:"1st Foot"',
    );
    expect(out[4].error).toBe(
      'expected option:value after /roll, got "3d6". /roll takes one of: dice, show, receipt; for example /roll dice expression:4d6kh3. Did you mean /roll dice expression:3d6?',
    );
  });
});

// Trying the bot offline never writes into the bot's own history.
describe('the console ledger', () => {
  it('defaults to data/console.db, says so on start, and leaves DATABASE_PATH (the bot ledger) alone', () => {
    const dir = path.dirname(tmpDb());
    const bot = path.join(dir, 'bot.db');
    Ledger.open(bot).close();
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/console/main.js'), '--json'], {
      cwd: dir,
      input: '/rally disorder:1 unit:Rifles\n',
      encoding: 'utf8',
      env: { ...process.env, DATABASE_PATH: bot, DISCORD_TOKEN: '', LOG_LEVEL: '' },
    });
    expect(r.status, r.stderr).toBe(0);
    const own = path.join(dir, 'data/console.db');
    expect(r.stderr).toBe(`Morale Officer offline console · ledger ${own}\n`);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, command: 'rally' });
    const botLedger = Ledger.open(bot);
    expect(botLedger.count('console-guild')).toBe(0);
    botLedger.close();
    const consoleLedger = Ledger.open(own);
    expect(consoleLedger.count('console-guild')).toBe(1);
    consoleLedger.close();
    expect((fs.statSync(own).mode & 0o777).toString(8)).toBe('600');
  });
});
