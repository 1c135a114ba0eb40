import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { API_URL, PORTS, REPO_ROOT, type Deployment } from '../support/system';
import { accessibilityProblems, expectAccessible, expectNoSidewaysScroll } from '../support/accessibility';
import { apiEventId, chooseEvent, DEMO_EVENT } from '../support/storefront';
import { DEMO_PASSWORD, DEMO_USERS, signInThroughForm, signUpThroughForm, uniqueEmail } from './accounts.helpers';
import { shownServerTotal } from './cart.helpers';
import { payInBrowser, placeRunnerOrder as placeOrder } from './orders.helpers';

/**
 * The organiser's journeys through the whole system: the Event Dashboard's figures against the
 * orders the test places, CSV export, the participants import, a photographer approved, a reported
 * photo confirmed, a new event created, priced, published and found by a runner, refusals, and the
 * chart library staying inside the organiser remote.
 */
const JAIPUR = 'Jaipur Pink City 10K 2026';
const OPERATOR = 'operator@finishline.test';
const inr = (n: number) => `₹${n.toLocaleString('en-IN', { maximumFractionDigits: 2 })}`;

interface Answer<T> {
  status: number;
  body: { StatusCode: number; Message: string; result: T };
}
async function api<T>(route: string, body: unknown, token?: string): Promise<Answer<T>> {
  const response = await fetch(`${API_URL}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
}

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('session_token') ?? '');

async function signedIn(browser: Browser, email: string, password = DEMO_PASSWORD): Promise<{ page: Page; token: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughForm(page, email, password);
  await expect(page).not.toHaveURL(/sign-in/);
  await expect(page.getByTestId('account-button')).toBeVisible();
  return { page, token: await tokenOf(page) };
}

async function photosOf(eventID: number, bibNumber: string) {
  const answer = await api<{ photo: Array<{ id: number; imageid: string }>; printProductInfo: Array<{ id: number }> }>('/api/search/bib', {
    eventID,
    bibNumber,
  });
  expect(answer.status).toBe(200);
  return answer.body.result;
}

async function openEventTab(page: Page, eventId: number, tab: string): Promise<void> {
  await page.goto(`/organization_dashboard?event=${eventId}&tab=${tab}`);
  await expect(page.getByTestId('event-dashboard')).toBeVisible();
}

/** Cells of a titled ledger table (its rows and the total row), as text. */
async function tableText(page: Page, title: string): Promise<string[][]> {
  const section = page.getByRole('region', { name: title, exact: true });
  // The table renders once its figures arrive: read it only then.
  await expect(section.locator('thead th').first()).toBeVisible();
  await expect(section.locator('.ant-spin-spinning')).toHaveCount(0);
  const header = (await section.locator('thead th').allInnerTexts()).map((t) => t.trim());
  const rows = await section
    .locator('tbody tr.ant-table-row, tfoot tr, .ant-table-summary tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())));
  return [header, ...rows];
}

/** Parses the simple CSV the export writes (quoted fields, doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)) {
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quoted && c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = !quoted;
      } else if (c === ',' && !quoted) {
        cells.push(cell);
        cell = '';
      } else {
        cell += c;
      }
    }
    rows.push([...cells, cell]);
  }
  return rows;
}

test.describe.configure({ mode: 'serial' });

test.describe('organiser: Event Dashboard and the race’s photo operation', () => {
  let jaipurId: number;
  let organiser: { page: Page; token: string };
  let runner: { page: Page; token: string };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    jaipurId = await apiEventId(JAIPUR);
    organiser = await signedIn(browser, DEMO_USERS.organiser);
    runner = await signedIn(browser, DEMO_USERS.runner);
  });

  test('every figure equals what the runner’s orders add up to, and the CSV export matches the table', async () => {
    test.setTimeout(240_000);
    const a = await photosOf(jaipurId, 'JP60301');
    const b = await photosOf(jaipurId, 'JP60302');
    const c = await photosOf(jaipurId, 'JP60303');
    const image = (id: number) => ({ type: 'download', category: 'image', id });
    // Other journeys may have bought in this race already (the certificate journey buys a Jaipur
    // photo): the figures are checked as what was there plus these orders.
    await organiser.page.goto(`/organization_dashboard?event=${jaipurId}`);
    await expect(organiser.page.getByRole('tab', { name: 'Revenue', selected: true })).toBeVisible();
    const revenueBefore = await tableText(organiser.page, 'Revenue');
    const stagesBefore = await tableText(organiser.page, 'Analytics: orders by stage');
    const first = await placeOrder(runner.token, jaipurId, 'JP60301', [image(a.photo[0]!.id), image(a.photo[1]!.id)]);
    await payInBrowser(runner.page, first);
    const second = await placeOrder(runner.token, jaipurId, 'JP60302', [
      ...b.photo.slice(0, 3).map((p) => image(p.id)),
      { type: 'print', category: 'image', id: b.photo[0]!.id, printProductId: b.printProductInfo[0]!.id },
    ]);
    await payInBrowser(runner.page, second);
    const pending = await placeOrder(runner.token, jaipurId, 'JP60303', [image(c.photo[0]!.id)]);
    expect((await api('/api/downloads/order', { orderID: first.order_ref }, runner.token)).status).toBe(200);

    // What the runner's own order history says about these orders.
    const history = (
      await api<{ order_history: Array<{ order_ref: string; price: number; gst: number; photos_count: number; status: string }> }>(
        '/api/orders/history',
        { searchtext: '' },
        runner.token,
      )
    ).body.result.order_history;
    const mine = (ref: string) => history.find((o) => o.order_ref === ref)!;
    const paid = [mine(first.order_ref), mine(second.order_ref)];
    expect(paid.map((o) => o.status)).toEqual(['Downloaded', 'Paid']);
    expect(mine(pending.order_ref).status).toBe('Pending');
    const total = paid.reduce((s, o) => s + o.price, 0);
    const gst = paid.reduce((s, o) => s + o.gst, 0);
    const photos = paid.reduce((s, o) => s + o.photos_count, 0);

    // The organiser opens the Event Dashboard from the navbar and the event from the list.
    const page = organiser.page;
    await page.goto('/');
    await page.getByTestId('account-button').click();
    await page.getByRole('menuitem', { name: 'Event Dashboard' }).click();
    await page.waitForURL('**/organization_dashboard');
    await expect(page.getByRole('heading', { name: 'Event Dashboard', level: 1 })).toBeVisible();
    await expectAccessible(page, 'the event list');
    await page.getByRole('button', { name: JAIPUR }).click();
    await expect(page.getByRole('tab', { name: 'Revenue', selected: true })).toBeVisible();

    const revenue = await tableText(page, 'Revenue');
    expect(revenue[0]).toEqual(['Price', 'Orders', 'Photos', 'Videos', 'Prints', 'Discount', 'Order value', 'GST', 'Refunded', 'Total revenue']);
    // Two photos at ₹150, three at ₹200 (before GST), beside the rows that were there.
    const num = (text: string | undefined) => Number((text ?? '0').replace(/[₹,]/g, '')) || 0;
    const rowsBefore = new Map(
      revenueBefore
        .slice(1)
        .filter((r) => r[0] !== 'Total' && r.length > 1)
        .map((r) => [r[0], num(r[1])]),
    );
    for (const price of ['₹150 photos', '₹200 photos']) rowsBefore.set(price, (rowsBefore.get(price) ?? 0) + 1);
    const expectedRows = [...rowsBefore].sort((x, y) => num(x[0]) - num(y[0])).map(([price, n]) => [price, String(n)]);
    expect(revenue.slice(1, -1).map((r) => [r[0], r[1]])).toEqual(expectedRows);
    const totalBefore = revenueBefore.find((r) => r[0] === 'Total') ?? [];
    const plus = (column: number, n: number) => num(totalBefore[column]) + n;
    expect(revenue.at(-1)).toEqual([
      'Total',
      String(plus(1, 2)),
      String(plus(2, photos)),
      inr(plus(3, 0)),
      inr(plus(4, 739)),
      inr(plus(5, 0)),
      inr(plus(6, total - gst)),
      inr(plus(7, gst)),
      inr(plus(8, 0)),
      inr(plus(9, total)),
    ]);
    const stages = await tableText(page, 'Analytics: orders by stage');
    const stage = (name: string) => stages.find((r) => r[0] === name)!;
    const stageBefore = (name: string, column: number) => num(stagesBefore.find((r) => r[0] === name)?.[column]);
    const stagePlus = (name: string, price: number) => [String(stageBefore(name, 1) + 1), inr(stageBefore(name, 2) + price)];
    expect(stage('booked with download pending').slice(1)).toEqual(stagePlus('booked with download pending', mine(second.order_ref).price));
    expect(stage('downloaded').slice(1)).toEqual(stagePlus('downloaded', mine(first.order_ref).price));
    expect(stage('payment in progress').slice(1)).toEqual(stagePlus('payment in progress', mine(pending.order_ref).price));
    await expect(page.getByRole('figure', { name: 'Sales per day chart' }).locator('svg.recharts-surface')).toBeVisible();
    await expect(page.getByRole('region', { name: "Photographers' share" })).toBeVisible();
    await expectAccessible(page, 'the Revenue tab');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV: jaipur-pink-city-10k-2026-revenue.csv' }).click();
    const file = await (await download).path();
    expect(parseCsv(fs.readFileSync(file, 'utf8'))).toEqual(revenue);
  });

  test('a participant CSV with one bad row is refused with that row’s error, and imports after the fix', async () => {
    const page = organiser.page;
    await openEventTab(page, jaipurId, 'participants');
    // The seed's four runners of JP60301 to JP60304 and the demo runner's JP60608.
    await expect(page.getByText('5 participants', { exact: true })).toBeVisible();
    const upload = (csv: string) => page.locator('input[type=file]').setInputFiles({ name: 'results.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const rows = [
      'BIB,Name,Finish time,Email',
      'JP60301,Aarav Iyer,0:48:12,aarav@runners.example',
      'JP60302,,0:51:40,',
      'JP60303,Meera Kulkarni,0:55:03,',
      'JP60304,Kabir Menon,1:02:10,',
      'JP60305,Tara Gill,,',
      'JP60608,Priya Nair,0:49:37,runner@finishline.test',
    ];
    await upload(rows.join('\n'));
    const alert = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
    await expect(alert).toContainText('1 row has an error. Nothing was imported: please correct it and import the file again.');
    await expect(alert).toContainText('Line 3: the name is missing.');
    await expect(page.getByText('5 participants', { exact: true })).toBeVisible();

    rows[2] = 'JP60302,Diya Reddy,0:51:40,';
    await upload(rows.join('\n'));
    await expect(page.getByText('6 participants imported (they replace the 5 imported before).')).toBeVisible();
    await expect(page.getByText('6 participants', { exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Diya Reddy' })).toBeVisible();
    await expectAccessible(page, 'the Participants tab');
  });

  test('a photographer’s registration is approved', async () => {
    const page = organiser.page;
    await openEventTab(page, await apiEventId(DEMO_EVENT), 'photographers');
    const row = page.getByRole('row', { name: /Ishita Verma/ });
    await expect(row).toContainText('pending');
    await expectAccessible(page, 'the Photographers tab');
    await row.getByRole('button', { name: 'Approve Ishita Verma' }).click();
    await expect(page.getByText('Ishita Verma is approved for this event.')).toBeVisible();
    await expect(page.getByRole('row', { name: /Ishita Verma/ })).toContainText('approved');
  });

  test('a photo the runner reported as "Not me" is confirmed and leaves the BIB’s results', async () => {
    const before = await photosOf(jaipurId, 'JP60304');
    const reported = before.photo[0]!;
    const report = await api('/api/feedback/photos', { usrfeedback: 2, bibNumber: 'JP60304', eventID: jaipurId, photoids: String(reported.id) }, runner.token);
    expect(report.status).toBe(200);

    const page = organiser.page;
    await openEventTab(page, jaipurId, 'reports');
    await expect(page.getByRole('button', { name: `Confirm: not this runner, photo ${reported.imageid}` })).toBeVisible();
    await expectAccessible(page, 'the Reports tab');
    await page.getByRole('button', { name: `Confirm: not this runner, photo ${reported.imageid}` }).click();
    await expect(page.getByText("Confirmed: the photo has left this BIB's results.")).toBeVisible();
    const after = await photosOf(jaipurId, 'JP60304');
    expect(after.photo.map((p) => p.id)).not.toContain(reported.id);
    expect(after.photo).toHaveLength(before.photo.length - 1);
  });

  test('an organiser creates an event, sets its prices and BIB format, publishes it; a runner finds it and a price change shows in the bill', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const page = organiser.page;
    const name = `Nashik Vineyard Run ${Date.now() % 100000}`;
    await page.goto('/organization_dashboard');
    await page.getByRole('button', { name: 'Create event' }).click();
    const form = page.getByRole('form', { name: 'Create event' });
    await form.getByLabel('Event name').fill(name);
    await form.getByLabel('Starts on').fill('2027-03-14');
    await form.getByLabel('Ends on').fill('2027-03-14');
    await form.getByLabel('City').fill('Nashik');
    // The BIB format by example: letters then digits from one real BIB; the expression stays as the advanced choice.
    await form.getByRole('radio', { name: 'Letters then digits, like TT20608' }).check();
    await form.getByLabel('A BIB of this race').fill('NV123');
    await expect(form.getByText('As an expression: ^NV\\d{3}$')).toBeVisible();
    await form.getByLabel('Try BIBs').fill('NV456, 1486');
    await expect(form.getByText('NV456 fits the format')).toBeVisible();
    await expect(form.getByText('1486 does not fit the format')).toBeVisible();
    await form.getByRole('radio', { name: 'Digits only, 1 to 5 (like 1486)' }).check();
    await expect(form.getByText('1486 fits the format')).toBeVisible();
    await form.getByRole('radio', { name: 'Advanced: a regular expression' }).check();
    await form.getByRole('textbox', { name: 'Regular expression' }).fill('^NV\\d{3}$');
    await expect(form.getByText('NV456 fits the format')).toBeVisible();
    await expectAccessible(page, 'the Create event form');
    await form.getByLabel('One photo', { exact: true }).fill('120');
    for (const label of ['Photos searchable', 'Search by selfie', 'Unlabeled photos shown']) await form.getByRole('switch', { name: label }).click();
    await form.getByRole('button', { name: 'Create event' }).click();
    await expect(page.getByText('The event is saved. It stays hidden until you publish it.')).toBeVisible();
    await expect(page.getByText('Hidden: runners cannot see this event until you publish it.')).toBeVisible();
    const eventId = Number(new URL(page.url()).searchParams.get('event'));

    const visitor = await (
      await browser.newContext({
        storageState: {
          cookies: [],
          origins: [
            {
              origin: new URL(page.url()).origin,
              localStorage: [
                { name: 'Cookies', value: 'true' },
                { name: 'preOrderPopupShown', value: 'true' },
              ],
            },
          ],
        },
      })
    ).newPage();
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { name: 'Find your race photos' })).toBeVisible();
    await expect(visitor.getByText(name)).toHaveCount(0);

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Published: runners find this event on the home page.')).toBeVisible();
    await visitor.reload();
    await expect(visitor.getByText(name).first()).toBeVisible();

    // The course map, printed at the foot of the race's journey-map collages.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Choose a course map' }).click()]);
    await chooser.setFiles({
      name: 'course.png',
      mimeType: 'image/png',
      buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
    });
    await expect(page.getByText("The course map is saved: it is printed on this race's journey-map collages.")).toBeVisible();
    await expect(page.getByRole('img', { name: `${name} course map` })).toBeVisible();

    // A photographer's photo arrives (the development route stands in for the upload pipeline).
    const demo = await photosOf(await apiEventId(DEMO_EVENT), 'TT20609');
    const still = await (await fetch((demo.photo[0] as unknown as { s3: string }).s3)).arrayBuffer();
    const added = await fetch(`${API_URL}/dev/faces/event-photo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventID: eventId, image: Buffer.from(still).toString('base64') }),
    });
    expect(added.status).toBe(200);

    await visitor.goto('/');
    await chooseEvent(visitor, name);
    await visitor.getByTestId('hero-panel').getByRole('button', { name: 'Unlabeled Photos' }).click();
    await visitor.waitForURL('**/unlabeled-events');
    await visitor.getByTestId('unlabeled-photo').first().getByRole('button', { name: 'Add To Cart' }).click();
    await visitor.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await visitor.waitForURL('**/unlabeled-cart');
    expect(await shownServerTotal(visitor)).toBe('₹142'); // 120 + 18% GST

    await openEventTab(page, eventId, 'event');
    const edit = page.getByRole('form', { name: 'Save changes' });
    await expect(edit).toBeVisible();
    await expectAccessible(page, 'the Event tab');
    await edit.getByLabel('One photo', { exact: true }).fill('99');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('The event is saved.')).toBeVisible();
    await visitor.reload();
    expect(await shownServerTotal(visitor)).toBe('₹117'); // 99 + 18% GST
    await visitor.context().close();
  });

  test('a runner and a second organiser are refused, by the API and in the browser', async ({ browser }) => {
    test.setTimeout(240_000);
    await runner.page.goto('/organization_dashboard');
    await expect(runner.page).toHaveURL(/\/unauthorizeduser$/);
    await expect(runner.page.getByText('You are not authorized to access this page.')).toBeVisible();
    expect((await api('/api/organiser/dashboard', { event_id: jaipurId }, runner.token)).status).toBe(403);
    expect((await api('/api/organiser/dashboard', {}, runner.token)).status).toBe(403);

    // A race director signs up; the platform operator grants the organiser role.
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = uniqueEmail('race.director');
    await signUpThroughForm(page, { firstName: 'Neha', lastName: 'Director', email, phone: '9876512345', password: DEMO_PASSWORD });
    const operator = await signedIn(browser, OPERATOR);
    const granted = await api<{ isOrganiser: boolean }>('/api/operator/organisers', { email, grant: true }, operator.token);
    expect(granted.body).toMatchObject({ StatusCode: 200, Message: 'The account is now an organiser.', result: { isOrganiser: true } });
    await operator.page.context().close();

    await signInThroughForm(page, email, DEMO_PASSWORD);
    await expect(page).not.toHaveURL(/sign-in/);
    await page.goto('/organization_dashboard');
    await expect(page.getByRole('heading', { name: 'Your events' })).toBeVisible();
    await expect(page.getByText('No matching records found')).toBeVisible();
    await page.goto(`/organization_dashboard?event=${jaipurId}`);
    await expect(page).toHaveURL(/\/unauthorizeduser$/);
    expect((await api('/api/organiser/dashboard', { event_id: jaipurId }, await tokenOf(page))).status).toBe(403);
    await context.close();
  });

  test('the organiser’s pages load only the shell and the organiser remote; the chart library is in no deployment but the organiser’s and the partner’s', async () => {
    const page = organiser.page;
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto(`/organization_dashboard?event=${jaipurId}&tab=revenue`);
    // The dashboard's figures and the chart code load one after the other: slow on a busy machine.
    await expect(page.getByRole('figure', { name: 'Funnel chart' }).locator('svg.recharts-surface')).toBeVisible({ timeout: 45_000 });
    const deployments: Deployment[] = ['shell', 'storefront', 'account', 'partner', 'organiser', 'certificate'];
    const byPort = (name: Deployment) => urls.filter((url) => new URL(url).port === String(PORTS[name]));
    expect(byPort('organiser').some((url) => url.endsWith('/mf-manifest.json'))).toBe(true);
    for (const name of deployments.filter((d) => d !== 'shell' && d !== 'organiser')) expect(byPort(name), `${name} files requested`).toEqual([]);

    // recharts marks its SVG with the class recharts-surface: only the organiser's built files hold it,
    // and the partner's (My Share's chart, loaded only with that chart: e2e/tests/independence.spec.ts).
    const holdsCharts = (name: Deployment) => {
      const dir = path.join(REPO_ROOT, name === 'shell' ? 'shell' : `mfe-${name}`, 'dist');
      return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.js'))
        .some((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes('recharts-surface'));
    };
    expect(holdsCharts('organiser')).toBe(true);
    expect(holdsCharts('partner')).toBe(true);
    for (const name of ['shell', 'storefront', 'account', 'certificate'] as Deployment[])
      expect(holdsCharts(name), `${name} holds the chart library`).toBe(false);
  });

  test('a runner on / and /products loads no chart code', async ({ browser }) => {
    const page = await (await browser.newContext()).newPage();
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text().catch(() => ''));
    });
    await page.goto('/');
    await chooseEvent(page);
    await page.getByPlaceholder('Enter your BIB number (ex: TT20608)').fill('TT20608');
    await page.getByRole('button', { name: 'Find My Photos' }).click();
    await page.waitForURL('**/products');
    await expect(page.getByTestId('congrats-bar')).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.some((text) => text.includes('recharts-surface'))).toBe(false);
    await page.context().close();
  });
});

/*
 * The Event Dashboard as an organiser meets it on a phone (360 x 740, touch) and a desktop: every tab
 * of an event within reach (on a phone the tabs wrap to two rows instead of hiding behind a "more"
 * button inside the tab list), the tables as cards on the phone (a table there scrolled inside its
 * frame, out of a keyboard's reach, and broke dates mid-value), no sideways scroll and no serious or
 * critical axe finding on any screen.
 */
const ORGANISER_SCREENS = [
  { name: 'phone (360 x 740, touch)', phone: true, use: { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true } },
  { name: 'desktop (1280 x 800)', phone: false, use: { viewport: { width: 1280, height: 800 }, hasTouch: false, isMobile: false } },
];
const EVENT_TABS = [
  { key: 'revenue', label: 'Revenue', region: 'Revenue' },
  { key: 'event', label: 'Event', region: 'Changes' },
  { key: 'participants', label: 'Participants', region: 'Participants' },
  { key: 'photographers', label: 'Photographers', region: 'Photographers' },
  { key: 'reports', label: 'Reported photos', region: 'Reported photos' },
  // The race's certificate: settings, the template editor and the preview (no table).
  { key: 'certificate', label: 'Certificate', region: 'Certificate', table: false },
];
for (const screen of ORGANISER_SCREENS) {
  test(`the Event Dashboard on a ${screen.name}: every tab in reach, cards on a phone, nothing scrolls sideways, no serious accessibility problem`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext(screen.use);
    const page = await context.newPage();
    await signInThroughForm(page, DEMO_USERS.organiser, DEMO_PASSWORD);
    await expect(page.getByTestId('account-button')).toBeVisible();
    const problems: string[] = [];
    const check = async (where: string) => {
      await expectNoSidewaysScroll(page, where);
      problems.push(...(await accessibilityProblems(page)).map((p) => `${where}: ${p}`));
    };

    await page.goto('/organization_dashboard');
    const events = page.getByRole('region', { name: 'Your events' });
    await expect(events.getByRole('button', { name: JAIPUR })).toBeVisible();
    if (screen.phone) {
      // One card per event, its dates whole on one line each.
      const card = events.getByRole('list', { name: 'Your events' }).getByRole('listitem').filter({ hasText: JAIPUR });
      await expect(card).toContainText('From2026-11-08');
      await expect(events.getByRole('table')).toHaveCount(0);
      const from = card.getByText('2026-11-08').first();
      expect((await from.boundingBox())!.height, 'a date on one line').toBeLessThan(30);
    } else {
      await expect(events.getByRole('table')).toBeVisible();
    }
    await check('the event list');

    await events.getByRole('button', { name: JAIPUR }).click();
    const tabs = page.getByRole('tablist').first();
    await expect(tabs.getByRole('tab')).toHaveText(EVENT_TABS.map((t) => t.label));
    for (const tab of EVENT_TABS) {
      const handle = tabs.getByRole('tab', { name: tab.label });
      const box = (await handle.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= screen.use.viewport.width, `the ${tab.label} tab in view`).toBe(true);
      await handle.click();
      await expect(handle).toHaveAttribute('aria-selected', 'true');
      await expect(page).toHaveURL(new RegExp(`tab=${tab.key}`));
      const region = page.getByRole('region', { name: tab.region, exact: true });
      await expect(region).toBeVisible();
      if (screen.phone) {
        await expect(region.getByRole('table')).toHaveCount(0);
        if (tab.key === 'participants') await expect(region.getByRole('list', { name: 'Participants' }).getByRole('listitem').first()).toContainText('Name');
      } else if (tab.table !== false) {
        await expect(region.getByRole('table').first()).toBeVisible();
      }
      await check(`the ${tab.label} tab`);
    }
    expect(problems, 'serious or critical accessibility problems').toEqual([]);
    await context.close();
  });
}
