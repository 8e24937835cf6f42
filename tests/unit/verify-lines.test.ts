import { Buffer } from 'node:buffer';
import { forgedHash } from '../helpers/forge.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, LineSplitter } from '../../src/verify/lines.js';
import { fastRow } from '../../src/verify/fast-row.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { SAMPLE } from '../helpers/verify-corpus.js';

// The one reader of an export's bytes: the lines it gives do not depend on where the
// chunks were cut, and each rule has one verdict, written here.

function read(bytes: Uint8Array, cuts: number[] = []) {
  const lines: [number, string][] = [];
  const s = new LineSplitter((line, n) => lines.push([n, line]));
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    s.push(bytes.subarray(at, cut));
    at = cut;
  }
  s.push(bytes.subarray(at));
  s.end();
  return { lines, bom: s.bom, failure: s.failure };
}

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('LineSplitter', () => {
  it('LF, CRLF, a CR inside a line, no newline at the end, a byte-order mark', () => {
    expect(read(bytes('a\nb\r\nc\rd\ne'))).toEqual({
      lines: [
        [1, 'a'],
        [2, 'b'],
        [3, 'c\rd'],
        [4, 'e'],
      ],
      bom: false,
      failure: undefined,
    });
    expect(read(bytes('\uFEFFa\n'))).toEqual({ lines: [[1, 'a']], bom: true, failure: undefined });
    // A byte-order mark anywhere but the start is the line's own text.
    expect(read(bytes('a\n\uFEFFb\n')).lines).toEqual([
      [1, 'a'],
      [2, '\uFEFFb'],
    ]);
  });

  it('bytes that are not UTF-8 stop the reading at their line, the lines before it read', () => {
    const bad = Buffer.concat([bytes('one\ntwo\n'), Buffer.from([0xc3, 0x28]), bytes('\nfour\n')]);
    expect(read(bad)).toEqual({
      lines: [
        [1, 'one'],
        [2, 'two'],
      ],
      bom: false,
      failure: 'line 3 is not UTF-8 text: an export is UTF-8 JSON Lines',
    });
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x82, 0xac, 0xff]))).toBe(4);
    expect(firstInvalidUtf8(Buffer.from([0xe2, 0x82]))).toBe(0);
  });

  it('the same lines wherever the chunks are cut, a multi-byte character split included', () => {
    const text = bytes(`${SAMPLE.trimEnd()}\r\nnon-ASCII: ünïcödé — 骰子 🎲\nlast without newline`);
    const whole = read(text);
    expect(whole.lines).toHaveLength(16);
    expect(whole.lines.at(-1)).toEqual([16, 'last without newline']);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 12 }), (cuts) => {
        expect(read(text, cuts)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps no reference to a chunk the caller may reuse', () => {
    const lines: string[] = [];
    const s = new LineSplitter((line) => lines.push(line));
    const chunk = Buffer.from('abc\nde');
    s.push(chunk);
    chunk.write('XX', 4);
    s.push(bytes('f\n'));
    s.end();
    expect(lines).toEqual(['abc', 'def']);
  });
});

describe('the fast path for plain rolls', () => {
  const plain = SAMPLE.trim()
    .split('\n')
    .find((l) => l.includes('"id":"61vv57vzgd"'))!;

  it('vouches for a plain roll whose hash holds, with its place in the chain', () => {
    expect(fastRow(plain)).toEqual({
      id: '61vv57vzgd',
      guild_id: 'fixture-guild',
      guild_seq: 10,
      channel_id: 'fixture-channel',
      system: expect.any(String),
      prev_hash: JSON.parse(plain).prev_hash,
      hash: JSON.parse(plain).hash,
    });
  });

  it('leaves every other line to the full check: an edit, a key given twice, an escape, a game row, a sealed roll', () => {
    const game = SAMPLE.trim().split('\n')[4]!;
    expect(fastRow(plain.replace('"dice":[', '"dice":[1,'))).toBeUndefined();
    expect(fastRow(game)).toBeUndefined();
    // A key given twice: JSON.parse takes the last, so only the full check may judge it.
    expect(fastRow(plain.replace(/}$/, ',"guild_id":"other"}'))).toBeUndefined();
    // The same name written with an escape: the same row, which the full check finds whole.
    const escaped = plain.replace('"user_name":"referee"', '"user_name":"\\u0072eferee"');
    expect(JSON.parse(escaped).user_name).toBe('referee');
    expect(fastRow(escaped)).toBeUndefined();
    expect(verifyExport(SAMPLE.replace(plain, escaped)).ok).toBe(true);
    // A sealed roll, even with its hash made whole, is read whole (its reveal is checked).
    const row = JSON.parse(plain);
    row.outcome = { commitment: 'ab'.repeat(32), sealed: true };
    row.hash = forgedHash(row.prev_hash, row);
    expect(fastRow(JSON.stringify(row))).toBeUndefined();
  });
});
