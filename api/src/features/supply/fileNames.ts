// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const INVISIBLE_OR_CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name a photographer's file is shown under: the browser sends whatever the file was called, and
 * a crafted request anything at all ("../../x.jpg", control or text-direction characters). Only the
 * part after the last slash or backslash is kept, without those characters; null when nothing is
 * left. Migration 540 applied the same rule to the names stored before.
 */
export function displayFileName(sent: string): string | null {
  const base = sent.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(INVISIBLE_OR_CONTROL, '').trim().slice(0, 255);
  return clean === '' || /^\.+$/.test(clean) ? null : clean;
}
