/** Spec: the sentence shown in place of a photo that fails to load. */
export const IMAGE_FAILED_TEXT = 'Please refresh the page or remove this image';

export interface PhotoDescription {
  /** 'Photo', 'Video', 'Print' ... what the picture is. */
  kind?: string;
  /** 1-based place in the list it is shown in. */
  position: number;
  total: number;
  eventName?: string | null;
  /** The BIB it was found by; 'unlabeled' (or nothing) for photos with no BIB. */
  bibNumber?: string | null;
}

/**
 * The text a screen reader speaks for a result photo: what it is, where it sits in the list, which
 * race and BIB. ("Photo 3 of 24, BIB 1486, Kochi Marathon 2026")
 */
export function describePhoto({ kind = 'Photo', position, total, eventName, bibNumber }: PhotoDescription): string {
  const parts = [total > 1 ? `${kind} ${position} of ${total}` : kind];
  const bib = bibNumber?.trim();
  if (bib && bib.toLowerCase() !== 'unlabeled') parts.push(`BIB ${bib}`);
  else if (bib) parts.push('no BIB found');
  if (eventName?.trim()) parts.push(eventName.trim());
  return parts.join(', ');
}
