import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A page whose code (and the libraries only it uses) loads when it is first shown, from a chunk of
 * its own, rather than with the first load: `lazyPage(() => import('./pages/SignInPage'), 'SignInPage')`.
 * Render it under a <Suspense>.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any page's props
export function lazyPage<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
