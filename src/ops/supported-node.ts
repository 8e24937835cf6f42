/**
 * Imported first by every entry point, and importing nothing itself: on a Node older than the one
 * package.json's engines names, one clear line and exit before anything else loads. Without it the
 * first sign is the SQLite addon's own failure (a crash, or its ABI number: no word of which Node is
 * needed).
 */

/** package.json's `engines.node`, as a lower bound; a test holds the two equal. */
export const NODE_ENGINES = '>=22.12.0';

/** The same code as a configuration error everywhere (systemd does not restart on it). */
const EX_CONFIG = 78;

const parts = (version: string) =>
  version
    .replace(/^v/, '')
    .split('.')
    .map((p) => Number.parseInt(p, 10) || 0);

/** The line to print when `version` is below `range` (`>=X.Y.Z`), or undefined when it is enough. */
export function nodeTooOld(version: string, range = NODE_ENGINES): string | undefined {
  const min = parts(range.replace(/^>=\s*/, ''));
  const have = parts(version);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > (min[i] ?? 0)) return undefined;
    if ((have[i] ?? 0) < (min[i] ?? 0)) {
      const needed = range.replace(/^>=\s*/, '');
      return `Morale Officer needs Node.js ${needed} or later (22, 24 or 26); this is Node.js ${version.replace(/^v/, '')} (${process.execPath}). Put a newer node first on PATH (and run npm ci again if node_modules was installed under this one).`;
    }
  }
  return undefined;
}

const refusal = nodeTooOld(process.versions.node);
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(EX_CONFIG);
}
