import sharp from 'sharp';
import type { Db } from '../../db/db';
import type { ObjectStorage } from '../../storage/storage';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** "01:52:07" from a PostgreSQL interval text; null stays null. */
function formatFinishTime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.split('.')[0];
  if (typeof value === 'object') {
    const v = value as { hours?: number; minutes?: number; seconds?: number };
    const pad = (n: number | undefined) => String(Math.floor(n ?? 0)).padStart(2, '0');
    return `${pad(v.hours)}:${pad(v.minutes)}:${pad(v.seconds)}`;
  }
  return String(value);
}

export interface CertificateImage {
  name: string;
  data: Buffer;
}

/**
 * The ultra premium bundle's certificates for the zip's 'certs' folder: a timed finisher
 * certificate (name, BIB, finish time) drawn over the participant's first photo when there is one.
 */
export async function participantCertificates(db: Db, storage: ObjectStorage, eventId: number, bib: string, firstPhotoKey: string | null): Promise<CertificateImage[]> {
  const [participants, events] = await Promise.all([
    db.query<{ name: string; finish_time: unknown }>('select name, finish_time::text as finish_time from participants where event_id = $1 and bib_number = $2', [eventId, bib]),
    db.query<{ name: string; to_date: string }>(`select name, to_char(to_date, 'DD Mon YYYY') as to_date from events where id = $1`, [eventId]),
  ]);
  const participant = participants[0];
  const event = events[0];
  const name = participant?.name ?? `BIB ${bib}`;
  const time = formatFinishTime(participant?.finish_time ?? null);
  const width = 1600;
  const height = 1131;

  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect x="0" y="0" width="${width}" height="${height}" fill="#fffaf3"/>
  <rect x="30" y="30" width="${width - 60}" height="${height - 60}" fill="none" stroke="#e8572a" stroke-width="10"/>
  <text x="${width / 2}" y="190" font-family="sans-serif" font-size="72" font-weight="bold" text-anchor="middle" fill="#e8572a">Certificate of Achievement</text>
  <text x="${width / 2}" y="300" font-family="sans-serif" font-size="40" text-anchor="middle" fill="#333">This certifies that</text>
  <text x="${width / 2}" y="420" font-family="sans-serif" font-size="84" font-weight="bold" text-anchor="middle" fill="#111">${escapeXml(name)}</text>
  <text x="${width / 2}" y="520" font-family="sans-serif" font-size="40" text-anchor="middle" fill="#333">BIB ${escapeXml(bib)} finished ${escapeXml(event?.name ?? '')}</text>
  <text x="${width / 2}" y="600" font-family="sans-serif" font-size="40" text-anchor="middle" fill="#333">${escapeXml(event?.to_date ?? '')}</text>
  ${time ? `<text x="${width / 2}" y="740" font-family="sans-serif" font-size="96" font-weight="bold" text-anchor="middle" fill="#e8572a">${escapeXml(time)}</text>
  <text x="${width / 2}" y="800" font-family="sans-serif" font-size="32" text-anchor="middle" fill="#666">finish time</text>` : ''}
</svg>`;
  const certificates: CertificateImage[] = [
    { name: `certificate-${bib}.jpg`, data: await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer() },
  ];

  if (firstPhotoKey) {
    // Photo certificate: the runner's photo with a band carrying name, event and time.
    const photo = await storage.getBuffer(firstPhotoKey);
    const resized = sharp(photo).resize({ width: 1600, height: 1067, fit: 'cover' });
    const band = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="180">
  <rect width="1600" height="180" fill="#000" fill-opacity="0.6"/>
  <text x="40" y="80" font-family="sans-serif" font-size="56" font-weight="bold" fill="#fff">${escapeXml(name)}</text>
  <text x="40" y="145" font-family="sans-serif" font-size="36" fill="#fff">${escapeXml(event?.name ?? '')} · BIB ${escapeXml(bib)}${time ? ` · ${escapeXml(time)}` : ''}</text>
</svg>`;
    const data = await resized.composite([{ input: Buffer.from(band), gravity: 'south' }]).jpeg({ quality: 90 }).toBuffer();
    certificates.push({ name: `photo-certificate-${bib}.jpg`, data });
  }
  return certificates;
}
