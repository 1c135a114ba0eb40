import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A page whose code (and the libraries only it uses) loads when it is first shown, from a chunk of
 * its own, rather than with the first load: `lazyPage(() => import('./pages/SignInPage'), 'SignInPage')`.
 * Render it under a <Suspense>.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any page's props
export function lazyPage<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}

/**
 * As lazyPage, with antd's App around the page (`App.useApp()`: message, notification, modal), loaded
 * with the page's own chunk, and antd's theme: for the shell, whose root has no antd at all, so that
 * antd is not part of its first load.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any page's props
export function lazyPageWithAntdApp<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(async () => {
    const [loaded, { AntdRoot }] = await Promise.all([load(), import('./AntdRoot')]);
    const Page = loaded[name];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any page's props
    const WithAntdApp = (props: any) => createElement(AntdRoot, { component: false, children: createElement(Page, props) });
    return { default: WithAntdApp as unknown as M[K] };
  });
}
