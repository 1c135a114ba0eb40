import { createContext } from 'react';

/**
 * What this deployment's copy of antd already has above (one copy of shared per deployment):
 * nothing, or the theme and antd's App (AntdRoot).
 */
export const AntdRootLevel = createContext<'none' | 'app'>('none');
