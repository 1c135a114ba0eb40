import crypto from 'node:crypto';
import sharp from 'sharp';
import { CERTIFICATE_LIMITS, CERTIFICATE_MESSAGES, type CertificateUploadResult } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../http/envelope';
import { cleanOriginal } from '../../media/jpegMetadata';
import { searchLinksExpireAt } from '../../rules/photos';
import { findEvent } from '../events';
import { requireAchievement, templateConfigOf } from './achievements';
import { pairsUsableBy } from './rights';
import { latestRun, recordDownload, uploaded, type RunCaller } from './runs';

export const UPLOADED_MESSAGE = 'Certificate uploaded successfully!';
const CHOOSE_FIRST = 'Please choose and crop your photos first.';
const NOTHING_UPLOADED = 'There is no uploaded certificate to download yet. Please press Download again.';
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** Decodes the whole file: a JPEG of exactly the template's size, else a fixed refusal. */
async function assertCertificateJpeg(data: Buffer, size: { width: number; height: number }): Promise<void> {
  const wrongFile = `The certificate must be a JPEG image of ${size.width} by ${size.height} pixels.`;
  if (data.length < JPEG_MAGIC.length || !data.subarray(0, 3).equals(JPEG_MAGIC) || data.length > CERTIFICATE_LIMITS.maxUploadBytes)
    throw badRequest(wrongFile);
  try {
    const image = sharp(data, { failOn: 'truncated' });
    const meta = await image.metadata();
    if (meta.format !== 'jpeg' || meta.width !== size.width || meta.height !== size.height) throw badRequest(wrongFile);
    await image.stats();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest(wrongFile);
  }
}

/**
 * The certificate download call: the JPEG the builder drew for the session's latest run of the
 * achievement (whose photos template details accepted) is stored, and a signed link to it returned.
 */
export async function storeCertificate(ctx: AppContext, achievementId: number, file: Buffer | null, caller: RunCaller): Promise<CertificateUploadResult> {
  const run = await latestRun(ctx.db, caller.sessionId, achievementId, 'photos chosen');
  if (!run) throw new AppError(409, CHOOSE_FIRST);
  // Only a session with the right to every BIB's own photos stores (and so downloads) a certificate.
  const usable = await pairsUsableBy(ctx.db, caller, run.pairs);
  const locked = run.pairs.find((_, i) => !usable[i]);
  if (locked) {
    const event = await findEvent(ctx.db, locked.event_id);
    throw new AppError(403, CERTIFICATE_MESSAGES.buyFirst(event?.name ?? 'this race', locked.bib_number));
  }
  if (!file) throw badRequest('Please attach the certificate as a JPEG file.');
  const { achievement, events } = await requireAchievement(ctx.db, run.achievement_id);
  await assertCertificateJpeg(file, templateConfigOf(achievement, events).output_resolution);
  const key = `certificates/${run.id}/${crypto.randomBytes(12).toString('hex')}.jpg`;
  // Drawn in the browser it carries no camera metadata; a file made elsewhere could: stored without it.
  const clean = await cleanOriginal(file);
  await ctx.storage.put(key, clean, 'image/jpeg');
  await uploaded(ctx.db, run.id, key, clean.length);
  return { certificate_url: await ctx.storage.signedUrl(key, searchLinksExpireAt(ctx)) };
}

/** Records that the session's uploaded certificate of the achievement was saved to the device. */
export async function recordCertificateDownload(ctx: AppContext, achievementId: number, caller: RunCaller): Promise<{ downloads: number }> {
  const run = await latestRun(ctx.db, caller.sessionId, achievementId, 'uploaded');
  if (!run) throw new AppError(409, NOTHING_UPLOADED);
  return { downloads: await recordDownload(ctx.db, run.id, caller) };
}
