import type { AppContext } from '../context';
import { acceptPhotoFile } from '../features/supply';
import { definePhotoQueue } from '../queue/queues';
import { findUserByEmail } from '../features/accounts';
import { acquireJobQueue } from '../queue/jobQueue';
import { cameraPhoto } from './cameraPhoto';

/**
 * The demo partner's own uploads to the main event, sent through the supply line as an upload is
 * (checked, stored privately, queued): the API's photo worker then processes them after start, so
 * the upload and review screens show real statuses: tagged by the BIB read, unlabeled where no BIB
 * can be read. Camera-sized files would make the seed slow; these are 1600 px wide.
 */
const MAIN_EVENT = 'Mumbai Coastal Marathon 2026';
const UPLOADS: Array<string | null> = ['TT20610', 'TT20611', 'TT20615', 'TT20616', null, null];

export async function seedPartnerUploads(ctx: AppContext, log: (message: string) => void = () => undefined): Promise<void> {
  const partner = await findUserByEmail(ctx.db, 'partner@finishline.test');
  const [event] = await ctx.db.query<{ id: number; approved: boolean }>(
    `select e.id, exists (select 1 from event_partners ep where ep.event_id = e.id and ep.user_id = $2 and ep.status = 'approved') as approved from events e where e.name = $1`,
    [MAIN_EVENT, partner?.id ?? null],
  );
  if (!partner || !event?.approved) return;
  const done = await ctx.db.query('select 1 from photos where event_id = $1 and partner_user_id = $2 and content_sha256 is not null limit 1', [
    event.id,
    partner.id,
  ]);
  if (done.length > 0) return;
  const { queue, release } = await acquireJobQueue(ctx.db, log, { monitorSeconds: ctx.config.jobs.monitorSeconds });
  try {
    await definePhotoQueue(queue);
    for (const [i, bib] of UPLOADS.entries()) {
      const file = await cameraPhoto({ bib, seed: `demo-upload/${i}`, width: 1600, grain: 8, eventCode: 'MCM26', eventName: MAIN_EVENT, cameraMetadata: true });
      await acceptPhotoFile(ctx, async () => queue, { eventId: event.id, userId: partner.id, filename: `KABIR_${String(i + 1).padStart(4, '0')}.JPG`, file });
    }
  } finally {
    await release();
  }
  log(`partner uploads: ${UPLOADS.length} photos of the demo partner queued for processing`);
}
