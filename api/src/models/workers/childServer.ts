import type { ChildMemory, WorkerReply } from './serialWorker';

/**
 * The child side of a SerialWorker: loads the models once, reports ready (or why not), then answers
 * each request with its result and the process's memory (for the parent's ceiling and benchmarks).
 */
export function serveRequests<Engine, Request extends { id: number }, Result extends object>(
  load: () => Promise<Engine>,
  handle: (engine: Engine, request: Request) => Promise<Result>,
): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('a model process must be started by the API (child_process.fork with IPC)');
  // The parent gone (closed, crashed or killed): end, never linger as an orphan holding the models.
  process.on('disconnect', () => process.exit(0));
  // Ctrl-C reaches the whole process group; the API stops its children itself when it shuts down.
  process.on('SIGINT', () => undefined);
  const memory = (): ChildMemory => ({ rss: process.memoryUsage.rss(), peakRss: process.resourceUsage().maxRSS * 1024 });

  const engineReady = load();
  // Report a load failure once, so the parent fails fast instead of waiting for a reply.
  engineReady.then(
    () => send({ ready: true }),
    (error: unknown) => send({ ready: false, error: error instanceof Error ? error.message : String(error) }),
  );

  process.on('message', (request: Request) => {
    void (async () => {
      let reply: WorkerReply<Result>;
      try {
        reply = { id: request.id, ...(await handle(await engineReady, request)) };
      } catch (error) {
        reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
      }
      if (process.connected) send({ ...reply, memory: memory() });
    })();
  });
}
