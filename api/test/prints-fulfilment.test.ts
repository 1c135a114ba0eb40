import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  API_ROUTES,
  COURIER_REQUIRED_MESSAGE,
  PRINT_BATCH_MESSAGES,
  PRINT_BATCH_MAX_LINES,
  type FulfilmentLine,
  type FulfilmentQueueResult,
  type OrderDetail,
  type PaymentForm,
} from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { insertTestPhoto } from './support/photos';
import { seedOrdersFixture, type OrdersFixture } from './ordersFixtures';
import { createUser } from '../src/features/accounts/users';
import { createSession } from '../src/features/accounts/sessions';
import { preparePrintFiles } from '../src/features/fulfilment';
import { MAX_RENDER_ATTEMPTS } from '../src/features/fulfilment/printFilesJob';
import { backwardsMessage, changedMeanwhileMessage, heldMessage } from '../src/features/fulfilment/printLines';
import { lowDpiWarning, tooSmallReason } from '../src/media/printFiles';
import { batchFileName, linesDoneMessage, linesNotFoundMessage, linesNotReadyMessage } from '../src/features/fulfilment/printBatch';
import { unzipAll } from './support/zipOrders';
import { extractText } from 'unpdf';

/**
 * Paid prints and collages leave the shop: the print-files job makes each line's print-ready file
 * (or holds it with the reason), fulfilment staff move lines forward only, two at once leave one
 * result, shipping and delivery mail the runner once each, and the runner's order shows it all.
 */
describe('prints and collages after payment: files, statuses, fulfilment role', () => {
  let t: TestApp;
  let f: OrdersFixture;
  let runner: string;
  let staff: string;
  let operator: string;
  let big: number[];
  let small: number;
  let magnetId: number;
  let frameId: number;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  async function photo(imageId: string, width: number, height: number): Promise<number> {
    const key = `originals/${f.eventId}/${imageId}.jpg`;
    await t.ctx.storage.put(
      key,
      await sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    return insertTestPhoto(t.ctx.db, { eventId: f.eventId, bib: f.bib, imageId, originalKey: key, width, height });
  }

  /** A signed-in runner's order with these lines, paid (as the gateway's return leaves it). */
  async function paidOrder(lines: object[]): Promise<string> {
    const res = await t.request<PaymentForm>(
      'POST',
      API_ROUTES.createOrder,
      {
        name: 'Asha Rao',
        email: 'asha@example.com',
        phone_number: '9876543210',
        gender: 'Female',
        shipping_address: '12 MG Road, Bengaluru',
        pincode: '560001',
        eventID: f.eventId,
        bibNumber: f.bib,
        cartInfo: { searchKind: 'bib', packageKind: null, lines, discountedPhotoIds: [] },
      },
      auth(runner),
    );
    expect(res.body.Message).toBe('Order created');
    await t.ctx.db.query(`update orders set status = 'Paid', paid_at = now(), payment_id = 'mihpay-' || id where order_ref = $1`, [res.body.result.order_ref]);
    return res.body.result.order_ref;
  }

  const queue = async (search = '') => (await t.request<FulfilmentQueueResult>('POST', API_ROUTES.fulfilmentQueue, { search }, auth(staff))).body.result.lines;
  const move = (lineId: number, status: string, extra: object = {}, token = staff) =>
    t.request<FulfilmentLine>('POST', API_ROUTES.fulfilmentLineStatus, { lineId, status, ...extra }, auth(token));
  const mails = (tag: string) =>
    t.ctx.db.query<{ to_address: string; body_text: string }>('select to_address, body_text from mail_outbox where tag = $1 order by id', [tag]);

  beforeAll(async () => {
    t = await startTestApp();
    f = await seedOrdersFixture(t.ctx);
    magnetId = (
      await t.ctx.db.query<{ id: number }>(
        `insert into print_products (name, image_key, price, print_width_in, print_height_in) values ('Magnet 4x6 inches', 'prints/m.png', 739, 4, 6) returning id`,
      )
    )[0].id;
    frameId = (
      await t.ctx.db.query<{ id: number }>(
        `insert into print_products (name, image_key, price, print_width_in, print_height_in) values ('Frame 10x10 inches', 'prints/f.png', 319, 10, 10) returning id`,
      )
    )[0].id;
    big = [await photo('BIG-1', 2000, 1333), await photo('BIG-2', 2000, 1333), await photo('BIG-3', 2000, 1333)];
    small = await photo('SMALL-1', 1200, 800);
    const asha = await createUser(t.ctx.db, {
      firstName: 'Asha',
      lastName: 'Rao',
      email: 'asha@example.com',
      password: 'Finish@2026',
      primaryPhone: '9876543210',
      emailVerified: true,
    });
    runner = (await createSession(t.ctx.db, asha)).token;
    const printer = await createUser(t.ctx.db, { firstName: 'Pooja', lastName: 'Print', email: 'print@example.com', password: 'Finish@2026' });
    staff = (await createSession(t.ctx.db, printer)).token;
    const op = await createUser(t.ctx.db, { firstName: 'Omar', lastName: 'Ops', email: 'ops@example.com', password: 'Finish@2026' });
    await t.ctx.db.query('update users set is_operator = true where id = $1', [op]);
    operator = (await createSession(t.ctx.db, op)).token;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  it('only fulfilment staff (granted by an operator) and operators see the queue', async () => {
    expect((await t.request('POST', API_ROUTES.fulfilmentQueue, {}, auth(staff))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.fulfilmentQueue, {}, auth(runner))).status).toBe(403);
    expect((await t.request('POST', API_ROUTES.operatorFulfilmentRole, { email: 'print@example.com', grant: true }, auth(runner))).status).toBe(403);
    const granted = await t.request('POST', API_ROUTES.operatorFulfilmentRole, { email: 'print@example.com', grant: true }, auth(operator));
    expect(granted.body.Message).toBe('The account now works fulfilment.');
    expect(await t.ctx.db.query(`select granted, via from fulfilment_role_changes`)).toEqual([{ granted: true, via: 'api' }]);
    expect((await t.request('POST', API_ROUTES.fulfilmentQueue, {}, auth(staff))).status).toBe(200);
    expect((await t.request('POST', API_ROUTES.fulfilmentQueue, {}, auth(operator))).status).toBe(200);
  });

  it('makes print-ready files: the product aspect at 300 dpi with the bleed, sRGB; a lower dpi warned; too small held; the collage 2 ft x 3 ft', async () => {
    const orderRef = await paidOrder([
      { type: 'print', category: 'image', id: big[0], printProductId: magnetId },
      { type: 'print', category: 'image', id: small, printProductId: magnetId },
      { type: 'print', category: 'image', id: small, printProductId: frameId },
      { type: 'collage', category: 'image', id: big[0], collagePhotoIds: big, orientation: 'Vertical' },
    ]);
    const before = await queue(orderRef);
    expect(before.map((l) => [l.kind, l.status, l.fileState])).toEqual([
      ['print', 'queued', 'pending'],
      ['print', 'queued', 'pending'],
      ['print', 'queued', 'pending'],
      ['collage', 'queued', 'pending'],
    ]);
    expect(await preparePrintFiles(t.ctx)).toEqual({ ready: 3, held: 1, left: 0 });
    const [magnet, lowMagnet, frame, collage] = await queue(orderRef);

    // A landscape photo on a 4x6 magnet prints 6x4: 6.25 x 4.25 inches with the bleed at 300 dpi.
    expect(magnet).toMatchObject({
      fileState: 'ready',
      fileDpi: 300,
      fileWidth: 1875,
      fileHeight: 1275,
      warning: null,
      shippingAddress: '12 MG Road, Bengaluru',
      pincode: '560001',
    });
    const file = await t.ctx.storage.getBuffer(
      (await t.ctx.db.query<{ file_key: string }>('select file_key from print_lines where id = $1', [magnet!.id]))[0]!.file_key,
    );
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height, meta.density, meta.space, Boolean(meta.icc)]).toEqual([1875, 1275, 300, 'srgb', true]);
    // 1200 x 800 cropped to 6.25:4.25 keeps 1176 px across 6.25 inches: 188 dpi, made and warned.
    expect(lowMagnet).toMatchObject({ fileState: 'ready', fileDpi: 188, warning: lowDpiWarning(188) });
    // 800 px across 10.25 inches: 78 dpi, never printed blurred.
    expect(frame).toMatchObject({ fileState: 'held', holdReason: tooSmallReason('Frame 10x10 inches', 78), fileDpi: null });
    expect(collage).toMatchObject({ fileState: 'ready', fileDpi: 150, fileWidth: 3600, fileHeight: 5400, product: 'Journey-map collage (Vertical)' });

    // The held line cannot be printed.
    const held = await move(frame!.id, 'printed');
    expect([held.status, held.body.Message]).toEqual([400, heldMessage(frame!.holdReason!)]);
    // The job runs again: nothing new.
    expect(await preparePrintFiles(t.ctx)).toEqual({ ready: 0, held: 0, left: 0 });
  }, 120_000);

  it('moves a line forward only; shipping needs courier and tracking; one mail per change; the runner sees it', async () => {
    const orderRef = await paidOrder([{ type: 'print', category: 'image', id: big[1], printProductId: magnetId }]);
    await preparePrintFiles(t.ctx);
    const [line] = await queue(orderRef);
    const skip = await move(line!.id, 'shipped', { courier: 'Blue Dart', trackingNumber: 'BD123' });
    expect([skip.status, skip.body.Message]).toEqual([400, backwardsMessage('queued', 'shipped')]);
    expect((await move(line!.id, 'printed')).status).toBe(200);
    const noTracking = await move(line!.id, 'shipped', { courier: 'Blue Dart' });
    expect([noTracking.status, noTracking.body.Message]).toEqual([400, COURIER_REQUIRED_MESSAGE]);
    const shipped = await move(line!.id, 'shipped', { courier: 'Blue Dart', trackingNumber: 'BD123456' });
    expect(shipped.body.result).toMatchObject({ status: 'shipped', courier: 'Blue Dart', trackingNumber: 'BD123456' });
    const back = await move(line!.id, 'printed');
    expect([back.status, back.body.Message]).toEqual([400, backwardsMessage('shipped', 'printed')]);
    const again = await move(line!.id, 'shipped', { courier: 'DTDC', trackingNumber: 'X1' });
    expect([again.status, again.body.Message]).toEqual([409, changedMeanwhileMessage('shipped')]);

    const shippedMails = (await mails('print_shipped')).filter((m) => m.body_text.includes(orderRef));
    expect(shippedMails).toHaveLength(1);
    expect(shippedMails[0]).toMatchObject({ to_address: 'asha@example.com' });
    expect(shippedMails[0]!.body_text).toContain('Tracking number: BD123456');

    const detail = await t.request<OrderDetail>('POST', API_ROUTES.orderDetail, { orderID: orderRef }, auth(runner));
    expect(detail.body.result.printLines).toEqual([
      expect.objectContaining({ product: 'Magnet 4x6 inches', status: 'shipped', statusLabel: 'Shipped', courier: 'Blue Dart', trackingNumber: 'BD123456' }),
    ]);
    expect(detail.body.result.shipping).toEqual({ address: '12 MG Road, Bengaluru', pincode: '560001' });

    expect((await move(line!.id, 'delivered')).status).toBe(200);
    expect((await move(line!.id, 'delivered')).status).toBe(409);
    expect((await mails('print_delivered')).filter((m) => m.body_text.includes(orderRef))).toHaveLength(1);
    expect((await move(line!.id, 'returned')).status).toBe(200);
    expect((await move(line!.id, 'delivered')).status).toBe(400);
    const changes = await t.ctx.db.query<{ from_status: string; to_status: string }>(
      'select from_status, to_status from print_line_changes where line_id = $1 order by id',
      [line!.id],
    );
    expect(changes.map((c) => `${c.from_status}->${c.to_status}`)).toEqual([
      'queued->printed',
      'printed->shipped',
      'shipped->delivered',
      'delivered->returned',
    ]);
  }, 60_000);

  it('two fulfilment users marking one line at once leave one result', async () => {
    const orderRef = await paidOrder([{ type: 'print', category: 'image', id: big[2], printProductId: magnetId }]);
    await preparePrintFiles(t.ctx);
    const [line] = await queue(orderRef);
    const results = await Promise.all([move(line!.id, 'printed'), move(line!.id, 'printed', {}, operator), move(line!.id, 'printed')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await t.ctx.db.query('select to_status from print_line_changes where line_id = $1', [line!.id])).toEqual([{ to_status: 'printed' }]);
    await move(line!.id, 'shipped', { courier: 'Blue Dart', trackingNumber: 'BD9' });
    const shipAgain = await Promise.all([move(line!.id, 'delivered'), move(line!.id, 'delivered', {}, operator)]);
    expect(shipAgain.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await mails('print_delivered')).filter((m) => m.body_text.includes(orderRef))).toHaveLength(1);
  }, 60_000);

  it('a line whose original cannot be rendered never holds up the queue: it goes behind the others and is held after a few tries; a run works the whole queue', async () => {
    // An "original" that is not an image: every render of it fails.
    const key = `originals/${f.eventId}/BROKEN-1.jpg`;
    await t.ctx.storage.put(key, Buffer.from('not a jpeg at all'), 'image/jpeg');
    const broken = await insertTestPhoto(t.ctx.db, { eventId: f.eventId, bib: f.bib, imageId: 'BROKEN-1', originalKey: key, width: 3000, height: 2000 });
    const brokenRef = await paidOrder([{ type: 'print', category: 'image', id: broken, printProductId: magnetId }]);
    // Five good lines after it: more than one round of two.
    const more = [await photo('BIG-4', 2000, 1333), await photo('BIG-5', 2000, 1333)];
    const goodRef = await paidOrder([...big, ...more].map((id) => ({ type: 'print', category: 'image', id, printProductId: magnetId })));
    expect(await preparePrintFiles(t.ctx, { batch: 2 })).toEqual({ ready: 5, held: 0, left: 1 });
    expect((await queue(goodRef)).map((l) => l.fileState)).toEqual(['ready', 'ready', 'ready', 'ready', 'ready']);
    // The broken line was tried once and now sorts after a new line: the new one is made first.
    const newerRef = await paidOrder([{ type: 'print', category: 'image', id: big[1], printProductId: magnetId }]);
    // A run with no time left only turns the new payment into its line.
    expect(await preparePrintFiles(t.ctx, { batch: 1, budgetMs: 0 })).toEqual({ ready: 0, held: 0, left: 0 });
    const order = await t.ctx.db.query<{ order_ref: string }>(
      `select o.order_ref from print_lines l join orders o on o.id = l.order_id where l.file_state = 'pending' and l.status = 'queued' order by l.file_attempted_at nulls first, l.created_at, l.id`,
    );
    expect(order.map((r) => r.order_ref)).toEqual([newerRef, brokenRef]);
    expect(await preparePrintFiles(t.ctx)).toEqual({ ready: 1, held: 0, left: 1 });
    expect(await preparePrintFiles(t.ctx)).toEqual({ ready: 0, held: 1, left: 0 });
    const [held] = await queue(brokenRef);
    expect(held!.fileState).toBe('held');
    expect(held!.holdReason).toMatch(/^The print file could not be made \(.+\)\. Check the original with the photographer or refund the line\.$/);
    expect(await t.ctx.db.query('select file_attempts from print_lines where id = $1', [held!.id])).toEqual([{ file_attempts: MAX_RENDER_ATTEMPTS }]);
  }, 120_000);

  it('exports the queue as CSV and finds lines by order reference', async () => {
    const lines = await queue();
    expect(lines.length).toBeGreaterThanOrEqual(6);
    // Oldest first.
    expect([...lines].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id).map((l) => l.id)).toEqual(lines.map((l) => l.id));
    const res = await fetch(`${t.url}${API_ROUTES.fulfilmentExport}?status=shipped`, { headers: auth(staff) });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const rows = (await res.text()).trim().split('\r\n');
    expect(rows[0]).toMatch(/^Line,Order,Paid at/);
    expect(rows.slice(1).every((r) => r.includes(',shipped,'))).toBe(true);
    expect((await fetch(`${t.url}${API_ROUTES.fulfilmentExport}`, { headers: auth(runner) })).status).toBe(403);
  });

  it("downloads a batch: the lines' print-ready files and a packing list per parcel, recorded; refuses lines not ready, done, unknown or too many", async () => {
    const first = await paidOrder([
      { type: 'print', category: 'image', id: big[2], printProductId: magnetId },
      { type: 'print', category: 'image', id: big[1], printProductId: magnetId },
    ]);
    const second = await paidOrder([{ type: 'print', category: 'image', id: big[0], printProductId: magnetId }]);
    const heldRef = await paidOrder([{ type: 'print', category: 'image', id: small, printProductId: frameId }]);
    await preparePrintFiles(t.ctx);
    const lines = [...(await queue(first)), ...(await queue(second))];
    expect(lines.map((l) => [l.fileState, l.lastBatch])).toEqual([
      ['ready', null],
      ['ready', null],
      ['ready', null],
    ]);
    const ids = lines.map((l) => l.id);

    const batch = (body: object, token = staff) =>
      fetch(`${t.url}${API_ROUTES.fulfilmentBatch}`, {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const res = await batch({ lineIds: ids });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const [made] = await t.ctx.db.query<{ id: number; made_by: number; lines: number[] }>(
      `select b.id, b.made_by, array_agg(bl.line_id order by bl.line_id) as lines from print_batches b join print_batch_lines bl on bl.batch_id = b.id join users u on u.id = b.made_by where u.email = 'print@example.com' group by b.id`,
    );
    expect(made!.lines).toEqual([...ids].sort((a, b) => a - b));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="print-batch-${made!.id}.zip"`);

    const entries = await unzipAll(Buffer.from(await res.arrayBuffer()));
    expect(entries.map((e) => e.name).sort()).toEqual(['packing-list.pdf', ...lines.map((l) => `files/${batchFileName(l)}`)].sort());
    // Each file is the line's print-ready file as stored (the magnet's 6.25 x 4.25 inches at 300 dpi).
    for (const line of lines) {
      const stored = (await t.ctx.db.query<{ file_key: string }>('select file_key from print_lines where id = $1', [line.id]))[0]!.file_key;
      const entry = entries.find((e) => e.name === `files/${batchFileName(line)}`)!;
      expect(entry.data.equals(await t.ctx.storage.getBuffer(stored))).toBe(true);
      const meta = await sharp(entry.data).metadata();
      expect([meta.width, meta.height]).toEqual([line.fileWidth, line.fileHeight]);
    }
    expect(batchFileName(lines[0]!)).toBe(`${first}-line${lines[0]!.id}-magnet-4x6-inches.jpg`);

    const pdf = entries.find((e) => e.name === 'packing-list.pdf')!.data;
    const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(`Packing list: print batch ${made!.id}`);
    expect(flat).toContain('downloaded by Pooja Print. 3 lines in 2 parcels.');
    const [firstRef, secondRef] = [first, second].sort();
    expect(flat).toContain(`Parcel 1 of 2: order ${firstRef}`);
    expect(flat).toContain(`Parcel 2 of 2: order ${secondRef}`);
    expect(flat).toContain('Ship to: Asha Rao, 9876543210 12 MG Road, Bengaluru, PIN 560001');
    for (const line of lines) expect(flat).toContain(`Line ${line.id}: ${line.product} x 1`);

    // The queue and the CSV show the batch each line went out in.
    expect((await queue(first)).map((l) => l.lastBatch)).toEqual([made!.id, made!.id]);
    const csv = await (await fetch(`${t.url}${API_ROUTES.fulfilmentExport}?search=${second}`, { headers: auth(staff) })).text();
    expect(csv.trim().split('\r\n')[1]!.endsWith(`,${made!.id}`)).toBe(true);

    // Refused, with nothing recorded: a held line, a line already shipped, an unknown line, twice, none, too many, a runner.
    const [held] = await queue(heldRef);
    const [done] = await t.ctx.db.query<{ id: number }>(`select id from print_lines where status not in ('queued', 'printed') order by id limit 1`);
    const refusals: Array<[object, number, string]> = [
      [{ lineIds: [ids[0], held!.id] }, 409, linesNotReadyMessage([held!.id])],
      [{ lineIds: [done!.id] }, 409, linesDoneMessage([done!.id])],
      [{ lineIds: [ids[0], 999_999] }, 404, linesNotFoundMessage([999_999])],
      [{ lineIds: [ids[0], ids[0]] }, 400, PRINT_BATCH_MESSAGES.twice],
      [{ lineIds: [] }, 400, PRINT_BATCH_MESSAGES.empty],
      [{ lineIds: Array.from({ length: PRINT_BATCH_MAX_LINES + 1 }, (_v, i) => i + 1) }, 400, PRINT_BATCH_MESSAGES.tooMany],
    ];
    for (const [body, status, message] of refusals) {
      const refused = await batch(body);
      expect([refused.status, ((await refused.json()) as { Message: string }).Message]).toEqual([status, message]);
    }
    expect((await batch({ lineIds: ids }, runner)).status).toBe(403);
    expect(await t.ctx.db.query('select count(*)::int as n from print_batches')).toEqual([{ n: 1 }]);
  }, 120_000);
});
