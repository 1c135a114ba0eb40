import { SELFIE_MAX_BYTES, type BibSearchResult, type Photo } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError } from '../../http/envelope';
import { findEvent, type EventRow, priceInfoOf } from '../events/queries';
import { disabledPrintEventIds } from '../events/masterConfig';
import { printProducts, sponsorOfferOf } from '../search/bibSearch';
import { lockedBibs, PRIVACY_OTP_REQUIRED_MESSAGE } from '../search/privacy';
import type { FaceDetector } from './detector';
import type { DetectedFace } from './engine';
import { matchPhotosInEvent } from './embeddingStore';

/**
 * Matching settings, tuned on the five-person face set of the quality test: after query expansion
 * with the 3 best faces (from 0.3), any threshold from 0.22 to 0.26 gave recall >= 0.93 and
 * precision >= 0.96; 0.24 sits in the middle. See docs/faces.md.
 */
export const MATCH_OPTIONS = {
  threshold: 0.24,
  expansion: { top: 3, minSimilarity: 0.3 },
  // Plain cosine: same person 0.46 to 0.82, different people up to 0.61 on the face set.
  smallPopulation: { minFaces: 20, rawThreshold: 0.7 },
} as const;

/** The label selfie results carry where a BIB search has the BIB. */
export const SELFIE_BIB = 'selfie';

export const NO_FACE_MESSAGE = 'We could not find a face in your selfie. Please take a clear photo of your face, looking at the camera.';
export const TOO_LARGE_MESSAGE = 'Please upload a JPG or PNG image of at most 2 MB.';
export const WRONG_TYPE_MESSAGE = 'Only JPG or PNG images are accepted.';

/** Decodes the base64 selfie (optionally a data: URL) and checks it is a JPEG or PNG of at most 2 MB. */
export function decodeSelfie(selfieimg: string): Buffer {
  const match = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(selfieimg);
  const payload = (match ? match[3]! : selfieimg).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw new AppError(400, WRONG_TYPE_MESSAGE);
  // Check the size before decoding: 4 base64 characters carry 3 bytes.
  if (Math.floor((payload.length * 3) / 4) - (payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0) > SELFIE_MAX_BYTES) {
    throw new AppError(400, TOO_LARGE_MESSAGE);
  }
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length === 0) throw new AppError(400, 'Please capture or upload a selfie.');
  if (bytes.length > SELFIE_MAX_BYTES) throw new AppError(400, TOO_LARGE_MESSAGE);
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (!isJpeg && !isPng) throw new AppError(400, WRONG_TYPE_MESSAGE);
  return bytes;
}

/** The face to search with: the largest one, as a selfie may catch someone in the background. */
export function mainFace(faces: DetectedFace[]): DetectedFace | null {
  let best: DetectedFace | null = null;
  for (const face of faces) if (!best || face.box[2] * face.box[3] > best.box[2] * best.box[3]) best = face;
  return best;
}

interface PhotoRow {
  [column: string]: unknown;
  id: number;
  image_id: string;
  preview_key: string;
  thumb_key: string;
  seq: number;
  bib_number: string | null;
}

async function purchaseNotification(ctx: AppContext): Promise<string | null> {
  const rows = await ctx.db.query<{ value: unknown }>(`select value from app_settings where key = 'purchase_notification'`);
  return typeof rows[0]?.value === 'string' && rows[0].value ? rows[0].value : null;
}

async function toPhoto(ctx: AppContext, row: PhotoRow, event: EventRow, expiresAt: Date): Promise<Photo> {
  const [preview, thumb] = await Promise.all([ctx.storage.signedUrl(row.preview_key, expiresAt), ctx.storage.signedUrl(row.thumb_key, expiresAt)]);
  return {
    id: row.id,
    imageid: row.image_id,
    s3: preview,
    image: thumb,
    category: 'image',
    type: 'download',
    bibNumber: SELFIE_BIB,
    price: event.single_photo_price,
    seq: row.seq,
  };
}

/**
 * Search by selfie: find the face, compare it with the faces of the event's photos, and return the
 * matching photos in the BIB search's shape. The selfie exists only in memory for this call.
 */
export async function searchBySelfie(ctx: AppContext, detector: FaceDetector, input: { eventID: number; selfieimg: string }, sessionId: number | null): Promise<BibSearchResult> {
  const selfie = decodeSelfie(input.selfieimg);
  const event = await findEvent(ctx.db, input.eventID);
  if (!event) throw new AppError(400, 'We could not find this event. Please choose an event from the list.');
  if (!event.issearchable || !event.selfiesearch) throw new AppError(400, `Search by selfie is not available for ${event.name}.`);

  let faces: DetectedFace[];
  try {
    faces = await detector.detect(selfie, 'selfie');
  } catch {
    // sharp cannot decode it: a broken or disguised file.
    throw new AppError(400, WRONG_TYPE_MESSAGE);
  }
  const face = mainFace(faces);
  if (!face) throw new AppError(400, NO_FACE_MESSAGE);

  const matches = await matchPhotosInEvent(ctx.db, event.id, face.embedding, MATCH_OPTIONS);
  if (matches.length === 0) {
    throw new AppError(404, `No photos of you were found in ${event.name}. Try another selfie, or search by your BIB number.`);
  }
  const rank = new Map(matches.map((m, i) => [m.photoId, i]));
  const matched = await ctx.db.query<PhotoRow>(
    `select id, image_id, preview_key, thumb_key, seq, bib_number from photos where event_id = $1 and id = any($2::int[]) and kind = 'image'`,
    [event.id, matches.map((m) => m.photoId)],
  );
  // A face is no proof of who asks (anyone can hold up a runner's picture): the privacy rule holds here too.
  const locked = new Set(await lockedBibs(ctx.db, event, matched.flatMap((r) => (r.bib_number === null ? [] : [r.bib_number])), sessionId));
  const rows = matched.filter((r) => r.bib_number === null || !locked.has(r.bib_number));
  if (rows.length === 0) throw new AppError(403, PRIVACY_OTP_REQUIRED_MESSAGE);
  rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);

  const expiresAt = new Date(Date.now() + ctx.config.searchSessionMinutes * 60_000);
  const [photos, offer, disabledPrints, notification] = await Promise.all([
    Promise.all(rows.map((row) => toPhoto(ctx, row, event, expiresAt))),
    sponsorOfferOf(ctx.db, event.id),
    disabledPrintEventIds(ctx.db),
    purchaseNotification(ctx),
  ]);
  const printsDisabled = disabledPrints.includes(event.id);

  return {
    eventId: event.id,
    eventName: event.name,
    eventLogo: event.logo_key ? ctx.storage.publicUrl(event.logo_key) : '',
    bibNumber: SELFIE_BIB,
    photo: photos,
    video: [],
    priceInfo: priceInfoOf(event),
    achievementsEligibility: { certificate_eligible: false, certificate_url: null, achievement_id: null },
    awsImageExpary: expiresAt.toISOString(),
    total_image_count: photos.length,
    total_video_count: 0,
    // Photos of privacy-checked BIBs not verified in this session were left out above.
    isPrivacyCheckEnabled: false,
    isVerified: true,
    participantExists: [],
    threshold_photo_count: event.threshold_photo_count,
    // Packages are bound to a BIB (spec: no package for a selfie search).
    show_prempack: false,
    show_ultrapack: false,
    ultra_premium_pack: event.ultra_premium_pack_price,
    bundlePriceInfo: { price: event.bundle_price, Premium_Pack: event.premium_pack_price },
    printProductInfo: printsDisabled ? [] : await printProducts(ctx.db, ctx.storage),
    printsDisabled,
    sponsorOfferAvailableFlag: offer !== null,
    sponsorOffer: offer,
    purchase_notification: notification,
  };
}
