import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES, computeBill, type Bill, type CartLine, type CartRequest } from '@finishline/shared/pure';
import { closeAll, startTestApp, type TestApp, SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { imageLines, seedCartFixture, tt100Cart, type CartFixture } from './cartFixtures';

describe('cart details: the server prices the cart', () => {
  let t: TestApp;
  let f: CartFixture;
  beforeAll(async () => {
    // As behind a proxy on this machine (TRUST_PROXY=127.0.0.1), so a test can name the client's address.
    t = await startTestApp({ trustProxy: ['127.0.0.1'] });
    f = await seedCartFixture(t.ctx.db);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => closeAll(t), TEAR_DOWN_TIMEOUT_MS);

  const images = imageLines;
  const cart = (lines: CartLine[], extra: Partial<CartRequest> = {}): CartRequest => tt100Cart(f, lines, extra);
  const details = (body: unknown, headers?: Record<string, string>) => t.request<Bill>('POST', API_ROUTES.cartDetails, body, headers);

  it.each([
    [1, 100, 18],
    [2, 150, 27],
    [4, 250, 45],
    [5, 500, 90],
    [6, 500, 90],
  ])('%i photos: %i plus GST %i', async (n, amount, gst) => {
    const { status, body } = await details(cart(images(f.photoIds.slice(0, n))));
    expect(status).toBe(200);
    expect(body.result.digital_download).toBe(amount);
    expect(body.result.gstInfo[0].gst_amount).toBe(gst);
    expect(body.result.total_amount).toBe(amount + gst);
    expect(body.result).toMatchObject({ eventId: f.eventId, eventName: 'Test City Marathon 2026', bibNumber: 'TT100', photo_count: n });
  });

  it('prices videos, prints and a collage and ignores any amount the browser sends', async () => {
    const lines: CartLine[] = [
      ...images([f.photoIds[0]]),
      { type: 'download', category: 'video', id: f.videoId },
      { type: 'print', category: 'image', id: f.photoIds[1], printProductId: f.printIds.magnet },
      { type: 'print', category: 'image', id: f.photoIds[1], printProductId: f.printIds.mug },
      { type: 'collage', category: 'image', id: f.photoIds[0], collagePhotoIds: f.photoIds.slice(0, 3), orientation: 'Vertical' },
    ];
    const { status, body } = await details({ ...cart(lines), amount: 1, total_amount: 1 });
    expect(status).toBe(200);
    expect(body.result.print_count).toBe(2);
    expect(body.result.collage_count).toBe(1);
    expect(body.result.total_amount).toBe(118 + 177 + 872 + 306 + 1391);
  });

  it('applies a package at the threshold and not one below it', async () => {
    const below = await details(cart(images(f.photoIds.slice(0, 5)), { packageKind: 'b' }));
    expect(below.body.result.appliedPackage).toBeNull();
    const at = await details(cart(images(f.photoIds.slice(0, 6)), { packageKind: 'b' }));
    expect(at.body.result.appliedPackage).toBe('b_ultraprem');
    expect(at.body.result.digital_download).toBe(799);
  });

  it('applies the sponsor discount to at most max_orders_allowed photos', async () => {
    const { body } = await details(cart(images(f.photoIds.slice(0, 4)), { sponsorofferID: f.offerId, discountedPhotoIds: f.photoIds.slice(0, 4) }));
    expect(body.result.discountedPhotoIds).toEqual(f.photoIds.slice(0, 2));
    expect(body.result.discount).toBe(25);
    expect(body.result.offerInfo).toEqual({ offerName: 'FAST20', discount_price: 25 });
    expect(body.result.total_amount).toBe(225 + 41);
  });

  it('equals the shared computeBill the browser shows', async () => {
    const request = cart([...images(f.photoIds.slice(0, 3)), { type: 'print', category: 'image', id: f.photoIds[0], printProductId: f.printIds.poster }], {
      sponsorofferID: f.offerId,
      discountedPhotoIds: [f.photoIds[2]],
    });
    const { body } = await details(request);
    const server = body.result;
    const local = computeBill({
      cart: request,
      catalog: {
        priceInfo: server.priceInfo,
        threshold_photo_count: 6,
        show_prempack: true,
        show_ultrapack: true,
        ultra_premium_pack: 799,
        bundlePriceInfo: { price: 500, Premium_Pack: 449 },
        printProductInfo: [{ id: f.printIds.poster, name: 'Wall poster 13x10 inches', image: '', price: 350, pricewthgst: 413 }],
        sponsorOffer: server.getSponsorOffersDetails[0],
      },
    });
    expect(server.total_amount).toBe(local.total_amount);
    expect(server.gstInfo).toEqual(local.gstInfo);
  });

  it.each([
    ['a photo of another BIB', () => cart(images([f.photoIds[0], f.otherBibPhotoId])), 'One order holds images for a single BIB only'],
    ['a photo of another event', () => cart(images([f.privatePhotoIds[0]])), 'is not part of Test City Marathon 2026'],
    ['a video sent as an image', () => cart(images([f.videoId])), 'cannot be bought as a photo'],
    [
      'a collage of 2 photos',
      () => cart([{ type: 'collage', category: 'image', id: f.photoIds[0], collagePhotoIds: f.photoIds.slice(0, 2) }]),
      'Minimum 3 photos and maximum 5 are mandatory to make collage',
    ],
    [
      'a collage of 6 photos',
      () => cart([{ type: 'collage', category: 'image', id: f.photoIds[0], collagePhotoIds: f.photoIds.slice(0, 6) }]),
      'Minimum 3 photos and maximum 5 are mandatory to make collage',
    ],
    ['an empty cart', () => cart([]), 'Your cart is empty'],
    ['an unknown sponsor offer', () => cart(images([f.photoIds[0]]), { sponsorofferID: 99999 }), 'This sponsor offer is not available'],
    ['an unlabeled cart on the BIB call', () => cart(images([f.photoIds[0]]), { searchKind: 'unlabeled' }), 'unlabeled cart'],
  ])('refuses %s with a clear 400', async (_name, make, message) => {
    const { status, body } = await details(make());
    expect(status).toBe(400);
    expect(body.HasError).toBe(true);
    expect(body.Message).toContain(message);
  });

  it('refuses malformed input with a 400', async () => {
    const { status, body } = await details({ ...cart(images([1])), eventId: 'x' });
    expect(status).toBe(400);
    expect(body.Message).toBe('Please choose an event.');
  });

  it('hides prints outside India (+91) and for events on DISABLEPRINTS', async () => {
    const print: CartLine = { type: 'print', category: 'image', id: f.photoIds[0], printProductId: f.printIds.frame };
    const india = await details(cart([print]), { 'x-forwarded-for': '49.36.0.1' });
    expect(india.status).toBe(200);
    expect(india.body.result.total_amount).toBe(376);
    const abroad = await details(cart([print]), { 'x-forwarded-for': '8.8.8.8' });
    expect(abroad.status).toBe(400);
    expect(abroad.body.Message).toBe('Prints are delivered only inside India (+91).');

    const np = await t.ctx.db.query<{ id: number }>('select id from photos where event_id = $1', [f.noPrintsEventId]);
    const disabled = await details({ ...cart([{ ...print, id: np[0].id }]), eventId: f.noPrintsEventId, bibNumber: 'NP1' });
    expect(disabled.status).toBe(400);
    expect(disabled.body.Message).toBe('Prints are not available for No Prints 10K 2026.');
    const collage = await details({
      ...cart([{ type: 'collage', category: 'image', id: np[0].id, collagePhotoIds: [np[0].id, np[0].id, np[0].id] }]),
      eventId: f.noPrintsEventId,
      bibNumber: 'NP1',
    });
    expect(collage.body.Message).toBe('Collages are not available for No Prints 10K 2026.');
    const download = await details({ ...cart(images([np[0].id])), eventId: f.noPrintsEventId, bibNumber: 'NP1' });
    expect(download.status).toBe(200);
  });

  it('prices the unlabeled cart with unlabeled photos only and never a package', async () => {
    const ok = await t.request<Bill>('POST', API_ROUTES.unlabeledCartDetails, cart(images(f.unlabeledPhotoIds), { bibNumber: 'unlabeled', packageKind: 'b' }));
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ bibNumber: 'unlabeled', digital_download: 150, appliedPackage: null });
    expect(ok.body.result.gstInfo[0].gst_amount).toBe(27);
    const labeled = await t.request<Bill>('POST', API_ROUTES.unlabeledCartDetails, cart(images([f.photoIds[0]]), { bibNumber: 'unlabeled' }));
    expect(labeled.status).toBe(400);
    expect(labeled.body.Message).toBe('The unlabeled cart holds unlabeled photos only.');
  });
});
