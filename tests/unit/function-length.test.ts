import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Functions stay short, so each says one step of what it does. Every function, method
// and arrow function in src/ and commands/ is measured from its first line to its last.
const ROOT = path.resolve(__dirname, '../..');
const MAX_LINES = 80;
const files = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** Each function-like node longer than `max` lines, as "file:line name (n lines)". */
function longFunctions(file: string, max: number): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = (node as ts.FunctionDeclaration).name?.getText(source) ?? '(anonymous)';
      if (end - start + 1 > max) out.push(`${path.relative(ROOT, file)}:${start + 1} ${name} (${end - start + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('function length', () => {
  it(`no function in src/ or commands/ is over ${MAX_LINES} lines`, () => {
    const long = [...files(path.join(ROOT, 'src')), ...files(path.join(ROOT, 'commands'))].flatMap((f) => longFunctions(f, MAX_LINES));
    expect(long).toEqual([]);
  });

  it('the measure sees a long function (so the check above can fail)', () => {
    const file = path.join(ROOT, 'tests/unit/function-length.test.ts');
    expect(longFunctions(file, 5).some((l) => l.includes('longFunctions'))).toBe(true);
  });
});
