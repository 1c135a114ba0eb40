import crypto from 'node:crypto';
import type { BillLine, OrderCartInfo, OrderStatus } from '@finishline/shared/pure';
import type { Db } from '../../db/db';
import { claimSponsorPhotos } from '../../rules/sponsorOffer';

export interface OrderRow {
  [column: string]: unknown;
  id: number;
  order_ref: string;
  txnid: string;
  user_id: number | null;
  /** The account signed in when the order was placed (null: a guest's; migration 404). */
  placed_by_user_id: number | null;
  event_id: number;
  bib_number: string;
  name: string;
  email: string;
  phone: string;
  isd_code: string;
  gender: string | null;
  shipping_address: string | null;
  pincode: string | null;
  print_instruction: string;
  status: OrderStatus;
  subtotal: number;
  discount: number;
  gst: number;
  amount: number;
  amount_text: string;
  productinfo: string;
  search_kind: string;
  package_kind: string | null;
  bundle: string | null;
  unlabeled: boolean;
  is_preorder: boolean;
  sponsor_offer_id: number | null;
  cart_info: OrderCartInfo;
  payment_id: string | null;
  payment_mode: string | null;
  created_at: Date;
  paid_at: Date | null;
  first_download_at: Date | null;
  mapped_at: Date | null;
}

export interface OrderItemRow {
  [column: string]: unknown;
  id: number;
  kind: BillLine['kind'] | 'preorder';
  label: string;
  photo_ids: number[];
  quantity: number;
  amount: number;
  discount: number;
  gst: number;
  total: number;
  print_product_id: number | null;
  orientation: string | null;
  pack_id: string | null;
}

// Crockford base32 without look-alikes, so a reference read over the phone is unambiguous.
const REF_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function randomCode(length: number): string {
  const bytes = crypto.randomBytes(length);
  let out = '';
  for (const byte of bytes) out += REF_ALPHABET[byte % 32];
  return out;
}

/** Order reference shown to buyers, e.g. FL7K2M9QXD. */
export const newOrderRef = () => `FL${randomCode(8)}`;
/** PayU transaction id: at most 25 alphanumeric characters. */
export const newTxnid = () => `T${Date.now().toString(36).toUpperCase()}${randomCode(10)}`;

export interface OrderDraft {
  userId: number | null;
  /** The account signed in at checkout, if any: it sees the order before proving its address. */
  placedByUserId?: number | null;
  /** The session the order was placed in (the certificate builder's right to a guest's own photos). */
  placedSessionId?: number | null;
  eventId: number;
  bibNumber: string;
  name: string;
  email: string;
  phone: string;
  isdCode: string;
  gender?: string | null;
  shippingAddress?: string | null;
  pincode?: string | null;
  printInstruction?: string;
  status: 'Pending' | 'Paid';
  subtotal: number;
  discount: number;
  gst: number;
  amount: number;
  amountText: string;
  productinfo: string;
  searchKind: string;
  packageKind: string | null;
  bundle: string | null;
  unlabeled: boolean;
  isPreorder: boolean;
  sponsorOfferId: number | null;
  /** Photos the sponsor offer discounts in this order (the cap counts them per BIB). */
  sponsorPhotoCount?: number;
  cartInfo: OrderCartInfo;
  paymentMode?: string | null;
}

/** An order line is a line of the server's bill (or the pre-order's one line), stored as priced. */
export type DraftLine = Omit<BillLine, 'kind'> & { kind: OrderItemRow['kind'] };

/** Stores an order and its priced lines in one transaction. */
export async function insertOrder(db: Db, draft: OrderDraft, lines: DraftLine[]): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const sponsorPhotoCount = draft.sponsorOfferId === null ? 0 : (draft.sponsorPhotoCount ?? 0);
    if (draft.sponsorOfferId !== null && sponsorPhotoCount > 0) {
      await claimSponsorPhotos(tx, { offerId: draft.sponsorOfferId, eventId: draft.eventId, bib: draft.bibNumber, count: sponsorPhotoCount });
    }
    const rows = await tx.query<OrderRow>(
      `insert into orders (order_ref, txnid, user_id, event_id, bib_number, name, email, phone, isd_code, gender,
         shipping_address, pincode, print_instruction, status, subtotal, discount, gst, amount, amount_text, productinfo,
         search_kind, package_kind, bundle, unlabeled, is_preorder, sponsor_offer_id, cart_info, payment_mode, paid_at, sponsor_photo_count, placed_by_user_id, placed_session_id)
       values ($1, $2, $3, $4, $5, $6, lower($7), $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
         $21, $22, $23, $24, $25, $26, $27, $28, case when $14 = 'Paid' then now() else null end, $29, $30, $31)
       returning *`,
      [
        newOrderRef(),
        newTxnid(),
        draft.userId,
        draft.eventId,
        draft.bibNumber,
        draft.name,
        draft.email.trim(),
        draft.phone,
        draft.isdCode,
        draft.gender ?? null,
        draft.shippingAddress ?? null,
        draft.pincode ?? null,
        draft.printInstruction ?? '',
        draft.status,
        draft.subtotal,
        draft.discount,
        draft.gst,
        draft.amount,
        draft.amountText,
        draft.productinfo,
        draft.searchKind,
        draft.packageKind,
        draft.bundle,
        draft.unlabeled,
        draft.isPreorder,
        draft.sponsorOfferId,
        JSON.stringify(draft.cartInfo),
        draft.paymentMode ?? null,
        sponsorPhotoCount,
        draft.placedByUserId ?? null,
        draft.placedSessionId ?? null,
      ],
    );
    const order = rows[0];
    for (const line of lines) {
      await tx.query(
        `insert into order_items (order_id, kind, label, photo_ids, quantity, amount, discount, gst, total, print_product_id, orientation, pack_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          order.id,
          line.kind,
          line.label,
          line.photoIds,
          line.quantity,
          line.amount,
          line.discount,
          line.gst,
          line.total,
          line.printProductId ?? null,
          line.orientation ?? null,
          line.packId ?? null,
        ],
      );
    }
    return order;
  });
}

export async function findOrderByRef(db: Db, orderRef: string): Promise<OrderRow | null> {
  const rows = await db.query<OrderRow>('select * from orders where order_ref = $1', [orderRef.trim().toUpperCase()]);
  return rows[0] ?? null;
}

export async function findOrderByTxnid(db: Db, txnid: string): Promise<OrderRow | null> {
  const rows = await db.query<OrderRow>('select * from orders where txnid = $1', [txnid]);
  return rows[0] ?? null;
}

export async function orderItems(db: Db, orderId: number): Promise<OrderItemRow[]> {
  return db.query<OrderItemRow>('select * from order_items where order_id = $1 order by id', [orderId]);
}

/** Whether an order may be downloaded: paid (or already downloaded). */
export const isPaidStatus = (status: OrderStatus) => status === 'Paid' || status === 'Downloaded';
