import type { ReactNode } from 'react';

const AS_RESULT_TITLE = { fontSize: 'inherit', fontWeight: 'inherit', lineHeight: 'inherit', color: 'inherit', margin: 0 } as const;

/**
 * The title of an antd Result that is the whole page (an empty cart, an expired search) as the page's
 * heading: antd draws the title in a div, which left such pages with no heading to find by. Looks the same.
 */
export function ResultHeading({ children }: { children: ReactNode }) {
  return <h1 style={AS_RESULT_TITLE}>{children}</h1>;
}
