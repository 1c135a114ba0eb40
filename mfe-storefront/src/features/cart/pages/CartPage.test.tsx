/**
 * The cart page's own rules, rendered: the expired search session block (shared with the products
 * page) and the collage rule, which the page takes from collageIsIncomplete.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { createStore, Provider } from 'jotai';
import { App as AntdApp } from 'antd';
import {
  COLLAGE_CART_WARNING,
  COLLAGE_MAX_PHOTOS,
  COLLAGE_RULE_MESSAGE,
  EMPTY_SHOP,
  EXPIRED_SESSION_MESSAGE,
  shopAtom,
  STORAGE_KEYS,
  type CartItem,
} from '@finishline/shared';
import { CartPage } from './CartPage';

function collageItem(id: number): CartItem {
  return { id, imageid: `P-${id}`, s3: `http://x/p${id}.jpg`, image: `http://x/t${id}.jpg`, category: 'image', type: 'collage', bibNumber: '1234', seq: id };
}

function renderCart(cart: CartItem[]) {
  const store = createStore();
  // No event: the page prices nothing on a server, so only its own rules show.
  store.set(shopAtom, { ...EMPTY_SHOP, bibNumber: '1234', searchKind: 'bib', cart });
  render(
    <Provider store={store}>
      <AntdApp>
        <MemoryRouter initialEntries={['/cart']}>
          <Routes>
            <Route path="/cart" element={<CartPage />} />
            <Route path="/home" element={<p>home page</p>} />
          </Routes>
        </MemoryRouter>
      </AntdApp>
    </Provider>,
  );
}

const photos = (count: number) => Array.from({ length: count }, (_, i) => collageItem(i + 1));

describe('cart page', () => {
  afterEach(() => localStorage.clear());

  it('shows the expired search session, and Go back clears the expiry and goes home', async () => {
    localStorage.setItem(STORAGE_KEYS.awsImageExpiry, '2020-01-01T00:00:00.000Z');
    renderCart(photos(3));
    expect(screen.getByText(EXPIRED_SESSION_MESSAGE)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go back' }));
    expect(screen.getByText('home page')).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.awsImageExpiry)).toBeNull();
  });

  it('keeps the cart of a pending order usable after the expiry', () => {
    localStorage.setItem(STORAGE_KEYS.awsImageExpiry, '2020-01-01T00:00:00.000Z');
    localStorage.setItem(STORAGE_KEYS.isPending, 'true');
    renderCart(photos(3));
    expect(screen.queryByText(EXPIRED_SESSION_MESSAGE)).not.toBeInTheDocument();
    expect(screen.getByTestId('collage-section')).toBeInTheDocument();
  });

  it('warns under 3 collage photos and blocks checkout', () => {
    renderCart(photos(2));
    expect(screen.getByText(COLLAGE_CART_WARNING)).toBeInTheDocument();
    expect(screen.getByText(COLLAGE_RULE_MESSAGE)).toBeInTheDocument();
  });

  it('accepts 3 collage photos', () => {
    renderCart(photos(3));
    expect(screen.queryByText(COLLAGE_CART_WARNING)).not.toBeInTheDocument();
    expect(screen.queryByText(COLLAGE_RULE_MESSAGE)).not.toBeInTheDocument();
  });

  it(`blocks checkout above ${COLLAGE_MAX_PHOTOS} collage photos too`, () => {
    renderCart(photos(COLLAGE_MAX_PHOTOS + 1));
    expect(screen.queryByText(COLLAGE_CART_WARNING)).not.toBeInTheDocument();
    expect(screen.getByText(COLLAGE_RULE_MESSAGE)).toBeInTheDocument();
  });
});
