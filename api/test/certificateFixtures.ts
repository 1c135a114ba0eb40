import type { ApiEnvelope, CartRequest } from '@finishline/shared/pure';
import type { AppContext } from '../src/context';
import { buildBill } from '../src/features/cart';
import { insertOrder, orderFieldsOfBill } from '../src/features/orders';
import { hashToken } from '../src/security/tokens';

/** Who placed an order: the account it is stored under, the account signed in at checkout, the session it was placed in. */
export interface OrderOwner {
  userId: number | null;
  placedByUserId: number | null;
  placedSessionId: number | null;
  email: string;
}

/** The id of the session a bearer token stands for. */
export async function sessionIdOf(ctx: AppContext, token: string): Promise<number> {
  return (await ctx.db.query<{ id: number }>('select id from sessions where token_hash = $1', [hashToken(token)]))[0].id;
}

/** A paid order of the BIB's first photo in the event, priced by the shop's bill and stored as checkout stores it. */
export async function paidOrderOfBib(ctx: AppContext, eventId: number, bib: string, owner: OrderOwner): Promise<void> {
  const [photo] = await ctx.db.query<{ id: number }>(
    `select p.id from photos p join photo_bibs b on b.photo_id = p.id where b.event_id = $1 and b.bib_number = $2 and p.kind = 'image' order by p.seq limit 1`,
    [eventId, bib],
  );
  const cart: CartRequest = {
    eventId,
    bibNumber: bib,
    searchKind: 'bib',
    packageKind: null,
    lines: [{ type: 'download', category: 'image', id: photo.id }],
    sponsorofferID: null,
    discountedPhotoIds: [],
  };
  const bill = await buildBill(ctx, cart, { ip: '127.0.0.1', sessionId: null });
  await insertOrder(
    ctx.db,
    {
      ...owner,
      eventId,
      bibNumber: bib,
      name: 'Priya Nair',
      phone: '9820012345',
      isdCode: '+91',
      pincode: '400020',
      status: 'Paid',
      ...orderFieldsOfBill(bill, cart),
    },
    bill.lines,
  );
}

/** A builder call as the browser makes it: a multipart form with the session's bearer token, the certificate JPEG as file certificate_url. */
export async function certificateForm<T>(
  baseUrl: string,
  route: string,
  fields: Record<string, string>,
  token: string,
  file?: Buffer,
): Promise<{ status: number; body: ApiEnvelope<T> }> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (file) body.append('certificate_url', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), 'certificate.jpg');
  const res = await fetch(`${baseUrl}${route}`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as ApiEnvelope<T> };
}
