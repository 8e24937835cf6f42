import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { EXAMPLE, ExpressionError, keptDice, parseExpression, rollExpression, shapeOf, sidesOf } from '../../src/rules/dice/expression.js';
import { said } from '../../src/i18n/said.js';
import { sayIn } from '../../src/i18n/speak.js';

// /roll dice: the grammar tested production by production, every limit at its
// boundary, every refusal with the 1-based position of the first character not understood.

const refusal = (text: string) => {
  try {
    parseExpression(text);
  } catch (err) {
    if (err instanceof ExpressionError) return { at: err.position, found: err.found, wanted: sayIn('en', err.wanted) };
    throw err;
  }
  throw new Error(`${text} was accepted`);
};

describe('the grammar, production by production', () => {
  it.each([
    // a constant term, a dice term with and without its count, d%
    ['7', '7', []],
    ['0', '0', []],
    ['d6', '1d6', [6]],
    ['3d6', '3d6', [6, 6, 6]],
    ['d%', '1d100', [100]],
    ['2d%', '2d100', [100, 100]],
    // every modifier, and the short forms k (= kh) and d (= dl)
    ['4d6kh3', '4d6kh3', [6, 6, 6, 6]],
    ['4d6k3', '4d6kh3', [6, 6, 6, 6]],
    ['2d20kl1', '2d20kl1', [20, 20]],
    ['4d6dl1', '4d6dl1', [6, 6, 6, 6]],
    ['4d6d1', '4d6dl1', [6, 6, 6, 6]],
    ['3d6dh1', '3d6dh1', [6, 6, 6]],
    // terms joined by + and -, a leading -
    ['3d6+2', '3d6+2', [6, 6, 6]],
    ['2d6-1', '2d6-1', [6, 6]],
    ['-1d6+3', '-1d6+3', [6]],
    ['-3+1d6', '-3+1d6', [6]],
    ['d20+d4-2+1d8', '1d20+1d4-2+1d8', [20, 4, 8]],
    // case and whitespace do not matter, anywhere
    [' 4 D 6 K H 3 + 2 ', '4d6kh3+2', [6, 6, 6, 6]],
    ['D%', '1d100', [100]],
    ['\t2d6\n', '2d6', [6, 6]],
  ])('%j reads as %s', (text, shape, sides) => {
    const e = parseExpression(text);
    expect(shapeOf(e)).toBe(shape);
    expect(sidesOf(e)).toEqual(sides);
    // A shape is itself an expression of the same shape.
    expect(shapeOf(parseExpression(shape))).toBe(shape);
  });
});

describe('every limit, at its boundary', () => {
  it.each([
    ['1000', true],
    ['1001', false],
    ['100d6', true],
    ['101d6', false],
    ['0d6', false],
    ['d2', true],
    ['d1', false],
    ['d1000', true],
    ['d1001', false],
    ['4d6kh4', true],
    ['4d6kh5', false],
    ['4d6kh0', false],
    ['4d6kl4', true],
    ['4d6dl3', true],
    ['4d6dl4', false],
    ['4d6dh3', true],
    ['4d6dh4', false],
    ['1d6d1', false],
    [Array.from({ length: 20 }, () => '1').join('+'), true],
    [Array.from({ length: 21 }, () => '1').join('+'), false],
    ['100d6+100d6', true],
    ['100d6+100d6+1d6', false],
  ])('%s: %s', (text, ok) => {
    if (ok) expect(() => parseExpression(text)).not.toThrow();
    else expect(() => parseExpression(text)).toThrow(ExpressionError);
  });
});

describe('every refusal names where it stopped and what was wanted there', () => {
  it.each([
    ['', { at: 1, found: '', wanted: `an expression, e.g. ${EXAMPLE}` }],
    ['   ', { at: 4, found: '', wanted: `an expression, e.g. ${EXAMPLE}` }],
    ['4x6', { at: 2, found: 'x', wanted: '+ or - between terms' }],
    ['2d6 + x', { at: 7, found: 'x', wanted: 'a number or a die (d6, 2d6, d%)' }],
    ['+3', { at: 1, found: '+', wanted: 'a number or a die (d6, 2d6, d%)' }],
    ['--3', { at: 2, found: '-', wanted: 'a number or a die (d6, 2d6, d%)' }],
    ['-', { at: 2, found: '', wanted: 'a number or a die (d6, 2d6, d%)' }],
    ['3d6+', { at: 5, found: '', wanted: 'a term after the sign' }],
    ['4d', { at: 3, found: '', wanted: 'the number of sides, or % for d100' }],
    ['4dx', { at: 3, found: 'x', wanted: 'the number of sides, or % for d100' }],
    ['4d6kh', { at: 6, found: '', wanted: `the number of dice to keep (e.g. ${EXAMPLE})` }],
    ['4d6d', { at: 5, found: '', wanted: `the number of dice to drop (e.g. ${EXAMPLE})` }],
    ['2d6kh1d1', { at: 7, found: 'd', wanted: 'at most one keep or drop per term' }],
    ['2d6kh3', { at: 6, found: '3', wanted: 'dice kept must be 1–2' }],
    ['2d6d2', { at: 5, found: '2', wanted: 'dice dropped must be 1–1' }],
    ['101d6', { at: 1, found: '101', wanted: 'the number of dice must be 1–100' }],
    ['0d6', { at: 1, found: '0', wanted: 'the number of dice must be 1–100' }],
    ['2d1', { at: 3, found: '1', wanted: 'the number of sides must be 2–1000' }],
    ['2d1001', { at: 3, found: '1001', wanted: 'the number of sides must be 2–1000' }],
    ['1+1001', { at: 3, found: '1001', wanted: 'a constant must be 0–1000' }],
    ['12345678', { at: 1, found: '12345678', wanted: 'a number that large is not allowed' }],
    ['100d6+50d6+51d6', { at: 12, found: '5', wanted: 'at most 200 dice in all' }],
    [`${Array.from({ length: 20 }, () => '1').join('+')}+d6`, { at: 41, found: 'd', wanted: 'at most 20 terms' }],
    ['2d6 ! ', { at: 5, found: '!', wanted: '+ or - between terms' }],
    ['1234567', { at: 1, found: '1234567', wanted: 'a constant must be 0–1000' }],
    ['2d6kh1k1', { at: 7, found: 'k', wanted: 'at most one keep or drop per term' }],
    // A space never joins two numbers ("six sets of 4d6" is not 64d6, "3d6 3" not a d63).
    ['3d6 3', { at: 5, found: '3', wanted: 'a space never joins two numbers: put + or - between terms (e.g. 3d6+3), or write the number whole' }],
    ['6 4d6', { at: 3, found: '4', wanted: 'a space never joins two numbers: put + or - between terms (e.g. 3d6+3), or write the number whole' }],
    ['1 0', { at: 3, found: '0', wanted: 'a space never joins two numbers: put + or - between terms (e.g. 3d6+3), or write the number whole' }],
    ['2d6kh 1 2', { at: 9, found: '2', wanted: 'a space never joins two numbers: put + or - between terms (e.g. 3d6+3), or write the number whole' }],
    // A single die has nothing to drop.
    ['1d6dl1', { at: 6, found: '1', wanted: 'a single die cannot drop one: drop from two or more dice (e.g. 2d20dl1)' }],
    ['d20dh1', { at: 6, found: '1', wanted: 'a single die cannot drop one: drop from two or more dice (e.g. 2d20dl1)' }],
    // Another bot's advantage and disadvantage, refused at the sign with ours.
    ['-d20', { at: 1, found: '-', wanted: 'a sign before a die with no count is not a dice term here; for disadvantage write 2d20kl1 (the lower of two d20)' }],
    ['+d20', { at: 1, found: '+', wanted: 'a sign before a die with no count is not a dice term here; for advantage write 2d20kh1 (the higher of two d20)' }],
    [
      ' - D20+3',
      { at: 2, found: '-', wanted: 'a sign before a die with no count is not a dice term here; for disadvantage write 2d20kl1 (the lower of two d20)' },
    ],
    // Constants take no dice: the 200 still count across them.
    ['2+100d6+100d6+d6', { at: 15, found: 'd', wanted: 'at most 200 dice in all' }],
  ])('%j', (text, expected) => {
    expect(refusal(text)).toEqual(expected);
  });
});

describe('the example a refusal gives', () => {
  it('is a valid expression, written out here', () => {
    expect(refusal('')).toEqual({ at: 1, found: '', wanted: 'an expression, e.g. 4d6kh3+2' });
    expect(shapeOf(parseExpression(EXAMPLE))).toBe('4d6kh3+2');
  });
});

describe('the refusal as a sentence', () => {
  it('names the character when there is one, and only the place at the end of the text', () => {
    expect(new ExpressionError(4, 'x', said('expr.op')).message).toBe('character 4 ("x"): + or - between terms');
    expect(new ExpressionError(5, '', said('expr.afterSign')).message).toBe('character 5: a term after the sign');
    // The same refusal for a German player.
    expect(sayIn('de', new ExpressionError(4, 'x', said('expr.op')).said)).toBe('Zeichen 4 ("x"): + oder - zwischen Termen');
  });
});

describe('rolling', () => {
  it('draws every die in order from the roller; keeps and drops the highest or lowest, the earlier die first on a tie', () => {
    const r = rollExpression(parseExpression('4d6kh3+2-1d4'), fixedRoller([5, 2, 2, 6, 3]));
    expect(r).toEqual({
      shape: '4d6kh3+2-1d4',
      total: 13 + 2 - 3,
      terms: [
        { text: '4d6kh3', sign: 1, dice: [5, 2, 2, 6], kept: [true, true, false, true], subtotal: 13 },
        { text: '2', sign: 1, dice: [], kept: [], subtotal: 2 },
        { text: '1d4', sign: -1, dice: [3], kept: [true], subtotal: -3 },
      ],
    });
  });

  it.each([
    [[3, 1, 4, 1], { mode: 'kh', k: 2 }, [true, false, true, false]],
    [[3, 1, 4, 1], { mode: 'kl', k: 2 }, [false, true, false, true]],
    [[3, 1, 4, 1], { mode: 'dl', k: 1 }, [true, true, true, false]],
    [[3, 1, 4, 1], { mode: 'dh', k: 1 }, [true, true, false, true]],
    [[2, 2, 2], { mode: 'kh', k: 1 }, [true, false, false]],
    [[2, 2, 2], { mode: 'kl', k: 2 }, [true, true, false]],
    [[3, 1, 1], { mode: 'kl', k: 1 }, [false, true, false]],
    [[1, 3, 3], { mode: 'kh', k: 1 }, [false, true, false]],
  ] as const)('%j %j → %j', (dice, keep, kept) => {
    expect(keptDice([...dice], { ...keep })).toEqual(kept);
  });
});
