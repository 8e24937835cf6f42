import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import type { Metrics } from './metrics.js';
import type { Readiness } from './readiness.js';

/** What the operations endpoints read: the metrics, and whether the bot is ready. */
export type Ops = { metrics: Metrics; readiness: () => Promise<Readiness> };

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * GET /metrics (Prometheus text), /healthz (the process is alive and answering: always 200) and
 * /readyz (200 when ready, else 503, with the reason as JSON). False for any other request, which
 * the caller answers (the HTTP-interactions server serves these beside POST /interactions).
 */
export async function answerOps(req: http.IncomingMessage, res: http.ServerResponse, ops: Ops): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  // No pid, version or address in any body: whoever reaches this port learns only what it answers.
  if (path === '/healthz') json(res, 200, { alive: true });
  else if (path === '/readyz') {
    const r = await ops.readiness();
    json(res, r.ready ? 200 : 503, r);
  } else if (path === '/metrics') res.writeHead(200, { 'content-type': ops.metrics.contentType }).end(await ops.metrics.text());
  else return false;
  return true;
}

export type OpsServer = { port(): number; stop(): Promise<void> };

/** The operations endpoints on their own port (METRICS_PORT), bound to METRICS_HOST (loopback unless set). */
export async function startOpsServer(o: { port: number; host?: string; ops: Ops; log: Logger }): Promise<OpsServer> {
  const server = http.createServer((req, res) => {
    answerOps(req, res, o.ops)
      .then((done) => {
        if (!done) json(res, 404, { message: 'not found: GET /metrics, /healthz or /readyz' });
      })
      .catch((err: unknown) => {
        o.log.warn('an operations request failed', { err });
        if (!res.headersSent) json(res, 500, { message: 'failed' });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  o.log.info('serving metrics and health', { host: o.host ?? '127.0.0.1', port, paths: ['/metrics', '/healthz', '/readyz'] });
  return {
    port: () => port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
