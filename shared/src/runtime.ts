/**
 * The run-time contract of `@finishline/shared`: the parts that must exist ONCE in a browser tab,
 * whichever deployment's code calls them. Module Federation shares this entry as a versioned
 * singleton (`runtimeContract` in shared/package.json; strictVersion), provided by the shell:
 *
 * - the runtime config the shell loads (API address, where each remote lives);
 * - the HTTP client (one axios instance, the session token on every call) and its ApiError class
 *   (one class, so `instanceof` holds for errors thrown in another deployment's code);
 * - the shop state atoms (one cart and search result across shell and remotes).
 *
 * Everything else in shared is pure code (types, schemas, pricing, constants, API call functions,
 * React helpers) that each deployment bundles for itself, so a remote ships its changes alone.
 * Inside shared, code reaches this entry only by its package name, never by a relative path:
 * a relative import would put a second, private copy into a remote's bundle.
 */
export * from './runtime/runtimeConfig';
export * from './api/errors';
export * from './api/client';
export * from './state/shopStore';
