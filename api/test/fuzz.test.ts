import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { SET_UP_TIMEOUT_MS, TEAR_DOWN_TIMEOUT_MS } from './support/testApp';
import { startPaymentTestApp, type PaymentTestApp } from './support/paymentApp';
import { buildRouteWorld, type CellRequest, type RouteWorld } from './support/routeWorld';
import type { RegisteredRoute } from '../src/http/routeList';

/**
 * Generated fuzz suite: malformed requests to every route of the server's own route list, as a
 * visitor and as a signed-in runner. Half are built from nothing; the other half are the route's
 * valid request (the one the authorization matrix sends) with one field spoiled, so they reach
 * past the first check into the route's own rules. No answer may be a 5xx, and none may exceed 64 KB (a refusal
 * must not echo what it refuses). The seed is fixed, so a failure is the same on every run.
 */
const SEED = 20_261_123;
const MIN_REQUESTS = 5_000;
const CONCURRENCY = 4;
const MAX_ANSWER_BYTES = 64 * 1024;
const RUN_TIMEOUT_MS = 240_000;

/** Field names the API reads somewhere, so generated bodies reach past "unknown field" into the rules. */
const KNOWN_FIELDS = [
  'email',
  'password',
  'confirmPassword',
  'currentPassword',
  'newPassword',
  'firstName',
  'lastName',
  'name',
  'phone_number',
  'phoneNo',
  'mobilenum',
  'isdCode',
  'pincode',
  'gender',
  'captcha',
  'gCaptchToken',
  'tokenkey',
  'passCode',
  'sessionToken',
  '_token',
  'userID',
  'eventID',
  'eventId',
  'eventName',
  'bibNumber',
  'bib_number',
  'bibNo',
  'bibId',
  'orderBibNumber',
  'orderEmail',
  'orderId',
  'orderID',
  'imageID',
  'photoids',
  'usrfeedback',
  'undo',
  'searchtxt',
  'searchtext',
  'entries',
  'page',
  'per_page',
  'selfieimg',
  'image',
  'message',
  'instruction',
  'print_instruction',
  'cartInfo',
  'lines',
  'searchKind',
  'packageKind',
  'discountedPhotoIds',
  'collagePhotoIds',
  'sponsorofferID',
  'type',
  'category',
  'id',
  'printProductId',
  'preauth',
  'orderref',
  'e',
  'lt',
  'h',
  'exp',
  'sig',
  'to',
  'tag',
  'txnid',
  'mihpayid',
  'status',
  'hash',
  'amount',
  'productinfo',
  'firstname',
  'key',
  'udf1',
  'additionalCharges',
  'field9',
  'error_Message',
  'remember',
  'login_type',
  'newUserFlg',
  '__proto__',
  'constructor',
  'achievement_id',
  'event_bib_pairs',
  'event_id',
  'selected_photos',
  'certificate_url',
] as const;

// ---- values ---------------------------------------------------------------------------------

const lone = fc.constantFrom('\ud800', '\udfff', 'a\udc00b', '\ud83d');
const hostileText = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    '0',
    '-1',
    '1e999',
    'NaN',
    'true',
    '[]',
    '{}',
    '../../etc/passwd',
    '%00',
    "' or 1=1 --",
    '<script>x</script>',
    'a@b.c',
    'TT100',
    'OT100',
  ),
  fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`),
  fc.tuple(fc.string({ maxLength: 8 }), lone).map(([a, b]) => a + b),
  fc.integer({ min: 16 * 1024, max: 200 * 1024 }).map((n) => 'x'.repeat(n)),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(2_147_483_648, -2_147_483_649, 4_294_967_296, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 0.5, -0, 1e-320),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const leaf = fc.oneof(hostileText, hostileNumber, fc.boolean(), fc.constant(null));
const fieldName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KNOWN_FIELDS) }, { weight: 1, arbitrary: hostileText.filter((s) => s.length < 64) });
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fieldName, tie('value'), { maxKeys: 4 }),
  ),
}));
const bodyObject = fc.dictionary(fieldName, value, { minKeys: 1, maxKeys: 8 });

// ---- raw bodies ------------------------------------------------------------------------------

interface RawBody {
  contentType?: string;
  body?: Buffer;
  label: string;
}

/** JSON text: JSON.stringify would turn a lone surrogate into an escape, but the raw UTF-8 is what an attacker sends as well. */
const jsonBody = bodyObject.map((o): RawBody => ({ contentType: 'application/json', body: Buffer.from(JSON.stringify(o)), label: 'json' }));
const deepJson = fc.tuple(fc.constantFrom(...KNOWN_FIELDS), fc.constantFrom(20, 200, 3_000, 20_000), fc.boolean()).map(([field, depth, objects]): RawBody => {
  const nested = objects ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + ']'.repeat(depth);
  return { contentType: 'application/json', body: Buffer.from(`{"${field}":${nested}}`), label: `json nested ${depth}` };
});
const brokenJson = fc
  .oneof(
    fc.tuple(bodyObject, fc.nat()).map(([o, cut]) => {
      const text = JSON.stringify(o);
      return text.slice(0, cut % Math.max(1, text.length));
    }),
    fc.constantFrom(
      '',
      '{',
      '{"a":}',
      '[1,2',
      'nul',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '"just a string"',
      '12345678901234567890',
      'true',
    ),
  )
  .map((text): RawBody => ({ contentType: 'application/json', body: Buffer.from(text), label: 'broken json' }));
const formBody = bodyObject.map((o): RawBody => {
  const pairs = Object.entries(o).flatMap(([k, v]) => (Array.isArray(v) ? v.map((item, i) => [`${k}[${i}]`, item] as const) : [[k, v] as const]));
  const text = pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`).join('&');
  return { contentType: 'application/x-www-form-urlencoded', body: Buffer.from(text), label: 'form' };
});
type MultipartShape = 'ok' | 'no-end' | 'bad-boundary' | 'no-boundary' | 'garbage';
/** A multipart form of the fields (non-text values as JSON), well-formed or broken in one way. */
function multipartOf(fields: Record<string, unknown>, withFile: boolean, shape: MultipartShape): RawBody {
  const boundary = 'fuzzBoundary42';
  const parts = Object.entries(fields).map(
    ([k, v]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '')}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
  );
  if (withFile)
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\u00ff\u00d8\u00ff\r\n`);
  const whole = parts.join('') + (shape === 'no-end' ? '' : `--${boundary}--\r\n`);
  const contentType = shape === 'no-boundary' ? 'multipart/form-data' : `multipart/form-data; boundary=${shape === 'bad-boundary' ? 'other' : boundary}`;
  return { contentType, body: Buffer.from(shape === 'garbage' ? `--${boundary}\r\nnot a header\r\n\r\n` : whole), label: `multipart ${shape}` };
}
/** A well-formed multipart form with one file of the given bytes. */
function multipartWithFile(fields: Record<string, string>, file: { field: string; name: string; type: string; data: Buffer } | null): RawBody {
  const boundary = 'fuzzBoundary43';
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '')}"\r\n\r\n${v}\r\n`),
  );
  if (file)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts), label: 'multipart' };
}
const multipartBody = fc
  .tuple(bodyObject, fc.boolean(), fc.constantFrom<MultipartShape>('ok', 'no-end', 'bad-boundary', 'no-boundary', 'garbage'))
  .map(([fields, withFile, shape]) => multipartOf(fields, withFile, shape));
const otherTypeBody = fc
  .tuple(
    fc.constantFrom(
      'text/plain',
      'application/xml',
      'application/octet-stream',
      'application/json; charset=utf-16',
      'image/jpeg',
      'application/x-www-form-urlencoded; charset=latin1',
      '*/*',
      'application/json;;',
    ),
    fc.uint8Array({ maxLength: 256 }),
  )
  .map(([contentType, bytes]): RawBody => ({ contentType, body: Buffer.from(bytes), label: `type ${contentType}` }));
const rawBody: fc.Arbitrary<RawBody> = fc.oneof(
  { weight: 6, arbitrary: jsonBody },
  { weight: 1, arbitrary: deepJson },
  { weight: 2, arbitrary: brokenJson },
  { weight: 2, arbitrary: formBody },
  { weight: 2, arbitrary: multipartBody },
  { weight: 1, arbitrary: otherTypeBody },
  { weight: 1, arbitrary: fc.constant<RawBody>({ label: 'no body' }) },
);

// ---- URLs ------------------------------------------------------------------------------------

/** Percent-encodes UTF-8 (a lone surrogate becomes U+FFFD, as a browser would send it). */
const percentEncode = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
/** A path or query piece: text, or raw bytes that are not UTF-8 at all (%FF, overlong %C0%80). */
const urlPiece = fc.oneof(
  hostileText.filter((s) => s.length < 4096).map(percentEncode),
  fc.uint8Array({ maxLength: 12 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  fc.constantFrom('%C0%80', '%ED%A0%80', '..%2F..%2Fsecrets.json', 'public%2F..%2F..%2Fsecrets.json', '%', '%zz', '1', '2147483648', '-1', 'OT100'),
);
const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...KNOWN_FIELDS).map(String), urlPiece, fc.constantFrom('a[b]', 'a[]', 'eventId[0]')), urlPiece), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

function fillPath(url: string, pieces: string[]): string {
  // OPTIONS * is the CORS preflight of any path.
  if (url === '*') return `/api/${pieces[0]}`;
  let i = 0;
  return url.replace(/:[A-Za-z]+|\*/g, () => pieces[i++ % pieces.length] || 'x');
}

// ---- spoiled valid requests -----------------------------------------------------------------

type Key = string | number;
/** Every place in a JSON value, as the keys that lead there (the root is []). */
function placesOf(input: unknown, at: Key[] = []): Key[][] {
  const here = [at];
  if (Array.isArray(input)) return here.concat(input.flatMap((item, i) => placesOf(item, [...at, i])));
  if (input !== null && typeof input === 'object') return here.concat(Object.entries(input).flatMap(([k, v]) => placesOf(v, [...at, k])));
  return here;
}
function replaced(input: unknown, place: Key[], by: unknown): unknown {
  if (place.length === 0) return by;
  const [head, ...rest] = place;
  const copy = (Array.isArray(input) ? [...(input as unknown[])] : { ...(input as Record<string, unknown>) }) as Record<Key, unknown>;
  copy[head] = replaced(copy[head], rest, by);
  return copy;
}
/** What takes a field's place: a hostile value, the value wrapped in an array or an operator object, or nothing. */
const spoiler = (original: unknown) =>
  fc.oneof({ weight: 6, arbitrary: value }, fc.constant([original, original]), fc.constant({ $gt: '' }), fc.constant(undefined));

function spoiledArbitrary(route: RegisteredRoute, valid: CellRequest): fc.Arbitrary<FuzzRequest> {
  const [pathname, search = ''] = valid.path.split('?');
  const query = [...new URLSearchParams(search).entries()];
  let spoiled: fc.Arbitrary<{ path: string; body: RawBody }>;
  if (valid.json !== undefined) {
    const places = placesOf(valid.json);
    // Sent as JSON mostly, and as a multipart form (how the contact and paginate forms travel).
    spoiled = fc.tuple(fc.constantFrom(...places), fc.constantFrom('json', 'json', 'json', 'multipart')).chain(([place, encoding]) =>
      spoiler(place.reduce<unknown>((node, key) => (node as Record<Key, unknown>)?.[key], valid.json)).map((by) => {
        const input = replaced(valid.json, place, by);
        const label = `valid ${encoding}, ${place.join('.') || 'root'} spoiled`;
        const body: RawBody =
          encoding === 'multipart' && input !== null && typeof input === 'object' && !Array.isArray(input)
            ? { ...multipartOf(input as Record<string, unknown>, false, 'ok'), label }
            : { contentType: 'application/json', body: Buffer.from(JSON.stringify(input) ?? ''), label };
        return { path: valid.path, body };
      }),
    );
  } else if (valid.multipart) {
    // A field spoiled (bracket names nested too), or the file's bytes replaced, in a well-formed form.
    const { fields, file } = valid.multipart;
    spoiled = fc.tuple(fc.constantFrom(...Object.keys(fields), '(file)'), hostileText, fc.uint8Array({ maxLength: 512 })).map(([field, text, bytes]) => {
      const spoiledFields = field === '(file)' ? fields : { ...fields, [field]: text };
      const fileBytes = field === '(file)' ? Buffer.from(bytes) : file?.data;
      return {
        path: valid.path,
        body: { ...multipartWithFile(spoiledFields, file && fileBytes ? { ...file, data: fileBytes } : null), label: `valid multipart, ${field} spoiled` },
      };
    });
  } else if (valid.form) {
    const form = valid.form;
    spoiled = fc.tuple(fc.constantFrom(...Object.keys(form)), hostileText, fc.constantFrom('replace', 'repeat', 'nest')).map(([field, text, how]) => {
      const pairs = Object.entries(form).filter(([k]) => how === 'repeat' || k !== field);
      pairs.push(how === 'nest' ? [`${field}[x]`, text] : [field, text]);
      return {
        path: valid.path,
        body: {
          contentType: 'application/x-www-form-urlencoded',
          body: Buffer.from(new URLSearchParams(pairs).toString()),
          label: `valid form, ${field} ${how}`,
        },
      };
    });
  } else if (query.length > 0) {
    spoiled = fc.tuple(fc.nat({ max: query.length - 1 }), urlPiece).map(([i, piece]) => ({
      path: `${pathname}?${query.map(([k, v], j) => `${encodeURIComponent(k)}=${j === i ? piece : encodeURIComponent(v)}`).join('&')}`,
      body: { label: `valid query, ${query[i][0]} spoiled` },
    }));
  } else {
    const segments = pathname.split('/');
    spoiled = fc.tuple(fc.nat({ max: segments.length - 1 }), urlPiece).map(([i, piece]) => ({
      path: segments.map((segment, j) => (j === i && j > 0 ? piece : segment)).join('/') + (search ? `?${search}` : ''),
      body: { label: `valid path, segment ${i} spoiled` },
    }));
  }
  return fc
    .record({
      route: fc.constant(route),
      spoiled,
      caller: fc.constantFrom<Caller>('visitor', 'runner'),
      clientIp: fc.ipV4(),
    })
    .map(({ spoiled: { path, body }, ...rest }) => ({ ...rest, path, body, extraHeaders: valid.headers ?? {} }));
}

// ---- requests --------------------------------------------------------------------------------

type Caller = 'visitor' | 'runner' | 'bad token';
interface FuzzRequest {
  route: RegisteredRoute;
  path: string;
  caller: Caller;
  clientIp: string;
  body: RawBody;
  extraHeaders: Record<string, string>;
}

const preflightHeaders = fc.record({
  origin: fc.constantFrom('http://localhost:3000', 'http://evil.example', 'null'),
  'access-control-request-method': fc.constantFrom('POST', 'GET', 'DELETE', 'X'),
});

function requestArbitrary(route: RegisteredRoute): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    route: fc.constant(route),
    path: fc.tuple(fc.array(urlPiece, { minLength: 2, maxLength: 2 }), queryString).map(([pieces, query]) => fillPath(route.url, pieces) + query),
    caller: fc.constantFrom<Caller>('visitor', 'runner', 'runner', 'bad token'),
    // The test server trusts its loopback proxy, so each request may name another client (fresh rate-limit buckets).
    clientIp: fc.ipV4(),
    body: rawBody,
    extraHeaders: route.method === 'OPTIONS' ? preflightHeaders : fc.constant({}),
  });
}

interface Answer {
  status: number;
  bytes: number;
  head: string;
}

function send(baseUrl: string, agent: http.Agent, request: FuzzRequest, runnerToken: string): Promise<Answer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | number> = { 'x-forwarded-for': request.clientIp, ...request.extraHeaders };
  if (request.body.contentType) headers['content-type'] = request.body.contentType;
  if (request.body.body) headers['content-length'] = request.body.body.length;
  if (request.caller === 'runner') headers.authorization = `Bearer ${runnerToken}`;
  if (request.caller === 'bad token') headers.authorization = `Bearer ${'x'.repeat(300)}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: request.route.method, path: request.path, headers, agent }, (res) => {
      let bytes = 0;
      const head: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        if (bytes < 300) head.push(chunk);
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, head: Buffer.concat(head).toString('utf8', 0, 300) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body.body);
  });
}

const describeRequest = (r: FuzzRequest) =>
  `${r.route.method} ${r.path.slice(0, 200)} as ${r.caller}, ${r.body.label}${r.body.body ? `: ${r.body.body.toString('utf8', 0, 200)}` : ''}`;

describe('fuzz: malformed requests to every route', () => {
  let p: PaymentTestApp;
  let world: RouteWorld;
  let runnerToken: string;
  beforeAll(async () => {
    // Limits stay as configured; the loopback proxy lets each request come from its own address.
    p = await startPaymentTestApp({}, { trustProxy: ['127.0.0.1'] });
    world = await buildRouteWorld(p);
    runnerToken = (await world.sessionOf('runner')).token!;
  }, SET_UP_TIMEOUT_MS);
  afterAll(() => p?.close(), TEAR_DOWN_TIMEOUT_MS);

  it(
    `sends at least ${MIN_REQUESTS} generated requests (seed ${SEED}): no 5xx, every answer under 64 KB`,
    async () => {
      const routes = p.t.app.registeredRoutes;
      expect(routes.length).toBeGreaterThan(30);
      const perRoute = Math.ceil(MIN_REQUESTS / routes.length);
      // One fixed seed per route, from its name: adding a route does not change the others' requests.
      const generating = Date.now();
      const requests: FuzzRequest[] = [];
      for (const route of routes) {
        const key = `${route.method} ${route.url}`;
        const seed = SEED ^ hashOf(key);
        const build = world.requests[key];
        const valid = build ? await build(await world.sessionOf('runner')) : null;
        const spoiledCount = valid ? Math.floor(perRoute / 2) : 0;
        requests.push(...fc.sample(requestArbitrary(route), { seed, numRuns: perRoute - spoiledCount }));
        if (valid) requests.push(...fc.sample(spoiledArbitrary(route, valid), { seed, numRuns: spoiledCount }));
      }

      console.log(`fuzz: generated in ${((Date.now() - generating) / 1000).toFixed(1)} s`);
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      const histogram = new Map<number, number>();
      const failures: string[] = [];
      let largest = 0;
      const started = Date.now();
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const request = requests[next++];
          // A connection dropped without an answer is a failure too (status 0).
          const answer = await send(p.t.url, agent, request, runnerToken).catch((error: Error): Answer => ({ status: 0, bytes: 0, head: error.message }));
          histogram.set(answer.status, (histogram.get(answer.status) ?? 0) + 1);
          largest = Math.max(largest, answer.bytes);
          if (answer.status >= 500 || answer.status === 0 || answer.bytes >= MAX_ANSWER_BYTES) {
            failures.push(`${answer.status} (${answer.bytes} bytes) for ${describeRequest(request)}\n    answer: ${answer.head}`);
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      } finally {
        agent.destroy();
      }

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const statuses = [...histogram.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ');
      console.log(
        `fuzz: ${requests.length} requests over ${routes.length} routes in ${seconds} s (seed ${SEED}); statuses ${statuses}; largest answer ${largest} bytes`,
      );
      expect(requests.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
      expect(failures.slice(0, 20)).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});

/** A small stable hash (FNV-1a) of a route's name. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
