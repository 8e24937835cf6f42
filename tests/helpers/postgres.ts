import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL server for the ledger's PostgreSQL tests. `.ci/run` installs PostgreSQL from
 * Debian's packages, starts it in a temporary data directory as the `postgres` user and exports
 * PG_TEST_URL; without that variable this starts one the same way (when the binaries are here),
 * and otherwise the tests say loudly that they are skipped.
 */
export type TestPostgres = { url: string; stop(): void };

const binDir = () => {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const version = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version ? path.join(root, version, 'bin') : undefined;
};

/** A TCP port nothing listens on now, on loopback. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

/** Runs a PostgreSQL binary as the `postgres` user when we are root (initdb and postgres refuse root). */
function asPostgres(bin: string, args: string[]) {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(cmd, argv, { stdio: 'ignore' });
}

let shared: Promise<TestPostgres | undefined> | undefined;

/** The server for this test file (started once per file), or undefined with a notice when none can run. */
export function testPostgres(): Promise<TestPostgres | undefined> {
  shared ??= start();
  return shared;
}

async function start(): Promise<TestPostgres | undefined> {
  if (process.env.PG_TEST_URL) return { url: process.env.PG_TEST_URL, stop: () => undefined };
  return launch('ledger', 200);
}

/** A server of the test's own, which it may stop (as an administrator's fast shutdown does) and start again on the same port. */
export type OwnPostgres = TestPostgres & { down(mode?: 'fast' | 'immediate'): void; up(): void };

/** A private PostgreSQL server (never PG_TEST_URL's, which other files share), or undefined where none can run. */
export const ownPostgres = (): Promise<OwnPostgres | undefined> => launch('restart', 50);

/** initdb and start a server in a temporary folder, on a free port, as the postgres user when root. */
async function launch(tests: string, maxConnections: number): Promise<OwnPostgres | undefined> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  if (!bin || (root && spawnSync('id', ['postgres']).status !== 0)) {
    console.warn(`\n*** PostgreSQL is not installed here: the PostgreSQL ${tests} tests are SKIPPED (CI installs it). ***\n`);
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-pg-'));
  if (root) execFileSync('chown', ['postgres', dir]);
  const port = await freePort();
  const data = path.join(dir, 'data');
  asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=${maxConnections}`;
  const up = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  const down = (mode: 'fast' | 'immediate' = 'fast') => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
  up();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    up,
    down,
    stop: () => {
      try {
        down('immediate');
      } catch {
        // Already down.
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A fresh, empty database on the server for one test, and its URL. */
export async function freshDatabase(server: Pick<TestPostgres, 'url'>): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.toString();
}
