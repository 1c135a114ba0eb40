import { Button } from 'antd';
import { toCsv, type CsvCell } from '../format/csv';

/** Saves a blob as a file through the browser (a temporary object URL and a link click). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later: the browser may still be reading it when click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text as a file (with a byte order mark, so spreadsheet programs read UTF-8). */
export function downloadTextFile(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob(['\uFEFF', text], { type }), fileName);
}

/**
 * "Export CSV" for a table: the header and rows given are exactly what the table shows (every page),
 * so the file and the screen cannot disagree.
 */
export function CsvButton({
  fileName,
  header,
  rows,
  label = 'Export CSV',
}: {
  fileName: string;
  header: readonly string[];
  rows: readonly (readonly CsvCell[])[];
  label?: string;
}) {
  return (
    <Button size="small" onClick={() => downloadTextFile(fileName, toCsv(header, rows))} aria-label={`${label}: ${fileName}`}>
      {label}
    </Button>
  );
}
