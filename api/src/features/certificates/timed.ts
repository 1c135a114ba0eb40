import { standardTemplate, type CertificateTemplateConfig, type CertificateValues } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import { findEvent } from '../events';
import { finisherCertificateOf, requireAchievement, templateConfigOf } from './achievements';
import { boughtPhotoKey, photosOfBib } from './photos';
import { renderCertificate, standardBackgroundKey } from './render';
import { finishedAchievementOf, resultOf, type ResultRow } from './results';

export interface CertificateImage {
  name: string;
  data: Buffer;
}

const valuesOf = (results: Array<ResultRow & { event_name: string }>): CertificateValues => ({
  participantName: results[0]?.name ?? '',
  events: results.map((r) => ({ event_id: r.event_id, event_name: r.event_name, bib_number: r.bib_number, finish_time: r.finish_time })),
});

async function draw(
  ctx: AppContext,
  config: CertificateTemplateConfig,
  backgroundOf: { key: string | null; accent: string | null },
  photoKeys: Map<number, string>,
  values: CertificateValues,
): Promise<Buffer> {
  const background = await ctx.storage.getBuffer(backgroundOf.key ?? (await standardBackgroundKey(ctx, config, backgroundOf.accent)));
  const photos = new Map<number, Buffer>();
  for (const [eventId, key] of photoKeys) photos.set(eventId, await ctx.storage.getBuffer(key));
  return renderCertificate({ config, background, photos, values });
}

/**
 * The ultra premium bundle's 'certs' folder: the runner's timed certificates, drawn by the server
 * from the same templates and layout as the builder's. The finisher certificate of the order's race
 * (the standard one-event template, with the order's first photo and the official time), and the
 * certificate of each achievement the runner completed (each race's photo in its slot, centred crop).
 * Another race's slot holds a photo only where the order's buyer bought that BIB's photos there
 * (a paid order under the same address: the first photo it holds); else it stays empty, so a zip
 * never carries an original nobody paid for. A BIB without a result line gets none.
 */
export async function timedCertificates(
  ctx: AppContext,
  order: { event_id: number; bib_number: string; email: string },
  orderPhotoKey: string | null,
): Promise<CertificateImage[]> {
  const [own, event] = await Promise.all([resultOf(ctx.db, order.event_id, order.bib_number), findEvent(ctx.db, order.event_id)]);
  if (!own || !event) return [];
  const bib = own.bib_number;
  const firstPhotoOf = async (eventId: number, eventBib: string) => (await photosOfBib(ctx.db, eventId, eventBib))[0]?.original_key ?? null;
  const ownPhoto = orderPhotoKey ?? (await firstPhotoOf(order.event_id, bib));
  const keysOf = (entries: Array<[number, string | null]>) => new Map(entries.filter((e): e is [number, string] => e[1] !== null));

  // The race's finisher certificate as its organiser set it (title, template), none when turned off.
  const certificates: CertificateImage[] = [];
  // Results written without the import (no certificate row yet) get the standard one, as the import would make.
  const finisher = await finisherCertificateOf(ctx.db, event.id);
  if (!finisher || finisher.active) {
    const config = finisher
      ? templateConfigOf(finisher, [{ event_id: event.id, event_name: event.name }])
      : standardTemplate({ title: event.name, eventIds: [event.id] });
    const values = valuesOf([{ ...own, event_name: event.name }]);
    certificates.push({
      name: `timed-certificate-${bib}.jpg`,
      data: await draw(
        ctx,
        config,
        { key: finisher?.template_image_key ?? null, accent: finisher?.accent_color ?? null },
        keysOf([[event.id, ownPhoto]]),
        values,
      ),
    });
  }

  const finished = await finishedAchievementOf(ctx.db, order.event_id, bib, true);
  if (finished) {
    const { achievement, events } = await requireAchievement(ctx.db, finished.achievementId);
    const results = events.map((e) => ({ ...finished.results.find((r) => r.event_id === e.event_id)!, event_name: e.event_name }));
    const photos = await Promise.all(
      results.map(async (r): Promise<[number, string | null]> => [
        r.event_id,
        r.event_id === order.event_id ? ownPhoto : await boughtPhotoKey(ctx.db, order.email, r.event_id, r.bib_number),
      ]),
    );
    const config = templateConfigOf(achievement, events);
    certificates.push({
      name: `${config.output_filename.replace(/\.jpg$/, '')}-${bib}.jpg`,
      data: await draw(ctx, config, { key: achievement.template_image_key, accent: achievement.accent_color }, keysOf(photos), valuesOf(results)),
    });
  }
  return certificates;
}
