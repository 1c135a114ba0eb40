import { useState, type ReactElement } from 'react';
import { Dropdown, type MenuProps } from 'antd';
import { AntdRoot } from '@finishline/shared/react';

/**
 * The signed-in account menu (its own chunk, with antd and its theme: only a signed-in header renders it, see Navbar).
 * `initiallyOpen`: the button was clicked before this file arrived, so the menu opens at once.
 */
export function AccountDropdown({ menu, initiallyOpen, children }: { menu: MenuProps; initiallyOpen: boolean; children: ReactElement }) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <AntdRoot component={false}>
      <Dropdown menu={menu} trigger={['click']} placement="bottomRight" open={open} onOpenChange={setOpen}>
        {children}
      </Dropdown>
    </AntdRoot>
  );
}
