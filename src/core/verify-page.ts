import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Attachment } from './command.js';

/**
 * verify.html as an attachment: `npm run build` writes it to dist/verify.html; the built
 * bot finds it beside dist/src, the sources (tests, tsx) in dist/ of the checkout. Read once.
 * Undefined when it was never built, and the replies then leave it out.
 */
let cached: Buffer | null | undefined;

export function verifyPage(): Attachment | undefined {
  if (cached === undefined) {
    const built = import.meta.url.endsWith('.ts') ? '../../dist/verify.html' : '../../verify.html';
    const file = fileURLToPath(new URL(built, import.meta.url));
    cached = fs.existsSync(file) ? fs.readFileSync(file) : null;
  }
  return cached ? { name: 'verify.html', data: cached } : undefined;
}
