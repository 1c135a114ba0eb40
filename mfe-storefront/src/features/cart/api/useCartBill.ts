import { useEffect, useMemo, useState } from 'react';
import { cartApi, cartRequestFromShop, computeBill, STORAGE_KEYS, type Bill, type PricedBill, type ShopState, localStore } from '@finishline/shared';

export interface CartBillState {
  /** The server's bill (the authority), once it answered for the current cart. */
  server: Bill | null;
  /** The same rules computed here for an instant display while the server answers. */
  local: PricedBill | null;
  loading: boolean;
  error: string | null;
}

/**
 * Recalculates the bill on every change of the cart items, package or sponsor discount: shows the
 * shared computeBill at once and replaces it with the server's bill (cart details, or unlabeled
 * cart details), whose GST is stored under gst.
 */
export function useCartBill(shop: ShopState, unlabeled: boolean): CartBillState {
  const request = useMemo(() => cartRequestFromShop(unlabeled ? { ...shop, searchKind: 'unlabeled' } : shop), [shop, unlabeled]);
  const key = JSON.stringify(request);
  const [state, setState] = useState<{ key: string; server: Bill | null; error: string | null }>({ key: '', server: null, error: null });

  const local = useMemo(() => {
    if (!request || request.lines.length === 0 || !shop.products) return null;
    try {
      return computeBill({ cart: request, catalog: shop.products });
    } catch {
      return null;
    }
  }, [request, shop.products]);

  useEffect(() => {
    if (!request || request.lines.length === 0) return;
    let alive = true;
    const timer = window.setTimeout(() => {
      const call = unlabeled ? cartApi.unlabeledCartDetails : cartApi.cartDetails;
      call(request)
        .then(({ result }) => {
          if (!alive) return;
          localStore.set(STORAGE_KEYS.gst, String(result.gstInfo[0]?.gst_amount ?? 0));
          localStore.set(STORAGE_KEYS.cartPrice, String(result.total_amount));
          setState({ key, server: result, error: null });
        })
        .catch((error: unknown) => {
          if (alive) setState({ key, server: null, error: error instanceof Error ? error.message : 'Server Error' });
        });
    }, 150);
    return () => {
      alive = false;
      window.clearTimeout(timer);
    };
    // key captures the request's content
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, unlabeled]);

  const current = state.key === key;
  return { server: current ? state.server : null, local, loading: !current, error: current ? state.error : null };
}
