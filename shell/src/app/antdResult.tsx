import type { ComponentProps } from 'react';
import { Result as AntdResult } from 'antd';
import { AntdRoot } from '@finishline/shared/react';

/** A chunk of its own for antd's Result, with antd's theme (see StatusResult.tsx; the shell's root has no antd). */
export function Result(props: ComponentProps<typeof AntdResult>) {
  return (
    <AntdRoot component={false}>
      <AntdResult {...props} />
    </AntdRoot>
  );
}
