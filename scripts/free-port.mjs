import net from 'node:net';

/** A loopback port nothing listens on right now (for tests that start a server of their own). */
export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
