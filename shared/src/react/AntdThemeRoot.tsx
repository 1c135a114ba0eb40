import type { ReactNode } from 'react';
import { ConfigProvider, theme as antdTheme } from 'antd';
import { useFinishlineTheme } from './theme';
import { AntdRootLevel } from './antdRootLevel';

/** The page's text font and colour, as antd's `.ant-app` root sets them, from the theme's tokens. */
function TextRoot({ children }: { children: ReactNode }) {
  const { token } = antdTheme.useToken();
  return <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>{children}</div>;
}

/**
 * The theme half of AntdRoot, for the shell's root: the one Finishline theme (ConfigProvider) and the
 * page's text font and colour, without antd's App, whose message, notification and modal (antd's
 * Modal, Notification, Message) would otherwise be part of the shell's first load. The shell's own
 * pages that show messages render AntdRoot inside (it then adds only antd's App, no element), from
 * their own chunks.
 */
export function AntdThemeRoot({ children }: { children: ReactNode }) {
  const theme = useFinishlineTheme();
  return (
    <ConfigProvider theme={theme}>
      <AntdRootLevel.Provider value="theme">
        <TextRoot>{children}</TextRoot>
      </AntdRootLevel.Provider>
    </ConfigProvider>
  );
}
