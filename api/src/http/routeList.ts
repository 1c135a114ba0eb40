import type { FastifyInstance } from 'fastify';

/** One registered route: its method and its URL pattern as Fastify knows it (":id", "*"). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route registered on this server, in registration order. The generated suites (fuzz,
     * authorization matrix) read it, so a new route is covered by them without being listed by hand.
     */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

/**
 * Records every route registered after this call. HEAD routes that Fastify derives from a GET are
 * left out: they run the GET's handler, which its GET entry already covers.
 */
export function collectRegisteredRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' && routes.some((known) => known.method === 'GET' && known.url === route.url)) continue;
      routes.push({ method, url: route.url });
    }
  });
}
