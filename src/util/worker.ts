import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A worker thread on a module (`moduleUrl`, resolved beside the caller's own module). Built, it is
 * plain JS; run from the TypeScript sources (tests, `npm run console`) the worker first registers
 * tsx's loader, which a worker does not inherit.
 */
export function startWorker(moduleUrl: URL, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const ts = moduleUrl.pathname.endsWith('.ts');
  if (!ts) return new Worker(moduleUrl, { workerData, resourceLimits });
  // tsx's ESM register API (the `import` side of its "./esm/api" export), then the entry.
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = pathToFileURL(path.join(path.dirname(pkg), 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl.href)}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}

/** The one message a worker answers with (`{ result }` or `{ error }`), as a promise; an exit before it is a failure. */
export function answerOf<T>(worker: Worker, name: string): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    worker.once('message', (m: { result?: T; error?: string }) => {
      settled = true;
      if (m.error === undefined) resolve(m.result as T);
      else reject(new Error(`${name}: ${m.error}`));
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`${name} exited with code ${code} before answering`));
    });
  });
}

/** A module beside `from` (an import.meta.url), with the extension `from` has (.ts from the sources, .js built). */
export const besideModule = (from: string, name: string) => new URL(`./${name}.${from.endsWith('.ts') ? 'ts' : 'js'}`, from);
