import type { ReactNode } from 'react';
import { Drawer } from 'antd';
import { AntdRoot } from '@finishline/shared/react';

/** The phone's menu drawer (its own chunk, with antd and its theme: loaded when the menu is first opened, see Navbar). */
export function MenuDrawer({
  open,
  onClose,
  menu,
  account,
  signedIn,
}: {
  open: boolean;
  onClose: () => void;
  menu: ReactNode;
  account: ReactNode;
  signedIn: boolean;
}) {
  return (
    <AntdRoot component={false}>
      <Drawer open={open} onClose={onClose} title="Menu" size="default" placement="right">
        <nav aria-label="Main menu" className="fl-drawer-menu">
          {menu}
        </nav>
        <nav aria-label={signedIn ? 'Your account' : 'Account'} className="fl-drawer-menu fl-drawer-account">
          {account}
        </nav>
      </Drawer>
    </AntdRoot>
  );
}
