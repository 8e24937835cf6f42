import { describe, expect, it } from 'vitest';
import { promised } from '../../src/ledger/transaction.js';

// promised() turns a SQLite class's methods into the async contract, with no list of names kept:
// it must wrap every method, the nearest override only, and nothing else.
class Base {
  readonly field = 1;
  base() {
    return 'base';
  }
  shadowed() {
    return 'base version';
  }
}
class Child extends Base {
  private secret = 41;
  get value() {
    return this.secret;
  }
  answer(add: number) {
    return this.secret + add;
  }
  override shadowed() {
    return 'child version';
  }
  fails(): never {
    throw new Error('boom');
  }
}

describe('promised', () => {
  // Made inside each test, so that the test is the one that covers promised() (mutation testing).
  const wrapped = () => promised<Child>(new Child()) as unknown as Record<string, unknown>;

  it('wraps every method up the prototype chain as a promise, called on the object', async () => {
    const p = wrapped();
    expect(Object.keys(p).sort()).toEqual(['answer', 'base', 'fails', 'shadowed']);
    await expect((p.answer as (n: number) => Promise<number>)(1)).resolves.toBe(42);
    await expect((p.base as () => Promise<string>)()).resolves.toBe('base');
  });

  it('the nearest override wins', async () => {
    const p = wrapped();
    await expect((p.shadowed as () => Promise<string>)()).resolves.toBe('child version');
  });

  it('a throw becomes a rejection, never a synchronous throw', async () => {
    const p = wrapped();
    const call = p.fails as () => Promise<never>;
    let sync: unknown;
    let result: Promise<never> | undefined;
    try {
      result = call();
    } catch (err) {
      sync = err;
    }
    expect(sync).toBeUndefined();
    await expect(result).rejects.toThrow('boom');
  });

  it('leaves out the constructor, getters, fields and what every object has', () => {
    const p = wrapped();
    for (const k of ['constructor', 'value', 'field', 'secret', 'toString', 'hasOwnProperty', '']) expect(Object.hasOwn(p, k), k).toBe(false);
  });

  it('walks a chain that does not end at Object.prototype', async () => {
    const bare = Object.create(Object.create(null, { hello: { value: () => 'hi' } })) as { hello(): string };
    const p = promised<{ hello(): string }>(bare) as unknown as Record<string, () => Promise<string>>;
    expect(Object.keys(p)).toEqual(['hello']);
    await expect(p.hello!()).resolves.toBe('hi');
  });
});
