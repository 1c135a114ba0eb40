import http from 'node:http';
import type net from 'node:net';

/**
 * A small HTTP proxy in front of an S3-compatible server (moto_server), for the failures a real
 * bucket has and moto does not: it forwards every request unchanged and records it, and on demand
 * answers with an S3 error (a throttle, a 5xx) or cuts an object's body after so many bytes, the
 * way a reset connection does mid-download.
 */
export interface S3Proxy {
  endpoint: string;
  /** Every request seen, in order: method and path (bucket and key). */
  requests: Array<{ method: string; path: string }>;
  /** Answer every request with this S3 error instead of forwarding it. */
  failWith: { status: number; code: string } | null;
  /** Keys whose GET body is cut (the connection destroyed) after this many bytes. */
  cutAfter: Map<string, number>;
  close(): Promise<void>;
}

const errorXml = (code: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code} from the test proxy</Message><RequestId>proxy</RequestId></Error>`;

export async function startS3Proxy(target: string): Promise<S3Proxy> {
  const upstream = new URL(target);
  const sockets = new Set<net.Socket>();
  const proxy: S3Proxy = {
    endpoint: '',
    requests: [],
    failWith: null,
    cutAfter: new Map(),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    proxy.requests.push({ method: req.method ?? 'GET', path });
    if (proxy.failWith) {
      const body = errorXml(proxy.failWith.code);
      res.writeHead(proxy.failWith.status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const cut = req.method === 'GET' ? [...proxy.cutAfter].find(([key]) => path.endsWith(`/${key}`))?.[1] : undefined;
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (cut === undefined) {
        answer.pipe(res);
        return;
      }
      let sent = 0;
      answer.on('data', (chunk: Buffer) => {
        const room = cut - sent;
        if (room > 0) res.write(chunk.subarray(0, room));
        sent += chunk.length;
        if (sent >= cut) {
          answer.destroy();
          res.socket?.destroy();
        }
      });
      answer.on('end', () => res.end());
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return proxy;
}
