import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// HTTP mode reads Discord's bytes with its own schema and answers over @discordjs/rest: nothing on
// its path may lean on discord.js's client or interaction objects, whose private parts change
// without notice. Read from the sources: the modules HTTP mode loads, import by import.

type Import = { from: string; typeOnly: boolean };

/** Every import and re-export of a source file, and whether it is erased when compiled (type-only). */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: Import[] = [];
  for (const s of source.statements) {
    if ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(s) ? Boolean(s.importClause?.isTypeOnly) : s.isTypeOnly;
      out.push({ from: s.moduleSpecifier.text, typeOnly });
    }
  }
  return out;
}

/** The files a module loads when it runs (type-only imports are erased), itself included. */
function loadedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of importsOf(file)) {
      if (i.typeOnly || !i.from.startsWith('.')) continue;
      walk(path.resolve(path.dirname(file), i.from).replace(/\.js$/, '.ts'));
    }
  };
  walk(path.resolve(entry));
  return seen;
}

/** Reaching into a discord.js client's internals: its action handlers (where a raw packet becomes an interaction object). */
const CLIENT_INTERNALS = /\.actions\b|InteractionCreate\.handle/;
/** A package's insides rather than its entry point. */
const DEEP_IMPORT = /^(discord\.js|@discordjs\/[^/]+)\/.+/;

const rel = (f: string) => path.relative(process.cwd(), f);
const sourcesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => (e.isFile() && e.name.endsWith('.ts') ? [path.join(e.parentPath, e.name)] : []));

describe('HTTP mode runs on its own rails', () => {
  const loaded = loadedFrom('src/discord/http-bot.ts');

  it('loads neither the gateway client nor the discord.js interaction adapter', () => {
    const door = [...loaded].map(rel).filter((f) => f.startsWith('src/discord/'));
    expect(door).toContain('src/discord/http-interaction.ts');
    expect(door).toContain('src/discord/interaction-replies.ts');
    expect(door).not.toContain('src/discord/bot.ts');
    expect(door).not.toContain('src/discord/adapter.ts');
  });

  it('its own files take nothing from discord.js but types', () => {
    const door = [...loaded].filter((f) => rel(f).startsWith('src/discord/'));
    const valueImports = door.flatMap((f) => importsOf(f).flatMap((i) => (i.from === 'discord.js' && !i.typeOnly ? [rel(f)] : [])));
    expect(valueImports).toEqual([]);
  });

  it("no module it loads touches a client's action handlers or a package's insides", () => {
    const found = [...loaded].flatMap((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return [
        ...(CLIENT_INTERNALS.test(text) ? [`${rel(f)}: a client's actions`] : []),
        ...importsOf(f).flatMap((i) => (DEEP_IMPORT.test(i.from) ? [`${rel(f)}: ${i.from}`] : [])),
      ];
    });
    expect(found).toEqual([]);
  });

  it("no test or bench imports a discord.js internal or reaches a client's action handlers", () => {
    const self = path.resolve('tests/unit/http-door-rails.test.ts');
    const found = [...sourcesUnder('tests'), ...sourcesUnder('bench')].flatMap((f) => {
      if (path.resolve(f) === self) return [];
      const text = fs.readFileSync(f, 'utf8');
      return [
        ...(CLIENT_INTERNALS.test(text) ? [`${rel(f)}: a client's actions`] : []),
        ...importsOf(f).flatMap((i) => (DEEP_IMPORT.test(i.from) ? [`${rel(f)}: ${i.from}`] : [])),
      ];
    });
    expect(found).toEqual([]);
  });
});
