import { PREBOOK_BIB, type OrderDetail, type OrderMedia, type OrderPrint } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';
import { isPaidStatus, orderItems, type OrderItemRow, type OrderRow } from './orderStore';
import { downloadUntil } from './preauth';
import { READY_PHOTO_SQL } from '../../rules/photos';
import { orderPrintLines } from '../fulfilment';

export interface MediaRow {
  [column: string]: unknown;
  id: number;
  image_id: string;
  kind: 'image' | 'video';
  original_key: string;
  preview_key: string;
  thumb_key: string;
}

const MEDIA_COLUMNS = 'p.id, p.image_id, p.kind, p.original_key, p.preview_key, p.thumb_key';

/**
 * The photos and videos an order paid for: the bill's image, pack and video lines; a mapped
 * pre-order covers every photo and video of its BIB.
 */
export async function purchasedMedia(db: Db, order: OrderRow, items?: OrderItemRow[]): Promise<MediaRow[]> {
  if (order.is_preorder) {
    if (order.bib_number === PREBOOK_BIB) return [];
    return db.query<MediaRow>(
      `select ${MEDIA_COLUMNS} from photo_bibs b join photos p on p.id = b.photo_id
        where b.event_id = $1 and b.bib_number = $2 and ${READY_PHOTO_SQL} order by p.kind, p.seq, p.id`,
      [order.event_id, order.bib_number],
    );
  }
  const lines = items ?? (await orderItems(db, order.id));
  const ids = [...new Set(lines.filter((l) => l.kind === 'images' || l.kind === 'pack' || l.kind === 'video').flatMap((l) => l.photo_ids))];
  if (ids.length === 0) return [];
  return db.query<MediaRow>(`select ${MEDIA_COLUMNS} from photos p where p.event_id = $1 and p.id = any($2::int[]) order by p.kind, p.seq, p.id`, [
    order.event_id,
    ids,
  ]);
}

/** The order as the detail screens show it; previews are signed for an hour. */
export async function orderDetailOf(ctx: AppContext, order: OrderRow): Promise<OrderDetail> {
  const items = await orderItems(ctx.db, order.id);
  const [media, events, offers] = await Promise.all([
    purchasedMedia(ctx.db, order, items),
    ctx.db.query<{ name: string; logo_key: string | null }>('select name, logo_key from events where id = $1', [order.event_id]),
    ctx.db.query<{ sponsor_name: string }>('select sponsor_name from sponsor_offers where id = $1', [order.sponsor_offer_id ?? -1]),
  ]);
  const expiresAt = new Date(Date.now() + 3600_000);
  const toMedia = async (row: MediaRow): Promise<OrderMedia> => ({
    id: row.id,
    imageid: row.image_id,
    s3: await ctx.storage.signedUrl(row.preview_key, expiresAt),
    image: await ctx.storage.signedUrl(row.thumb_key, expiresAt),
    category: row.kind,
  });
  const photo = await Promise.all(media.filter((m) => m.kind === 'image').map(toMedia));
  const video = await Promise.all(media.filter((m) => m.kind === 'video').map(toMedia));

  const printLines = items.filter((l) => l.kind === 'print' || l.kind === 'collage');
  const printPhotoIds = [...new Set(printLines.flatMap((l) => l.photo_ids))];
  const previews = printPhotoIds.length
    ? await ctx.db.query<{ id: number; preview_key: string }>('select id, preview_key from photos where id = any($1::int[])', [printPhotoIds])
    : [];
  const previewOf = new Map(previews.map((p) => [p.id, p.preview_key]));
  const prints: OrderPrint[] = await Promise.all(
    printLines.map(async (l) => ({
      type: l.kind === 'collage' ? ('collage' as const) : ('print' as const),
      name: l.label,
      orientation: l.orientation,
      s3: await Promise.all(l.photo_ids.filter((id) => previewOf.has(id)).map((id) => ctx.storage.signedUrl(previewOf.get(id)!, expiresAt))),
      price: Number(l.total),
    })),
  );

  const event = events[0];
  return {
    order_ref: order.order_ref,
    bib_no: order.bib_number,
    eventID: order.event_id,
    eventName: event?.name ?? '',
    eventLogo: event?.logo_key ? ctx.storage.publicUrl(event.logo_key) : '',
    // Sponsors carry a name but no logo in our data.
    sponsorLogo: '',
    sponsorName: offers[0]?.sponsor_name ?? null,
    order_email: order.email,
    orderTotal_amount: Number(order.amount),
    gst: Number(order.gst),
    status: order.status,
    payment_id: order.payment_id,
    photo,
    video,
    prints,
    printLines: printLines.length > 0 && isPaidStatus(order.status) ? await orderPrintLines(ctx.db, order.id) : [],
    shipping: order.shipping_address && order.pincode ? { address: order.shipping_address, pincode: order.pincode } : null,
    print_instructions: order.print_instruction,
    bundle: order.bundle,
    is_preorder: order.is_preorder,
    download_until: isPaidStatus(order.status) && order.paid_at ? downloadUntil(new Date(order.paid_at)).toISOString() : null,
    cartInfo: order.cart_info,
    unlabeled: order.unlabeled,
  };
}
