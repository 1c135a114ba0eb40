import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { BuildBanner, NotAvailableYet } from './placeholders';
import { AntdRoot } from './AntdRoot';

/**
 * The frame every remote's App renders: its own antd providers (antd is not shared with the shell:
 * see AntdRoot), its build banner, its routes, and for any other path the honest "not available
 * yet" page (a path the shell sends here that the remote does not know).
 */
export function RemoteRoutes({ banner, children }: { banner: string; children: ReactNode }) {
  return (
    <AntdRoot component={false}>
      <BuildBanner text={banner} />
      <Routes>
        {children}
        <Route path="*" element={<NotAvailableYet />} />
      </Routes>
    </AntdRoot>
  );
}
