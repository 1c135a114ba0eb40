/**
 * The participant's name as the certificate shows it: each word capitalised (spec: "The participant
 * name on the certificate is shown with each word capitalised"). Results often come in capitals or
 * in lower case; spaces are tidied, and each part of a hyphenated or apostrophed name is a word too
 * ("MARY-ANN O'BRIEN" -> "Mary-Ann O'Brien").
 */
export function capitalizeWords(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase().replace(/(^|[-'’.])(\p{L})/gu, (_, mark: string, letter: string) => mark + letter.toUpperCase()))
    .join(' ');
}

/** "03:58:41" from what a results list holds ("3:58:41", "03:58:41.250", an interval text); null stays null. */
export function formatFinishTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const match = /^(\d{1,3}):(\d{1,2}):(\d{1,2})/.exec(value.trim());
  if (!match) return null;
  const [, h, m, s] = match;
  return `${h.padStart(2, '0')}:${m.padStart(2, '0')}:${s.padStart(2, '0')}`;
}
