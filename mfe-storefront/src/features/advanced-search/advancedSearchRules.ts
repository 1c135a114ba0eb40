/** Rows per table page; Previous/Next show only when there are more rows than that (spec). */
export const ROWS_PER_PAGE = { theme: 4, year: 5 } as const;
export type AdvancedMode = keyof typeof ROWS_PER_PAGE;

export function needsPaging(mode: AdvancedMode, rows: number): boolean {
  return rows > ROWS_PER_PAGE[mode];
}

export function pageCount(mode: AdvancedMode, rows: number): number {
  return Math.max(1, Math.ceil(rows / ROWS_PER_PAGE[mode]));
}

export function pageRows<T>(mode: AdvancedMode, rows: T[], page: number): T[] {
  const size = ROWS_PER_PAGE[mode];
  return rows.slice(page * size, page * size + size);
}
