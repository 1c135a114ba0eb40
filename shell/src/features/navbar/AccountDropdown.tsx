import type { ReactElement } from 'react';
import { Dropdown, type MenuProps } from 'antd';

/** The signed-in account menu (its own chunk: only a signed-in header renders it, see Navbar). */
export function AccountDropdown({ menu, children }: { menu: MenuProps; children: ReactElement }) {
  return (
    <Dropdown menu={menu} trigger={['click']} placement="bottomRight">
      {children}
    </Dropdown>
  );
}
