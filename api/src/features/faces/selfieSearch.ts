import {
  descriptorNorm,
  FACE_DESCRIPTOR_LENGTH,
  FACE_DESCRIPTOR_NORM_RANGE,
  noFaceProblem,
  SELFIE_BIB,
  SELFIE_MAX_BYTES,
  SELFIE_MESSAGES,
  selfieFaceProblem,
  type BibSearchResult,
  type SelfieFaceQuality,
  type SeveralFacesResult,
} from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError } from '../../http/envelope';
import { READY_PHOTO_SQL, SHOWN_PHOTO_COLUMNS, searchLinksExpireAt, shownPhoto, type ShownPhotoRow } from '../../rules/photos';
import { lockedBibs, PRIVACY_OTP_REQUIRED_MESSAGE } from '../../rules/privacy';
import { sponsorOfferOf } from '../../rules/sponsorOffer';
import { findEvent } from '../events';
import { eventShopInfo, visiblePhotosOfBib } from '../search';
import { runnerBibOf } from './bibFaceLinks';
import type { FaceDetector } from '../../models/faces/detector';
import type { DetectedFace, ImageFaces } from '../../models/faces/engine';
import { isOptedOut, matchPhotosInEvent, MATCH_THRESHOLD } from './embeddingStore';

export const NO_FACE_MESSAGE = SELFIE_MESSAGES.noFace;
export const TOO_LARGE_MESSAGE = 'Please upload a JPG or PNG image of at most 2 MB.';
export const WRONG_TYPE_MESSAGE = 'Only JPG or PNG images are accepted.';
export const SELFIE_REQUIRED_MESSAGE = 'Please capture or upload a selfie.';

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
  if (bytes.length === 0) throw new AppError(400, SELFIE_REQUIRED_MESSAGE);
  if (bytes.length > SELFIE_MAX_BYTES) throw new AppError(400, TOO_LARGE_MESSAGE);
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const isPng = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (!isJpeg && !isPng) throw new AppError(400, WRONG_TYPE_MESSAGE);
  return bytes;
}

/** An on-device descriptor is accepted only as the model makes them: 128 finite numbers of the usual norm. */
export function checkDescriptor(embedding: readonly number[]): number[] {
  const [low, high] = FACE_DESCRIPTOR_NORM_RANGE;
  const norm = descriptorNorm(embedding);
  if (embedding.length !== FACE_DESCRIPTOR_LENGTH || !embedding.every(Number.isFinite) || !(norm >= low && norm <= high)) {
    throw new AppError(400, SELFIE_MESSAGES.badDescriptor);
  }
  return [...embedding];
}

/** How much of box a lies inside box b (0 to 1). */
function coverage(a: readonly number[], b: readonly number[]): number {
  const x = Math.max(0, Math.min(a[0]! + a[2]!, b[0]! + b[2]!) - Math.max(a[0]!, b[0]!));
  const y = Math.max(0, Math.min(a[1]! + a[3]!, b[1]! + b[3]!) - Math.max(a[1]!, b[1]!));
  return (x * y) / Math.max(1, Math.min(a[2]! * a[3]!, b[2]! * b[3]!));
}

/**
 * The face to search with. One face: that one. Several: the one whose box the runner picked
 * (faceBox); without a pick, a 409 lists the faces so the runner can choose. A face too small, too
 * dark or too blurred is refused with a message that says what to change.
 */
export function chooseSelfieFace(found: ImageFaces, faceBox?: readonly number[]): DetectedFace {
  const { faces } = found;
  if (faces.length === 0) throw new AppError(400, noFaceProblem(found.hint));
  let face: DetectedFace | undefined;
  if (faces.length === 1) face = faces[0];
  else if (faceBox) {
    const best = [...faces].sort((a, b) => coverage(b.box, faceBox) - coverage(a.box, faceBox))[0]!;
    if (coverage(best.box, faceBox) >= 0.5) face = best;
  }
  if (!face) {
    const choices: SeveralFacesResult = {
      faces: faces.map((f) => ({ box: f.box.map(Math.round) as [number, number, number, number] })),
      width: found.width,
      height: found.height,
    };
    throw new AppError(409, SELFIE_MESSAGES.severalFaces, choices);
  }
  const problem = selfieFaceProblem(face.quality);
  if (problem) throw new AppError(400, problem);
  return face;
}

interface MatchedPhotoRow extends ShownPhotoRow {
  bibs: string[];
}

export interface SelfieSearchInput {
  eventID: number;
  selfieimg?: string;
  embedding?: number[];
  /** The on-device face's quality measures (required with `embedding` by the request schema). */
  faceQuality?: SelfieFaceQuality;
  faceBox?: number[];
}

/**
 * Search by selfie: find the face (or take the phone's descriptor), compare it with the faces of the
 * event's photos, and return the matching photos in the BIB search's shape. The selfie exists only in
 * memory for this call. beforeDetection runs once the input is known good (the route counts the
 * address's allowance there); `threshold` is for the benchmark's cross-validation only.
 */
export async function searchBySelfie(
  ctx: AppContext,
  detector: FaceDetector,
  input: SelfieSearchInput,
  sessionId: number | null,
  beforeDetection: () => Promise<void> = async () => undefined,
  threshold = MATCH_THRESHOLD,
): Promise<BibSearchResult> {
  // On-device search sends the descriptor; otherwise the selfie itself, held in memory for this call.
  const onDevice = input.embedding ? checkDescriptor(input.embedding) : null;
  // The phone checked the face's quality before sending its descriptor; the same gates hold here.
  if (onDevice) {
    const problem = input.faceQuality ? selfieFaceProblem(input.faceQuality) : SELFIE_MESSAGES.qualityNeeded;
    if (problem) throw new AppError(400, problem);
  }
  const selfie = onDevice ? null : decodeSelfie(input.selfieimg ?? '');
  const event = await findEvent(ctx.db, input.eventID);
  if (!event) throw new AppError(400, 'We could not find this event. Please choose an event from the list.');
  if (!event.issearchable || !event.selfiesearch) {
    throw new AppError(400, `Search by selfie is not available for ${event.name}.`);
  }
  await beforeDetection();

  let query = onDevice;
  if (!query) {
    let found;
    try {
      found = await detector.analyse(selfie!, 'selfie');
    } catch {
      // sharp cannot decode it: a broken or disguised file.
      throw new AppError(400, WRONG_TYPE_MESSAGE);
    }
    query = chooseSelfieFace(found, input.faceBox).descriptor;
  }

  const noPhotos = new AppError(404, `No photos of you were found in ${event.name}. Try another selfie, or search by your BIB number.`);
  // A runner who opted out of face search is not matched again, whoever holds up their face.
  if (await isOptedOut(ctx.db, query, MATCH_THRESHOLD)) throw noPhotos;
  const matches = await matchPhotosInEvent(ctx.db, event.id, query, threshold);
  if (matches.length === 0) throw noPhotos;
  const rank = new Map(matches.map((m, i) => [m.photoId, i]));
  const matched = await ctx.db.query<MatchedPhotoRow>(
    `select ${SHOWN_PHOTO_COLUMNS},
            coalesce(array_agg(b.bib_number) filter (where b.bib_number is not null), '{}') as bibs
       from photos p left join photo_bibs b on b.photo_id = p.id
      where p.event_id = $1 and p.id = any($2::int[]) and p.kind = 'image' and ${READY_PHOTO_SQL}
      group by p.id`,
    [event.id, matches.map((m) => m.photoId)],
  );
  // The runner's BIB, when the photos found carry one clearly: its photos join the result (their bib
  // read, their face turned away or unseen), marked as found by the BIB.
  const runnerBib = runnerBibOf(matched.map((r) => r.bibs));
  const matchedIds = new Set(matched.map((r) => r.id));
  const bibRows = runnerBib ? (await visiblePhotosOfBib(ctx.db, event.id, runnerBib)).filter((r) => r.kind === 'image' && !matchedIds.has(r.id as number)) : [];
  // A face is no proof of who asks (anyone can hold up a runner's picture): the privacy rule holds here too.
  const locked = new Set(await lockedBibs(ctx.db, event, [...new Set([...matched.flatMap((r) => r.bibs), ...(runnerBib ? [runnerBib] : [])])], sessionId));
  const rows = matched.filter((r) => !r.bibs.some((bib) => locked.has(bib)));
  if (rows.length === 0) throw new AppError(403, PRIVACY_OTP_REQUIRED_MESSAGE);
  rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  const runnerBibRows = runnerBib && !locked.has(runnerBib) ? bibRows : [];

  const expiresAt = searchLinksExpireAt(ctx);
  const [photos, shopInfo] = await Promise.all([
    // Selfie results are labelled 'selfie' where a BIB search has the BIB.
    Promise.all([
      ...rows.map((row) => shownPhoto(ctx, row, { bibNumber: SELFIE_BIB, event }, expiresAt)),
      ...runnerBibRows.map(async (row) => ({ ...(await shownPhoto(ctx, row, { bibNumber: SELFIE_BIB, event }, expiresAt)), foundBy: 'bib' as const })),
    ]),
    sponsorOfferOf(ctx.db, event.id).then((offer) => eventShopInfo(ctx, event, offer)),
  ]);

  return {
    ...shopInfo,
    bibNumber: SELFIE_BIB,
    photo: photos,
    video: [],
    achievementsEligibility: { certificate_eligible: false, certificate_url: null, achievement_id: null },
    awsImageExpary: expiresAt.toISOString(),
    total_image_count: photos.length,
    total_video_count: 0,
    // Photos of privacy-checked BIBs not verified in this session were left out above.
    isPrivacyCheckEnabled: false,
    isVerified: true,
    participantExists: [],
    // Packages are bound to a BIB (spec: no package for a selfie search).
    show_prempack: false,
    show_ultrapack: false,
  };
}
