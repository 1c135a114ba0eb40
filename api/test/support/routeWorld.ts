import { expect } from '@jest/globals';
import sharp from 'sharp';
import { API_ROUTES, FACE_CONSENT_VERSION, standardTemplate, type PaymentForm } from '@finishline/shared/pure';
import type { PaymentTestApp } from './paymentApp';
import { solveCaptcha } from './captcha';
import { seedOrdersFixture, type OrdersFixture } from '../ordersFixtures';
import { seedCartFixture, type CartFixture } from '../cartFixtures';
import { createUser } from '../../src/features/accounts/users';
import { createSession } from '../../src/features/accounts/sessions';
import { downloadUntil, signPreauth } from '../../src/features/orders/preauth';
import { readOutbox } from '../../src/mail/mailer';
import { FAILING_CARD } from '../../src/payment-sandbox/sandbox';
import { OTP_PURPOSE } from '../../src/features/otp/privacyOtp';
import { saveAchievement } from '../../src/features/certificates';
import { ffmpeg } from '../../src/media/ffmpeg';

/**
 * A world in which every API route has a request that succeeds for the runner: the runner's paid
 * order and its download links, gateway returns, a paid pre-order, privacy-checked BIBs, accounts
 * for each role. The authorization matrix sends these requests as each kind of caller; the fuzz
 * suite sends them with one field spoiled.
 */
export type Role = 'visitor' | 'runner' | 'otherRunner' | 'partner' | 'organiser';
export const ROLES: Role[] = ['visitor', 'runner', 'otherRunner', 'partner', 'organiser'];

export interface RouteWorld {
  /** A request per route ("METHOD url" as registered), built for the caller (fresh captchas, OTPs). */
  requests: Record<string, (caller: Caller) => Promise<CellRequest>>;
  send(method: string, request: CellRequest, caller: Caller): Promise<{ status: number; text: string }>;
  /** A fresh session of the role's account (none for the visitor). */
  sessionOf(role: Role): Promise<Caller>;
  /**
   * Puts every account back in its role: a runner or organiser whose registration cell made them a
   * (pending) photographer is a plain runner or organiser again for the next route's cells.
   */
  restoreRoles(): Promise<void>;
}

export interface Caller {
  role: Role;
  token: string | null;
}
export interface CellRequest {
  path: string;
  json?: unknown;
  form?: Record<string, string>;
  /** A multipart form (the certificate calls), with at most one file. */
  multipart?: { fields: Record<string, string>; file?: { field: string; name: string; type: string; data: Buffer } };
  headers?: Record<string, string>;
  /** A raw body (a tus chunk), sent with the headers as given. */
  raw?: Buffer;
}

export const PASSWORD = 'Matrix#2026';
export const EMAILS: Record<Exclude<Role, 'visitor'>, string> = {
  runner: 'asha@example.com',
  otherRunner: 'bo.other@example.com',
  partner: 'pat.partner@example.com',
  organiser: 'oli.organiser@example.com',
};

export async function buildRouteWorld(p: PaymentTestApp): Promise<RouteWorld> {
  const db = p.t.ctx.db;
  const f: OrdersFixture = await seedOrdersFixture(p.t.ctx);
  const cart: CartFixture = await seedCartFixture(db);
  const userIds = {} as Record<Exclude<Role, 'visitor'>, number>;
  await db.query(`insert into participants (event_id, bib_number, name, email) values ($1, 'PR8', 'Pavan', 'pavan.runner@example.com')`, [cart.privateEventId]);
  await p.t.ctx.storage.put('public/matrix/logo.png', Buffer.from('png'), 'image/png');
  for (const role of ['runner', 'otherRunner', 'partner', 'organiser'] as const) {
    userIds[role] = await createUser(db, {
      firstName: role,
      lastName: 'Matrix',
      email: EMAILS[role],
      password: PASSWORD,
      isPartner: role === 'partner',
      isOrganiser: role === 'organiser',
    });
  }
  await createUser(db, { firstName: 'Login', lastName: 'Only', email: 'login.only@example.com', password: PASSWORD });
  // The organiser runs the runner's event; the partner has registered for it as a photographer.
  await db.query('update events set organiser_user_id = $1 where id = $2', [userIds.organiser, f.eventId]);
  await db.query(
    `insert into partner_profiles (user_id, first_name, last_name, mobile, nickname, bank_account_name, bank_account_number_enc, bank_account_last4,
                                   bank_account_type, bank_name, bank_branch, bank_ifsc, pan_enc, pan_last4)
     values ($1, 'Pat', 'Partner', '9876500001', 'patshots', 'Pat Partner', 'sealed', '4321', 1, 'State Bank', 'Fort', 'SBIN0001234', 'sealed', '234F')`,
    [userIds.partner],
  );
  // Approved, and the shooter of the runner's two paid photos: My Share has figures and a payout can be recorded.
  await db.query(`insert into event_partners (event_id, user_id, remarks, status) values ($1, $2, 'Two bodies, 70-200 mm', 'approved')`, [
    f.eventId,
    userIds.partner,
  ]);
  await db.query('update photos set partner_user_id = $1 where id = any($2::int[])', [userIds.partner, f.photoIds.slice(0, 2)]);
  // The organiser's own unpublished event for the calls that change an event; a "not me" report to decide.
  const organiserEventId = (
    await db.query<{ id: number }>(
      `insert into events (name, from_date, to_date, organiser_user_id, published) values ('Matrix Organiser Event', '2027-03-07', '2027-03-07', $1, false) returning id`,
      [userIds.organiser],
    )
  )[0].id;
  const reportId = (
    await db.query<{ id: number }>(`insert into photo_reports (photo_id, event_id, bib_number, reporter_user_id) values ($1, $2, 'OT200', $3) returning id`, [
      f.otherBibPhotoId,
      f.eventId,
      userIds.otherRunner,
    ])
  )[0].id;
  const logoPng = (
    await sharp({ create: { width: 40, height: 20, channels: 3, background: '#0b5cad' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const eventForm = (name: string) => ({
    name,
    from_date: '2027-03-07',
    to_date: '2027-03-07',
    location: 'Nashik',
    theme_code: null,
    bib_pattern: '^MX\\d{1,4}$',
    single_photo_price: 100,
    extra_photo_price: 50,
    bundle_price: 500,
    video_price: 150,
    collage_price: 1179,
    print_prices: [],
    threshold_photo_count: 10,
    premium_pack_price: 449,
    ultra_premium_pack_price: 799,
    show_prempack: false,
    show_ultrapack: false,
    preorder_price: null,
    preorder_cut_price: null,
    sponsor_offer: null,
    issearchable: true,
    selfiesearch: false,
    showunlabeled: false,
    preorder_allowed: false,
    privacy_check: false,
    prints_disabled: false,
  });

  let cellNumber = 0;

  const url = () => p.t.url;
  const bearer = (caller: Caller): Record<string, string> => (caller.token ? { authorization: `Bearer ${caller.token}` } : {});
  const captcha = () => solveCaptcha(url());

  async function send(method: string, request: CellRequest, caller: Caller): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { ...bearer(caller), ...request.headers };
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) {
      body = new URLSearchParams(request.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const sent = request.raw ? new Uint8Array(request.raw) : request.multipart ? formDataOf(request.multipart) : body;
    const response = await fetch(`${url()}${request.path}`, { method, headers, body: sent, redirect: 'manual' });
    return { status: response.status, text: await response.text() };
  }

  async function sessionOf(role: Role): Promise<Caller> {
    return { role, token: role === 'visitor' ? null : (await createSession(p.t.ctx.db, userIds[role])).token };
  }

  /** The runner's checkout: the signed-in form's fields, which a guest's order carries too. */
  const orderBody = async (lines: object[]) => ({
    name: 'Asha Rao',
    email: EMAILS.runner,
    phone_number: '9876543210',
    gender: 'Female',
    shipping_address: '12 MG Road, Bengaluru',
    pincode: '560001',
    captcha: await captcha(),
    eventID: f.eventId,
    bibNumber: f.bib,
    cartInfo: { searchKind: 'bib', packageKind: null, lines, discountedPhotoIds: [] },
  });

  async function createRunnerOrder(token: string, lines: object[]): Promise<PaymentForm> {
    const res = await send(
      'POST',
      {
        path: API_ROUTES.createOrder,
        json: await orderBody(lines),
      },
      { role: 'runner', token },
    );
    expect(`${res.status} ${res.text}`).toMatch(/^200 /);
    return (JSON.parse(res.text) as { result: PaymentForm }).result;
  }

  /** Mails an OTP for a privacy-checked BIB in the caller's session and reads the code from the outbox. */
  async function otpFor(caller: Caller, eventID: number, bibNumber: string): Promise<string> {
    if (!caller.token) return '000000';
    const before = (await readOutbox(p.t.ctx.mailer.outboxDir!)).length;
    const sent = await send('POST', { path: API_ROUTES.generateOtp, json: { eventID, bibNumber, gCaptchToken: await captcha() } }, caller);
    expect(`${sent.status} ${sent.text}`).toMatch(/^200 /);
    const mail = (await readOutbox(p.t.ctx.mailer.outboxDir!)).slice(before).find((m) => m.tag === OTP_PURPOSE);
    return /is (\d{6})/.exec(mail?.text ?? '')?.[1] ?? '000000';
  }

  const photoLines = (ids: number[]) => ids.map((id) => ({ type: 'download', category: 'image', id }));

  // The runner's paid order (two photos), and the gateway's answers for two more payments.
  const runnerToken = (await createSession(db, userIds.runner)).token;
  const runnerOrder = await createRunnerOrder(runnerToken, photoLines(f.photoIds.slice(0, 2)));
  const paid = await p.pay(runnerOrder);
  expect((await fetch(paid.action, { method: 'POST', body: new URLSearchParams(paid.fields), redirect: 'manual' })).status).toBe(303);
  const successReturn = await p.pay(await createRunnerOrder(runnerToken, photoLines([f.photoIds[2]])));
  const failureReturn = await p.pay(await createRunnerOrder(runnerToken, photoLines([f.photoIds[3]])), FAILING_CARD);

  const linkOf = async (path: string, json: object) =>
    JSON.parse((await send('POST', { path, json }, { role: 'runner', token: runnerToken })).text).result as string;
  const zipLink = await linkOf(API_ROUTES.downloadOrder, { orderID: runnerOrder.order_ref });
  const itemLink = await linkOf(API_ROUTES.downloadImage, { orderID: runnerOrder.order_ref, imageID: f.photoIds[0] });

  // A paid pre-order, to be mapped to its BIB.
  const created = await send(
    'POST',
    {
      path: API_ROUTES.createPreorder,
      json: { name: 'Kiran Shah', email: 'kiran@example.com', phone_number: '9123456789', eventID: f.preorderEventId, captcha: await captcha() },
    },
    { role: 'visitor', token: null },
  );
  const preorder: PaymentForm = (JSON.parse(created.text) as { result: PaymentForm }).result;
  const preorderPaid = await p.pay(preorder);
  expect((await fetch(preorderPaid.action, { method: 'POST', body: new URLSearchParams(preorderPaid.fields), redirect: 'manual' })).status).toBe(303);

  // An achievement of the runner's race alone (standard template): the runner's BIB has a finish time there.
  const achievementId = await saveAchievement(db, {
    title: 'Matrix Finisher',
    description: '',
    eventIds: [f.eventId],
    templateImageKey: null,
    templateConfig: null,
  });
  const certificate = await sharp({ create: { width: 3840, height: 2560, channels: 3, background: '#f4efe2' } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const certificateCalls = {
    search: {
      path: API_ROUTES.achievementsSearch,
      multipart: { fields: { 'event_bib_pairs[0][event_id]': String(f.eventId), 'event_bib_pairs[0][bib_number]': f.bib, page: '1' } },
    },
    template: {
      path: API_ROUTES.certificateTemplate,
      multipart: { fields: { achievement_id: String(achievementId), [`selected_photos[${f.eventId}]`]: String(f.photoIds[0]) } },
    },
    upload: {
      path: API_ROUTES.certificateUpload,
      multipart: {
        fields: { achievement_id: String(achievementId) },
        file: { field: 'certificate_url', name: 'certificate.jpg', type: 'image/jpeg', data: certificate },
      },
    },
    record: { path: API_ROUTES.certificateDownloadRecord, json: { achievement_id: achievementId } },
  } satisfies Record<string, CellRequest>;
  /** The builder's calls before `step`, made by the caller's own session (each step goes on with the session's run). */
  async function certificateStepsBefore(caller: Caller, step: keyof typeof certificateCalls): Promise<CellRequest> {
    const order = ['search', 'template', 'upload', 'record'] as const;
    for (const earlier of order.slice(0, order.indexOf(step))) await send('POST', certificateCalls[earlier], caller);
    return certificateCalls[step];
  }

  const NICKNAMES: Record<Exclude<Role, 'visitor'>, string> = { runner: 'mxrunner', otherRunner: 'mxother1', partner: 'patshots', organiser: 'mxorgani' };
  async function partnerRegistration(caller: Caller): Promise<CellRequest> {
    const known = caller.role === 'visitor' ? [] : await db.query('select 1 from partner_profiles where user_id = $1', [userIds[caller.role]]);
    return {
      path: API_ROUTES.registerPartner,
      json: {
        eventId: f.eventId,
        emailId: caller.role === 'visitor' ? 'visitor@example.com' : EMAILS[caller.role],
        form_type: known.length > 0 ? 1 : 0,
        firstname: 'Matrix',
        lastname: 'Shooter',
        mobilenumber: '9876500009',
        nickname: caller.role === 'visitor' ? 'visitor1' : NICKNAMES[caller.role],
        bankaccname: 'Matrix Shooter',
        bankaccnum: '123456789012',
        bankacctype: 1,
        bankname: 'State Bank',
        bankbranch: 'Fort',
        bankifsc: 'SBIN0001234',
        pannum: 'ABCDE1234F',
        isterms: 1,
        partnerremarks: 'One body, 24-70 mm',
        availabledate: ['2026-01-10'],
      },
    };
  }
  // The supply line: the partner is approved for the event, and owns uploads and photos of it.
  const approvePartner = () => db.query(`update event_partners set status = 'approved' where event_id = $1 and user_id = $2`, [f.eventId, userIds.partner]);
  const tusHeaders = {
    'tus-resumable': '1.0.0',
    'upload-length': '50000',
    'upload-metadata': `eventId ${Buffer.from(String(f.eventId)).toString('base64')},filename ${Buffer.from('m.jpg').toString('base64')},filetype ${Buffer.from('image/jpeg').toString('base64')}`,
  };
  async function partnerUpload(): Promise<string> {
    await approvePartner();
    const partner = await sessionOf('partner');
    const created = await fetch(`${url()}${API_ROUTES.partnerUploads}`, { method: 'POST', headers: { ...bearer(partner), ...tusHeaders } });
    return new URL(created.headers.get('location')!, url()).pathname;
  }
  async function partnerPhoto(): Promise<number> {
    await approvePartner();
    const imageId = `MX-SUP-${++cellNumber}`;
    const rows = await db.query<{ id: number }>(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, status, partner_user_id)
       values ($1, $2, 'image', 'originals/m.jpg', 'previews/m.jpg', 'thumbs/m.jpg', 10, 10, 'ready', $3) returning id`,
      [f.eventId, imageId, userIds.partner],
    );
    return rows[0]!.id;
  }
  // A finisher in the organiser's own event, so that it has a certificate to read, save and preview.
  async function organiserRaceWithResults(): Promise<number> {
    await db.query(
      `insert into participants (event_id, bib_number, name, finish_time) values ($1, 'MXC1', 'Matrix Certified', interval '3605 seconds') on conflict do nothing`,
      [organiserEventId],
    );
    return organiserEventId;
  }
  // Two of the organiser's races with results (the second unpublished, its own), for a series; each cell's series has its own title and is off.
  let secondRaceId: number | null = null;
  let seriesCells = 0;
  async function seriesRequest() {
    secondRaceId ??= (
      await db.query<{ id: number }>(
        `insert into events (name, from_date, to_date, organiser_user_id, published) values ('Matrix Second Race', '2027-04-04', '2027-04-04', $1, false) returning id`,
        [userIds.organiser],
      )
    )[0]!.id;
    await db.query(
      `insert into participants (event_id, bib_number, name, finish_time) values ($1, 'MXC2', 'Matrix Certified', interval '3700 seconds') on conflict do nothing`,
      [secondRaceId],
    );
    return { title: `Matrix Series ${++seriesCells}`, eventIds: [await organiserRaceWithResults(), secondRaceId], active: false };
  }
  async function certificateDraft() {
    const eventId = await organiserRaceWithResults();
    return {
      eventId,
      title: 'Matrix Certificate',
      accent_color: '#0b5cad',
      background_key: null,
      template_config: standardTemplate({ title: 'Matrix Certificate', eventIds: [eventId] }),
    };
  }
  // Finish-line videos: a one-second MP4 made by FFmpeg stands for the partner's recording; a
  // participant with an official finish time inside it makes the clock valid.
  let matrixVideoKey: string | null = null;
  async function partnerVideo(): Promise<number> {
    await approvePartner();
    if (!matrixVideoKey) {
      matrixVideoKey = 'originals/footage/matrix.mp4';
      const { stdout } = await ffmpeg([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=10',
        '-t',
        '2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart+frag_keyframe+empty_moov',
        '-f',
        'mp4',
        'pipe:1',
      ]);
      await p.t.ctx.storage.put(matrixVideoKey, stdout, 'video/mp4');
      await db.query(
        `insert into participants (event_id, bib_number, name, finish_time) values ($1, 'MXV1', 'Matrix Finisher', interval '1 second') on conflict do nothing`,
        [f.eventId],
      );
    }
    const rows = await db.query<{ id: number }>(
      `insert into finish_videos (event_id, partner_user_id, original_key, content_sha256, size_bytes, duration_seconds, width, height, frame_rate)
       values ($1, $2, $3, $4, 1000, 2, 320, 240, 10) returning id`,
      [f.eventId, userIds.partner, matrixVideoKey, `matrix-${++cellNumber}`],
    );
    return rows[0]!.id;
  }
  async function partnerClip(): Promise<number> {
    const videoId = await partnerVideo();
    const rows = await db.query<{ id: number }>(
      `insert into photos (event_id, image_id, kind, original_key, preview_key, thumb_key, width, height, status, partner_user_id, source_video_id, clip_bib, clip_crossing_seconds, review_reason)
       values ($1, $2, 'video', 'originals/m.mp4', 'previews/m.mp4', 'thumbs/m.jpg', 320, 240, 'review', $3, $4, 'MXV1', 1, 'Frames at the line show BIB MX1, not MXV1.') returning id`,
      [f.eventId, `MX-CLIP-${++cellNumber}`, userIds.partner, videoId],
    );
    return rows[0]!.id;
  }
  const supplyRequests: Record<string, (caller: Caller) => Promise<CellRequest>> = {
    'POST /api/partner/videos': async () => {
      await approvePartner();
      return { path: API_ROUTES.partnerVideos, json: { eventId: f.eventId } };
    },
    'POST /api/partner/videos/frame': async () => ({ path: API_ROUTES.partnerVideoFrame, json: { videoId: await partnerVideo(), atSecond: 1 } }),
    'POST /api/partner/videos/clock': async () => ({
      path: API_ROUTES.partnerVideoClock,
      json: { videoId: await partnerVideo(), mode: 'start', raceTime: '0:00:00' },
    }),
    'POST /api/partner/videos/clip-lengths': async () => {
      await approvePartner();
      return { path: API_ROUTES.partnerClipLengths, json: { eventId: f.eventId, beforeSeconds: 4, afterSeconds: 3 } };
    },
    'POST /api/partner/videos/clips/publish': async () => ({ path: API_ROUTES.partnerClipPublish, json: { photoId: await partnerClip() } }),
    'POST /api/partner/videos/clips/remove': async () => ({ path: API_ROUTES.partnerClipRemove, json: { photoId: await partnerClip() } }),
    'POST /api/partner/uploads': async () => {
      await approvePartner();
      return { path: API_ROUTES.partnerUploads, headers: tusHeaders };
    },
    'HEAD /api/partner/uploads/*': async () => ({ path: await partnerUpload(), headers: { 'tus-resumable': '1.0.0' } }),
    'DELETE /api/partner/uploads/*': async () => ({ path: await partnerUpload(), headers: { 'tus-resumable': '1.0.0' } }),
    'PATCH /api/partner/uploads/*': async () => ({
      path: await partnerUpload(),
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      raw: Buffer.alloc(1000, 7),
    }),
    'GET /api/partner/supply/events': async () => ({ path: API_ROUTES.partnerSupplyEvents }),
    'POST /api/partner/photos': async () => {
      await approvePartner();
      return { path: API_ROUTES.partnerPhotos, json: { eventId: f.eventId } };
    },
    'POST /api/partner/photos/bibs': async () => ({ path: API_ROUTES.partnerPhotoBibs, json: { photoId: await partnerPhoto(), bibs: ['MX77'] } }),
    'POST /api/partner/photos/remove': async () => ({ path: API_ROUTES.partnerRemovePhoto, json: { photoId: await partnerPhoto() } }),
  };

  /** A request for each route that would succeed for the runner. */
  const REQUESTS: Record<string, (caller: Caller) => Promise<CellRequest>> = {
    'OPTIONS *': async () => ({ path: API_ROUTES.createOrder, headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } }),
    'GET /health': async () => ({ path: API_ROUTES.health }),
    'GET /media/*': async () => ({ path: `${API_ROUTES.media}/public/matrix/logo.png` }),
    'GET /api/events/names': async () => ({ path: API_ROUTES.eventNames }),
    'GET /api/home': async () => ({ path: API_ROUTES.homePage }),
    'GET /api/events/themes': async () => ({ path: API_ROUTES.eventThemes }),
    'POST /api/events/multi': async () => ({ path: API_ROUTES.multiEventList, json: { searchtxt: '2026' } }),
    'POST /api/events/details': async () => ({ path: API_ROUTES.eventDetails, json: { eventID: f.eventId } }),
    'GET /api/config/master': async () => ({ path: API_ROUTES.masterConfig }),
    'POST /api/search/bib': async () => ({ path: API_ROUTES.searchByBib, json: { eventID: f.eventId, bibNumber: f.bib } }),
    'POST /api/client-reports': async () => ({
      path: API_ROUTES.clientReports,
      json: { reports: [{ kind: 'view', remote: 'storefront', version: 'initial', route: '/products', message: '', count: 1 }] },
    }),
    'GET /dev/client-reports.json': async () => ({ path: API_ROUTES.devClientReports }),
    'POST /api/certificates/eligibility': async () => ({ path: API_ROUTES.certificateEligibility, json: { eventID: f.eventId, bibNumber: f.bib } }),
    'POST /api/cart/details': async () => ({
      path: API_ROUTES.cartDetails,
      json: {
        eventId: f.eventId,
        bibNumber: f.bib,
        searchKind: 'bib',
        packageKind: null,
        lines: photoLines(f.photoIds.slice(0, 2)),
        sponsorofferID: null,
        discountedPhotoIds: [],
      },
    }),
    'POST /api/cart/collage-preview': async () => ({
      path: API_ROUTES.collagePreview,
      json: {
        eventId: f.eventId,
        bibNumber: f.bib,
        searchKind: 'bib',
        packageKind: null,
        lines: [{ type: 'collage', category: 'image', id: f.photoIds[0], collagePhotoIds: f.photoIds.slice(0, 3), orientation: 'Vertical' }],
        sponsorofferID: null,
        discountedPhotoIds: [],
      },
    }),
    'POST /api/cart/unlabeled-details': async () => ({
      path: API_ROUTES.unlabeledCartDetails,
      json: {
        eventId: cart.eventId,
        bibNumber: 'unlabeled',
        searchKind: 'unlabeled',
        packageKind: null,
        lines: photoLines(cart.unlabeledPhotoIds),
        sponsorofferID: null,
        discountedPhotoIds: [],
      },
    }),
    // Past a BIB's few free mails the server asks for a captcha: the callers solve one each time.
    'POST /api/otp/generate': async () => ({
      path: API_ROUTES.generateOtp,
      json: { eventID: cart.privateEventId, bibNumber: 'PR7', gCaptchToken: await captcha() },
    }),
    'POST /api/otp/verify': async (caller) => ({
      path: API_ROUTES.verifyOtp,
      json: { eventID: cart.privateEventId, bibNumber: 'PR8', otp: await otpFor(caller, cart.privateEventId, 'PR8') },
    }),
    'POST /api/feedback/photos': async () => ({
      path: API_ROUTES.recordFeedback,
      json: { usrfeedback: 1, bibNumber: f.bib, eventID: f.eventId, photoids: String(f.photoIds[4]) },
    }),
    'POST /api/search/selfie': async () => ({
      path: API_ROUTES.searchBySelfie,
      json: { consentVersion: FACE_CONSENT_VERSION, eventID: f.eventId, selfieimg: GIF_BASE64 },
    }),
    'GET /api/faces/index-status': async () => ({ path: `${API_ROUTES.faceIndexStatus}?eventId=${f.eventId}` }),
    // A descriptor as the phone sends it (128 numbers of the model's usual norm).
    'POST /api/faces/opt-out': async () => ({
      path: API_ROUTES.faceOptOut,
      json: { embedding: Array.from({ length: 128 }, (_, i) => (i % 2 === 0 ? 0.13 : 0.126)) },
    }),
    'POST /api/faces/opt-out/withdraw': async () => ({ path: API_ROUTES.faceOptOutWithdraw, json: {} }),
    'POST /dev/faces/describe': async () => ({ path: API_ROUTES.devDescribeFaces, json: { image: GIF_BASE64 } }),
    'POST /dev/faces/event-photo': async () => ({
      path: API_ROUTES.devEventPhoto,
      json: { eventID: f.eventId, image: Buffer.from('not an image').toString('base64') },
    }),
    'POST /api/search/bib-availability': async () => ({ path: API_ROUTES.bibAvailability, json: { entries: [{ eventID: f.eventId, bibNumber: f.bib }] } }),
    'POST /api/photos/paginate': async () => ({ path: API_ROUTES.paginatePhotos, json: { event_id: cart.eventId, bib_number: 'unlabeled', page: 1 } }),
    'GET /api/captcha/challenge': async () => ({ path: API_ROUTES.captchaChallenge }),
    'POST /api/auth/login': async () => ({
      path: API_ROUTES.login,
      json: { email: 'login.only@example.com', password: PASSWORD, gCaptchToken: await captcha() },
    }),
    'POST /api/auth/register': async () => ({
      path: API_ROUTES.register,
      json: {
        firstName: 'Neha',
        lastName: 'Joshi',
        email: `new.${++cellNumber}@example.com`,
        isdCode: '+91',
        primaryPhone: '9876543210',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        gCaptchToken: await captcha(),
        newUserFlg: 1,
      },
    }),
    'POST /api/auth/social-login': async () => ({ path: API_ROUTES.socialLogin, json: { tokenkey: 'not-a-google-token' } }),
    'POST /api/auth/password-code': async () => ({ path: API_ROUTES.passwordCode, json: { email: 'login.only@example.com' } }),
    'POST /api/auth/password-reset': async () => ({
      path: API_ROUTES.passwordReset,
      json: { email: 'login.only@example.com', passCode: '000000', newPassword: 'Other#2027', confirmPassword: 'Other#2027' },
    }),
    'POST /api/auth/email-code': async () => ({ path: API_ROUTES.emailCode, json: {} }),
    'POST /api/auth/email-verify': async () => ({ path: API_ROUTES.emailVerify, json: { code: '000000' } }),
    'POST /api/auth/change-password': async (caller) => {
      // Each account changes its password once, from the one it was made with.
      const next = `${PASSWORD}-${caller.role}`;
      return { path: API_ROUTES.changePassword, json: { currentPassword: PASSWORD, newPassword: next, confirmPassword: next } };
    },
    'POST /api/auth/logout': async () => ({ path: API_ROUTES.logout, json: {} }),
    'GET /api/auth/me': async () => ({ path: API_ROUTES.currentUser }),
    'POST /api/auth/user-info': async () => ({ path: API_ROUTES.checkoutUserInfo, json: { userID: userIds.runner } }),
    'POST /api/contact': async () => ({
      path: API_ROUTES.contact,
      json: {
        firstName: 'Kavya',
        lastName: 'Menon',
        email: 'kavya@example.com',
        isdCode: '+91',
        phoneNo: '9123456780',
        message: 'My photos are missing.',
        bibId: 'KM1042',
        gCaptchToken: await captcha(),
      },
    }),
    'GET /dev/outbox': async () => ({ path: API_ROUTES.devOutbox }),
    'GET /dev/outbox.json': async () => ({ path: API_ROUTES.devOutboxJson }),
    'POST /api/orders/create': async () => ({
      path: API_ROUTES.createOrder,
      json: await orderBody(photoLines([f.photoIds[1]])),
    }),
    'POST /api/orders/history': async () => ({ path: API_ROUTES.orderHistory, json: {} }),
    'POST /api/orders/detail': async () => ({ path: API_ROUTES.orderDetail, json: { orderID: runnerOrder.order_ref } }),
    'POST /api/orders/my': async () => ({ path: `${API_ROUTES.myOrder}?orderid=${runnerOrder.order_ref}`, json: {} }),
    'GET /api/orders/preauth': async () => {
      const [order] = await p.t.ctx.db.query<{ paid_at: Date }>('select paid_at from orders where order_ref = $1', [runnerOrder.order_ref]);
      const params = signPreauth(p.t.ctx.config.signingSecret, runnerOrder.order_ref, EMAILS.runner, downloadUntil(new Date(order.paid_at)));
      return { path: `${API_ROUTES.preauthDownload}?${new URLSearchParams({ ...params })}` };
    },
    'GET /api/orders/purchase-notification': async () => ({ path: API_ROUTES.purchaseNotification }),
    'POST /api/payment/payu/success': async () => ({ path: new URL(successReturn.action).pathname, form: successReturn.fields }),
    'POST /api/payment/payu/failure': async () => ({ path: new URL(failureReturn.action).pathname, form: failureReturn.fields }),
    'POST /api/downloads/order': async () => ({ path: API_ROUTES.downloadOrder, json: { orderID: runnerOrder.order_ref } }),
    'POST /api/downloads/image': async () => ({ path: API_ROUTES.downloadImage, json: { orderID: runnerOrder.order_ref, imageID: f.photoIds[0] } }),
    'GET /api/downloads/file/item/:orderRef/:photoId': async () => ({ path: new URL(itemLink).pathname + new URL(itemLink).search }),
    'GET /api/downloads/file/zip/:orderRef': async () => ({ path: new URL(zipLink).pathname + new URL(zipLink).search }),
    'POST /api/preorder/info': async () => ({ path: API_ROUTES.preorderInfo, json: { eventId: f.preorderEventId } }),
    'POST /api/preorder/create': async () => ({
      path: API_ROUTES.createPreorder,
      json: { name: 'Kiran Shah', email: 'kiran@example.com', phone_number: '9123456789', eventID: f.preorderEventId, captcha: await captcha() },
    }),
    'POST /api/organiser/partners': async () => ({ path: API_ROUTES.organiserPartners, json: { eventId: f.eventId } }),
    'POST /api/organiser/partners/decide': async () => ({
      path: API_ROUTES.decidePartnerRegistration,
      json: { eventId: f.eventId, partnerUserId: userIds.partner, decision: 'approved' },
    }),
    'POST /api/organiser/dashboard': async () => ({ path: API_ROUTES.organiserDashboard, json: { event_id: f.eventId, email: EMAILS.organiser } }),
    'POST /api/organiser/dashboard/partners': async () => ({ path: API_ROUTES.organiserPartnerShares, json: { eventId: f.eventId } }),
    'POST /api/organiser/events/get': async () => ({ path: API_ROUTES.organiserEvent, json: { eventId: f.eventId } }),
    'POST /api/organiser/events/create': async () => ({ path: API_ROUTES.organiserCreateEvent, json: eventForm(`Matrix New Event ${++cellNumber}`) }),
    'POST /api/organiser/events/update': async () => ({
      path: API_ROUTES.organiserUpdateEvent,
      json: { eventId: organiserEventId, ...eventForm('Matrix Organiser Event') },
    }),
    'POST /api/organiser/events/publish': async () => ({ path: API_ROUTES.organiserPublishEvent, json: { eventId: organiserEventId } }),
    'POST /api/organiser/events/switch': async () => ({
      path: API_ROUTES.organiserEventSwitch,
      json: { eventId: organiserEventId, name: 'showunlabeled', on: true },
    }),
    'POST /api/organiser/events/logo': async () => ({ path: API_ROUTES.organiserEventLogo, json: { eventId: organiserEventId, image: logoPng } }),
    'POST /api/organiser/events/course-map': async () => ({ path: API_ROUTES.organiserCourseMap, json: { eventId: organiserEventId, image: logoPng } }),
    'POST /api/organiser/events/changes': async () => ({ path: API_ROUTES.organiserEventChanges, json: { eventId: organiserEventId } }),
    'POST /api/organiser/events/face-data/delete': async () => ({
      path: API_ROUTES.organiserDeleteFaceData,
      json: { eventId: organiserEventId, confirmName: 'Matrix Organiser Event' },
    }),
    'POST /api/organiser/participants': async () => ({ path: API_ROUTES.organiserParticipants, json: { eventId: f.eventId } }),
    'POST /api/organiser/participants/import': async () => ({
      path: API_ROUTES.organiserImportParticipants,
      json: { eventId: organiserEventId, csv: 'BIB,Name,Finish time\nMX1,Mira Kulkarni,2:05:10\n' },
    }),
    'POST /api/organiser/reports': async () => ({ path: API_ROUTES.organiserReports, json: { eventId: f.eventId } }),
    // Dismissed: the photo stays in the results the other cells read.
    'POST /api/organiser/reports/decide': async () => ({
      path: API_ROUTES.organiserDecideReport,
      json: { eventId: f.eventId, reportId, decision: 'dismissed' },
    }),
    // The race's certificate: the organiser's own event with a finisher (its certificate exists once it has results).
    'POST /api/organiser/certificate': async () => ({ path: API_ROUTES.organiserCertificate, json: { eventId: await organiserRaceWithResults() } }),
    'POST /api/organiser/certificate/save': async () => ({ path: API_ROUTES.organiserSaveCertificate, json: { ...(await certificateDraft()), active: true } }),
    'POST /api/organiser/certificate/background': async () => ({
      path: API_ROUTES.organiserCertificateBackground,
      json: { eventId: organiserEventId, image: logoPng },
    }),
    'POST /api/organiser/certificate/preview': async () => ({ path: API_ROUTES.organiserCertificatePreview, json: await certificateDraft() }),
    'POST /api/organiser/series': async () => ({ path: API_ROUTES.organiserSeries, json: {} }),
    'POST /api/organiser/series/save': async () => ({ path: API_ROUTES.organiserSaveSeries, json: await seriesRequest() }),
    'POST /api/organiser/series/background': async () => ({ path: API_ROUTES.organiserSeriesBackground, json: { image: logoPng } }),
    'POST /api/organiser/series/preview': async () => ({ path: API_ROUTES.organiserSeriesPreview, json: await seriesRequest() }),
    'POST /api/operator/organisers': async () => ({ path: API_ROUTES.operatorOrganiserRole, json: { email: 'login.only@example.com', grant: false } }),
    'POST /api/operator/fulfilment': async () => ({ path: API_ROUTES.operatorFulfilmentRole, json: { email: 'login.only@example.com', grant: false } }),
    'POST /api/operator/staff-role': async () => ({
      path: API_ROUTES.operatorStaffRole,
      json: { email: 'login.only@example.com', role: 'fulfilment', grant: false },
    }),
    'POST /api/operator/organiser-requests': async () => ({ path: API_ROUTES.operatorOrganiserRequests, json: {} }),
    'POST /api/operator/organiser-requests/decide': async () => ({
      path: API_ROUTES.operatorDecideOrganiserRequest,
      json: { requestId: 1, approve: false, reason: 'Matrix' },
    }),
    'POST /api/operator/events': async () => ({ path: API_ROUTES.operatorEvents, json: {} }),
    'POST /api/organiser-requests': async () => ({
      path: API_ROUTES.organiserRequest,
      json: {
        raceName: 'Matrix City Run',
        fromDate: '2099-01-10',
        toDate: '2099-01-10',
        city: 'Pune',
        expectedRunners: 500,
        contactName: 'Matrix Person',
        contactPhone: '9876543210',
      },
    }),
    'POST /api/organiser-requests/mine': async () => ({ path: API_ROUTES.myOrganiserRequest, json: {} }),
    'POST /api/fulfilment/queue': async () => ({ path: API_ROUTES.fulfilmentQueue, json: { status: 'all' } }),
    'POST /api/fulfilment/lines/status': async () => ({ path: API_ROUTES.fulfilmentLineStatus, json: { lineId: 1, status: 'printed' } }),
    'GET /api/fulfilment/lines/file': async () => ({ path: `${API_ROUTES.fulfilmentLineFile}?lineId=1` }),
    'POST /api/fulfilment/batch': async () => ({ path: API_ROUTES.fulfilmentBatch, json: { lineIds: [1] } }),
    'GET /api/fulfilment/export.csv': async () => ({ path: API_ROUTES.fulfilmentExport }),
    'POST /api/fulfilment/refunds': async () => ({ path: API_ROUTES.fulfilmentRefund, json: { orderItemId: 1, amount: 1, requestKey: 'matrix-refund-1' } }),
    'POST /api/fulfilment/replacements': async () => ({ path: API_ROUTES.fulfilmentReplacements, json: {} }),
    'GET /api/fulfilment/replacements/photo': async () => ({ path: `${API_ROUTES.fulfilmentReplacementPhoto}?requestId=1` }),
    'POST /api/fulfilment/replacements/decide': async () => ({ path: API_ROUTES.fulfilmentReplacementDecide, json: { requestId: 1, approve: true } }),
    'POST /api/orders/replacement': async () => ({
      path: API_ROUTES.orderReplacementAsk,
      multipart: {
        fields: { orderID: runnerOrder.order_ref, lineId: '1' },
        file: { field: 'photo', name: 'damage.jpg', type: 'image/jpeg', data: certificate },
      },
    }),
    'POST /api/partner/registration/events': async () => ({ path: API_ROUTES.partnerEvents, json: { search: 'Orders' } }),
    'POST /api/partner/registration/lookup': async () => ({ path: API_ROUTES.partnerLookup, json: { eventId: f.eventId } }),
    // A new registration for an account without partner details, an update (same nick name) for one with them.
    'POST /api/partner/register': async (caller) => partnerRegistration(caller),
    'POST /api/partner/share': async (caller) => ({
      path: API_ROUTES.partnerShare,
      json: { eventId: f.eventId, ...(caller.role === 'visitor' ? {} : { userid: EMAILS[caller.role] }) },
    }),
    'POST /api/partner/payouts/record': async () => ({
      path: API_ROUTES.recordPartnerPayout,
      json: { eventId: f.eventId, partnerUserId: userIds.partner, amount: 1, reference: 'UTR-MATRIX' },
    }),
    'POST /api/preorder/link': async () => ({
      path: API_ROUTES.preorderLink,
      json: { orderId: preorder.order_ref, orderEmail: 'kiran@example.com', orderBibNumber: f.preorderBib, mobilenum: '9123456789' },
    }),
    'POST /api/certificates/search': (caller) => certificateStepsBefore(caller, 'search'),
    'POST /api/certificates/template': (caller) => certificateStepsBefore(caller, 'template'),
    'POST /api/certificates/upload': (caller) => certificateStepsBefore(caller, 'upload'),
    'POST /api/certificates/download-record': (caller) => certificateStepsBefore(caller, 'record'),
  };

  async function restoreRoles(): Promise<void> {
    const others = [userIds.runner, userIds.otherRunner, userIds.organiser];
    await db.query('delete from event_partners where user_id = any($1::int[])', [others]);
    await db.query('delete from partner_profiles where user_id = any($1::int[])', [others]);
    await db.query('update users set is_partner = false where id = any($1::int[])', [others]);
  }
  return { requests: { ...REQUESTS, ...supplyRequests }, send, sessionOf, restoreRoles };
}

function formDataOf(multipart: NonNullable<CellRequest['multipart']>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(multipart.fields)) form.append(name, value);
  if (multipart.file) form.append(multipart.file.field, new Blob([new Uint8Array(multipart.file.data)], { type: multipart.file.type }), multipart.file.name);
  return form;
}

/** A tiny GIF: a well-formed image the selfie search refuses by type, without running face detection. */
const GIF_BASE64 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
