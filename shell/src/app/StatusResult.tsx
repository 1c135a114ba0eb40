import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import type { Result as AntdResult } from 'antd';

type Props = Pick<ComponentProps<typeof AntdResult>, 'status' | 'title' | 'subTitle' | 'extra'> & { [data: `data-${string}`]: string | undefined };

/** The same words without antd's illustration: what shows if the illustrated screen's own file cannot be fetched either. */
function PlainResult({ title, subTitle, extra, status: _status, ...data }: Props & { status?: unknown }): ReactNode {
  return (
    <div {...data} role="status" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div style={{ fontSize: 24, marginBottom: 8 }}>{title}</div>
      {subTitle ? <div style={{ color: 'rgba(0,0,0,0.45)', marginBottom: 24 }}>{subTitle}</div> : null}
      {extra}
    </div>
  );
}

// antd's Result (its status illustrations are most of its size) is only needed when a remote fails,
// so it is not part of the shell's first load.
const IllustratedResult = lazy(() =>
  import('./antdResult').then(
    ({ Result }) => ({ default: Result }),
    () => ({ default: PlainResult }),
  ),
);

/** antd's Result screen, loaded when first shown (a failed remote's message); its words show at once meanwhile. */
export function StatusResult(props: Props) {
  return (
    <Suspense fallback={<PlainResult {...props} />}>
      <IllustratedResult {...props} />
    </Suspense>
  );
}
