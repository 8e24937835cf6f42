import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];
afterEach(() => {
  while (made.length) fs.rmSync(made.pop()!, { recursive: true, force: true });
});

/** A fresh folder for this test, removed after it. */
export function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-test-'));
  made.push(dir);
  return dir;
}

export const tmpDb = () => path.join(tmpDir(), 'ledger.db');
