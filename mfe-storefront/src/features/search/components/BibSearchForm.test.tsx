/**
 * The BIB search form against an HTTP server started by the test (the API's own behaviour is
 * covered by the API suite and the browser journey; here we check what the form does with answers).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createStore, Provider } from 'jotai';
import { App as AntdApp } from 'antd';
import { API_ROUTES, EMPTY_SHOP, setRuntimeConfig, shopAtom, STORAGE_KEYS, type EventSummary } from '@finishline/shared';
import { BibSearchForm, BIB_PLACEHOLDER } from './BibSearchForm';

const EVENT: EventSummary = {
  event_id: 7,
  event_name: 'Mumbai Coastal Marathon 2026',
  event_logo: '',
  event_from_date: '2026-01-18',
  event_to_date: '2026-01-18',
  issearchable: 1,
  selfiesearch: 1,
  preorder_allowed: 0,
  showunlabeled: 0,
};

const NOT_FOUND_MESSAGE = 'No photos found for BIB NOPE1 in Mumbai Coastal Marathon 2026. Please check the number and try again.';

function photo(id: number) {
  return { id, imageid: `MCM26-${id}`, s3: `http://x/p${id}.jpg`, image: `http://x/t${id}.jpg`, category: 'image', type: 'download', bibNumber: 'TT20608' };
}

const received: Array<{ bibNumber: string; eventID: number }> = [];
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', '*');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const input = JSON.parse(body || '{}');
      if (request.url !== API_ROUTES.searchByBib) return void response.writeHead(404).end();
      received.push(input);
      const found = input.bibNumber === 'TT20608';
      const envelope = found
        ? {
            StatusCode: 200,
            Message: 'Success',
            HasError: false,
            result: {
              eventId: 7,
              eventName: EVENT.event_name,
              eventLogo: '',
              bibNumber: 'TT20608',
              photo: [photo(1), photo(2)],
              video: [],
              total_image_count: 2,
              awsImageExpary: new Date(Date.now() + 3_600_000).toISOString(),
              achievementsEligibility: { certificate_eligible: true, certificate_url: null, achievement_id: null },
            },
          }
        : { StatusCode: 404, Message: NOT_FOUND_MESSAGE, HasError: true, result: null };
      response.writeHead(found ? 200 : 404, { 'Content-Type': 'application/json' }).end(JSON.stringify(envelope));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setRuntimeConfig({ apiBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  received.length = 0;
  localStorage.clear();
});

function renderForm(store = createStore()) {
  render(
    <AntdApp>
      <Provider store={store}>
        <MemoryRouter initialEntries={['/']}>
          <Routes>
            <Route path="/" element={<BibSearchForm event={EVENT} />} />
            <Route path="/home" element={<p>home page</p>} />
            <Route path="/products" element={<p>products page</p>} />
          </Routes>
        </MemoryRouter>
      </Provider>
    </AntdApp>,
  );
  return store;
}

describe('BibSearchForm', () => {
  it('shows the spec placeholder and button', () => {
    renderForm();
    expect(screen.getByPlaceholderText('Enter your BIB number (ex: TT20608)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Find My Photos' })).toBeInTheDocument();
  });

  it('goes to the home page when the BIB is empty, without asking the server', async () => {
    renderForm();
    await userEvent.type(screen.getByPlaceholderText(BIB_PLACEHOLDER), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Find My Photos' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(received).toHaveLength(0);
  });

  it('searches on Enter, stores the result and opens /products', async () => {
    const store = renderForm();
    await userEvent.type(screen.getByPlaceholderText(BIB_PLACEHOLDER), 'TT20608{Enter}');
    expect(await screen.findByText('products page')).toBeInTheDocument();
    expect(received).toEqual([expect.objectContaining({ bibNumber: 'TT20608', eventID: 7, eventName: EVENT.event_name })]);
    expect(localStorage.getItem(STORAGE_KEYS.bibId)).toBe('TT20608');
    expect(localStorage.getItem(STORAGE_KEYS.selectedEventId)).toBe('7');
    expect(localStorage.getItem(STORAGE_KEYS.awsImageExpiry)).not.toBeNull();
    const shop = store.get(shopAtom);
    expect(shop.bibNumber).toBe('TT20608');
    expect(shop.products?.photo).toHaveLength(2);
  });

  it("shows the server's Message as a warning for an unknown BIB and stays on the page", async () => {
    renderForm();
    await userEvent.type(screen.getByPlaceholderText(BIB_PLACEHOLDER), 'NOPE1');
    await userEvent.click(screen.getByRole('button', { name: 'Find My Photos' }));
    expect(await screen.findByText(NOT_FOUND_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText('products page')).not.toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.bibId)).toBeNull();
  });

  it('empties the cart when a different BIB is found', async () => {
    localStorage.setItem(STORAGE_KEYS.bibId, 'TT99999');
    const store = createStore();
    store.set(shopAtom, { ...EMPTY_SHOP, cart: [{ ...photo(9), bibNumber: 'TT99999', category: 'image', type: 'download' }] } as typeof EMPTY_SHOP);
    renderForm(store);
    await userEvent.type(screen.getByPlaceholderText(BIB_PLACEHOLDER), 'TT20608{Enter}');
    expect(await screen.findByText('products page')).toBeInTheDocument();
    expect(store.get(shopAtom).cart).toEqual([]);
  });
});
