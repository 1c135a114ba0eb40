import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_ROUTES } from '@finishline/shared/pure';
import { SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { buildRouteWorld, ROLES, type Role, type RouteWorld } from './support/routeWorld';
import { loadConfig } from '../src/config/config';

/**
 * Authorization matrix, generated from the server's own route list: every route is called by each
 * kind of caller with a request that would succeed for the runner, and the status must be the one in
 * EXPECTED. A route the table does not name fails the test, so a new route needs its rule here.
 *
 * Callers: a visitor (no session at all), the runner (signed in; owns the paid order, the BIB's
 * photos), another runner (signed in, owns nothing of the runner's), a partner and an organiser
 * (signed-in accounts with those roles). Every cell gets a fresh session of its caller.
 */
type Row = Record<Role, number>;

const everyone = (status: number): Row => ({ visitor: status, runner: status, otherRunner: status, partner: status, organiser: status });
const signedIn = (status: number): Row => ({ visitor: 401, runner: status, otherRunner: status, partner: status, organiser: status });
/** The runner's own order or photos: the owner only, another account is refused. */
const ownerOnly: Row = { visitor: 401, runner: 200, otherRunner: 403, partner: 403, organiser: 403 };
/** The runner's own order: another account gets the answer of an unknown order (404), so references cannot be tested. */
const ownOrderOnly: Row = { visitor: 401, runner: 200, otherRunner: 404, partner: 404, organiser: 404 };
/** Organiser routes of one event: its organiser only. */
const eventOrganiserOnly: Row = { visitor: 401, runner: 403, otherRunner: 403, partner: 403, organiser: 200 };

/** The supply line: a partner approved for the event, acting on their own uploads and photos. */
const approvedPartnerOnly: Row = { visitor: 401, runner: 403, otherRunner: 403, partner: 200, organiser: 403 };

const EXPECTED: Record<string, Row> = {
  // CORS preflight of an allowed origin.
  'OPTIONS *': everyone(204),
  'GET /health': everyone(200),
  // Media are authorised by their signature (public assets need none), not by the session.
  'GET /media/*': everyone(200),
  'GET /api/events/names': everyone(200),
  'GET /api/home': everyone(200),
  'GET /api/events/themes': everyone(200),
  'POST /api/events/multi': everyone(200),
  'POST /api/events/details': everyone(200),
  'GET /api/config/master': everyone(200),
  'POST /api/search/bib': everyone(200),
  'POST /api/cart/details': everyone(200),
  'POST /api/cart/collage-preview': everyone(200),
  'POST /api/cart/unlabeled-details': everyone(200),
  // The privacy OTP belongs to a search session: a visitor without one is asked to search first.
  'POST /api/otp/generate': { ...everyone(200), visitor: 400 },
  'POST /api/otp/verify': { ...everyone(200), visitor: 400 },
  // Hide: only the BIB's owner (here through the runner's paid order for it).
  'POST /api/feedback/photos': ownerOnly,
  // A JPEG without a face: searched (public, rate limited per address) and answered "no face".
  'POST /api/search/selfie': everyone(400),
  'GET /api/faces/index-status': everyone(200),
  // A runner asks to be left out of face search (and withdraws it): any signed-in account, for itself.
  'POST /api/faces/opt-out': signedIn(200),
  'POST /api/faces/opt-out/withdraw': signedIn(200),
  // Development pages answer loopback connections (the test's) whoever calls; a photo that is no image is refused.
  'POST /dev/faces/event-photo': everyone(400),
  // The server's reading of a selfie, for the on-device agreement journey; a GIF is refused.
  'POST /dev/faces/describe': everyone(400),
  'POST /api/search/bib-availability': everyone(200),
  'POST /api/photos/paginate': everyone(200),
  'GET /api/captcha/challenge': everyone(200),
  'POST /api/auth/login': everyone(200),
  'POST /api/auth/register': everyone(200),
  // Google sign-in is not configured in tests.
  'POST /api/auth/social-login': everyone(400),
  'POST /api/auth/password-code': everyone(200),
  // A wrong passcode, whoever asks.
  'POST /api/auth/password-reset': everyone(400),
  // Any signed-in account asks for its own email proof code (or hears its address is confirmed already).
  'POST /api/auth/email-code': signedIn(200),
  // A wrong code, whoever asks.
  'POST /api/auth/email-verify': signedIn(400),
  'POST /api/auth/change-password': signedIn(200),
  'POST /api/auth/logout': everyone(200),
  'GET /api/auth/me': signedIn(200),
  'POST /api/auth/user-info': signedIn(200),
  'POST /api/contact': everyone(200),
  'GET /dev/outbox': everyone(200),
  'GET /dev/outbox.json': everyone(200),
  // Guests may buy; the order is the buyer's by its email.
  'POST /api/orders/create': everyone(200),
  'POST /api/orders/history': signedIn(200),
  'POST /api/orders/detail': ownOrderOnly,
  'POST /api/orders/my': ownOrderOnly,
  // The pre-authorised link from the confirmation mail is the authority, signed in or not.
  'GET /api/orders/preauth': everyone(200),
  'GET /api/orders/purchase-notification': everyone(200),
  // The gateway's return is authorised by its hash and the gateway's own check, not a session.
  'POST /api/payment/payu/success': everyone(303),
  'POST /api/payment/payu/failure': everyone(303),
  'POST /api/downloads/order': ownOrderOnly,
  'POST /api/downloads/image': ownOrderOnly,
  // The short-lived signed link handed to the owner.
  'GET /api/downloads/file/item/:orderRef/:photoId': everyone(200),
  'GET /api/downloads/file/zip/:orderRef': everyone(200),
  'POST /api/preorder/info': everyone(200),
  'POST /api/preorder/create': everyone(200),
  // Mapping is authorised by the order's id, email and phone together.
  'POST /api/preorder/link': everyone(200),
  // The organiser of the event only: another organiser, a partner or a runner is refused.
  'POST /api/organiser/partners': eventOrganiserOnly,
  'POST /api/organiser/partners/decide': eventOrganiserOnly,
  // The certificate builder belongs to a search session (a visitor's or a signed-in one): anyone who
  // can see the BIBs' photos may search and preview (watermarked previews only); each later call goes
  // on only with that same session's run. Only the runner who bought the BIB's photos stores the
  // certificate (the others: 403), so only they have a download to record (the others: 409). No session: 401.
  // The shell's reports of its remotes (views and errors per release): anyone who runs the shop, no session needed.
  'POST /api/client-reports': everyone(200),
  'GET /dev/client-reports.json': everyone(200),
  'POST /api/certificates/search': { ...everyone(200), visitor: 401 },
  // Whether a BIB's result gives a certificate: as public as the BIB search's achievementsEligibility.
  'POST /api/certificates/eligibility': everyone(200),
  'POST /api/certificates/template': { ...everyone(200), visitor: 401 },
  'POST /api/certificates/upload': ownerOnly,
  'POST /api/certificates/download-record': { visitor: 401, runner: 200, otherRunner: 409, partner: 409, organiser: 409 },
  // The Event Dashboard, the organiser's events, participants, moderation, face data: the event's organiser only.
  'POST /api/organiser/dashboard': eventOrganiserOnly,
  'POST /api/organiser/dashboard/partners': eventOrganiserOnly,
  'POST /api/organiser/events/get': eventOrganiserOnly,
  // Any organiser creates events of their own; runners and partners do not.
  'POST /api/organiser/events/create': eventOrganiserOnly,
  'POST /api/organiser/events/update': eventOrganiserOnly,
  'POST /api/organiser/events/publish': eventOrganiserOnly,
  'POST /api/organiser/events/switch': eventOrganiserOnly,
  'POST /api/organiser/events/logo': eventOrganiserOnly,
  'POST /api/organiser/events/course-map': eventOrganiserOnly,
  'POST /api/organiser/events/changes': eventOrganiserOnly,
  'POST /api/organiser/events/face-data/delete': eventOrganiserOnly,
  'POST /api/organiser/participants': eventOrganiserOnly,
  'POST /api/organiser/participants/import': eventOrganiserOnly,
  'POST /api/organiser/reports': eventOrganiserOnly,
  'POST /api/organiser/reports/decide': eventOrganiserOnly,
  // The race's finisher certificate (Certificate tab): the event's organiser only.
  'POST /api/organiser/certificate': eventOrganiserOnly,
  'POST /api/organiser/certificate/save': eventOrganiserOnly,
  'POST /api/organiser/certificate/background': eventOrganiserOnly,
  'POST /api/organiser/certificate/preview': eventOrganiserOnly,
  // Series of the organiser's own races: organisers only (the races' ownership is checked within).
  'POST /api/organiser/series': eventOrganiserOnly,
  'POST /api/organiser/series/save': eventOrganiserOnly,
  'POST /api/organiser/series/background': eventOrganiserOnly,
  'POST /api/organiser/series/preview': eventOrganiserOnly,
  // Registering as a photographer is open to every signed-in account (it is how one becomes a partner).
  'POST /api/partner/registration/events': signedIn(200),
  'POST /api/partner/registration/lookup': signedIn(200),
  'POST /api/partner/register': signedIn(200),
  // My Share of one event: its approved partner only (the runners registered above are pending; the organiser is no partner of it).
  'POST /api/partner/share': { visitor: 401, runner: 403, otherRunner: 403, partner: 200, organiser: 403 },
  // A payout to a photographer of the event: the event's organiser records it.
  'POST /api/partner/payouts/record': eventOrganiserOnly,
  // Platform operators only: none of the matrix's callers is one (api/test/operator.test.ts grants as one).
  'POST /api/operator/organisers': { ...everyone(403), visitor: 401 },
  'POST /api/operator/fulfilment': { ...everyone(403), visitor: 401 },
  'POST /api/operator/staff-role': { ...everyone(403), visitor: 401 },
  'POST /api/operator/organiser-requests': { ...everyone(403), visitor: 401 },
  'POST /api/operator/organiser-requests/decide': { ...everyone(403), visitor: 401 },
  'POST /api/operator/events': { ...everyone(403), visitor: 401 },
  // "List your race": any signed-in account asks once; an organiser already is one (409).
  'POST /api/organiser-requests': { ...signedIn(200), organiser: 409 },
  'POST /api/organiser-requests/mine': signedIn(200),
  // Fulfilment staff and operators only: none of the matrix's callers is either (api/test/prints-fulfilment.test.ts).
  'POST /api/fulfilment/queue': { ...everyone(403), visitor: 401 },
  'POST /api/fulfilment/lines/status': { ...everyone(403), visitor: 401 },
  'GET /api/fulfilment/lines/file': { ...everyone(403), visitor: 401 },
  'POST /api/fulfilment/batch': { ...everyone(403), visitor: 401 },
  'GET /api/fulfilment/export.csv': { ...everyone(403), visitor: 401 },
  'POST /api/fulfilment/refunds': { ...everyone(403), visitor: 401 },
  'POST /api/fulfilment/replacements': { ...everyone(403), visitor: 401 },
  'GET /api/fulfilment/replacements/photo': { ...everyone(403), visitor: 401 },
  'POST /api/fulfilment/replacements/decide': { ...everyone(403), visitor: 401 },
  // The owner of the order asks (api/test/print-refunds.test.ts); the runner's order here holds no print (404 for its line), another account's order answers as unknown.
  'POST /api/orders/replacement': { visitor: 401, runner: 404, otherRunner: 404, partner: 404, organiser: 404 },
  // tus: creating (201) and continuing (HEAD 200, PATCH 204) an upload, checked on every request (preflights are the CORS layer's, OPTIONS *).
  'POST /api/partner/uploads': { ...approvedPartnerOnly, partner: 201 },
  'HEAD /api/partner/uploads/*': approvedPartnerOnly,
  'PATCH /api/partner/uploads/*': { ...approvedPartnerOnly, partner: 204 },
  // Forgetting an unfinished upload (tus termination): its owner only.
  'DELETE /api/partner/uploads/*': { ...approvedPartnerOnly, partner: 204 },
  'GET /api/partner/supply/events': approvedPartnerOnly,
  'POST /api/partner/photos': approvedPartnerOnly,
  'POST /api/partner/photos/bibs': approvedPartnerOnly,
  'POST /api/partner/photos/remove': approvedPartnerOnly,
  'POST /api/partner/videos': approvedPartnerOnly,
  'POST /api/partner/videos/frame': approvedPartnerOnly,
  'POST /api/partner/videos/clock': approvedPartnerOnly,
  'POST /api/partner/videos/clip-lengths': approvedPartnerOnly,
  'POST /api/partner/videos/clips/publish': approvedPartnerOnly,
  'POST /api/partner/videos/clips/remove': approvedPartnerOnly,
};

describe('authorization matrix: every route x visitor, runner, other runner, partner, organiser', () => {
  let p: PaymentTestApp;
  let world: RouteWorld;
  beforeAll(async () => {
    p = await startPaymentTestApp({ ...loadConfig().security, contactPerIp: 100, passwordCodesPerEmail: 100 });
    world = await buildRouteWorld(p);
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => p?.close(), TEAR_DOWN_TIMEOUT_MS);

  it('names every registered route, and only those', () => {
    const registered = p.t.app.registeredRoutes.map((route) => `${route.method} ${route.url}`);
    const withoutRule = registered.filter((key) => !(key in EXPECTED));
    expect({ routesWithoutAnAuthorizationRule: withoutRule }).toEqual({ routesWithoutAnAuthorizationRule: [] });
    const withoutRequest = registered.filter((key) => !(key in world.requests));
    expect({ routesWithoutAMatrixRequest: withoutRequest }).toEqual({ routesWithoutAMatrixRequest: [] });
    expect({ rulesOfRoutesThatDoNotExist: Object.keys(EXPECTED).filter((key) => !registered.includes(key)) }).toEqual({ rulesOfRoutesThatDoNotExist: [] });
  });

  it('its partner and organiser callers really hold those roles, the runners neither', async () => {
    const rolesOf = async (role: Role) => {
      const caller = await world.sessionOf(role);
      const me = JSON.parse((await world.send('GET', { path: API_ROUTES.currentUser }, caller)).text) as {
        result: { isPartner: boolean; isOrganiser: boolean };
      };
      return { isPartner: me.result.isPartner, isOrganiser: me.result.isOrganiser };
    };
    expect(await rolesOf('partner')).toEqual({ isPartner: true, isOrganiser: false });
    expect(await rolesOf('organiser')).toEqual({ isPartner: false, isOrganiser: true });
    expect(await rolesOf('runner')).toEqual({ isPartner: false, isOrganiser: false });
    expect(await rolesOf('otherRunner')).toEqual({ isPartner: false, isOrganiser: false });
  });

  it('answers each caller of each route with the status in the table', async () => {
    const mismatches: string[] = [];
    for (const { method, url: routeUrl } of p.t.app.registeredRoutes) {
      const key = `${method} ${routeUrl}`;
      const build = world.requests[key];
      const expected = EXPECTED[key];
      if (!build || !expected) continue; // reported by the test above
      for (const role of ROLES) {
        const caller = await world.sessionOf(role);
        const answer = await world.send(method, await build(caller), caller);
        if (answer.status !== expected[role])
          mismatches.push(`${key} as ${role}: expected ${expected[role]}, got ${answer.status} ${answer.text.slice(0, 160)}`);
      }
      await world.restoreRoles();
    }
    expect(mismatches).toEqual([]);
  }, 180_000);
});
