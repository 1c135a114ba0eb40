import { useContext, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider } from 'antd';
import { useFinishlineTheme } from './theme';
import { AntdRootLevel } from './antdRootLevel';

/**
 * antd's providers for one deployment's copy of antd: the one Finishline theme (ConfigProvider) and
 * antd's App (the message, notification and modal that `App.useApp()` returns).
 *
 * antd is not a Module Federation singleton: each deployment bundles only the antd components it
 * uses. A copy's contexts are its own, so a remote rendered inside the shell does not see the
 * shell's providers and must render its own (its App does); two copies of the same antd version
 * with the same theme produce the same class names and styles, so a remote looks as it did.
 * `component={false}` (a remote inside the shell) adds no element; the shell's and a standalone
 * harness's root is antd's `.ant-app` div, which sets the text font and colour for the page.
 * A second AntdRoot of the same copy (a remote's App inside its own standalone harness) adds nothing.
 * The shell's root has no antd at all (its chrome is plain React); its pages and overlays that use
 * antd render AntdRoot (component={false}) from their own chunks.
 */
export function AntdRoot({ children, component = 'div' }: { children: ReactNode; component?: 'div' | false }) {
  const theme = useFinishlineTheme();
  const level = useContext(AntdRootLevel);
  if (level === 'app') return <>{children}</>;
  return (
    <ConfigProvider theme={theme}>
      <AntdApp component={component}>
        <AntdRootLevel.Provider value="app">{children}</AntdRootLevel.Provider>
      </AntdApp>
    </ConfigProvider>
  );
}
