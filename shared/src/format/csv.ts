/**
 * CSV text of a table, as the organiser's exports download it: a header row, then one row per
 * record, fields quoted when they hold a comma, quote or line break (RFC 4180), CRLF line ends.
 * A leading =, +, - or @ is prefixed with an apostrophe so a spreadsheet never runs a cell as a formula.
 */
export type CsvCell = string | number | boolean | null | undefined;

function cellText(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(cellText).join(',')).join('\r\n') + '\r\n';
}
