import { useEffect, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { cartApi, cartRequestFromShop, cartShipsGoods, localStore, shopAtom, STORAGE_KEYS, type Bill } from '@finishline/shared';

/**
 * The server's bill for the cart being bought (the same cart details call the cart page makes), so
 * checkout shows the items, discount, GST and total the order will be charged, never a figure of its own.
 */
export function useCheckoutBill(): { bill: Bill | null; error: string | null } {
  const shop = useAtomValue(shopAtom);
  const unlabeled = localStore.getFlag(STORAGE_KEYS.isUnlabeled);
  const request = useMemo(() => cartRequestFromShop(unlabeled ? { ...shop, searchKind: 'unlabeled' } : shop), [shop, unlabeled]);
  const key = JSON.stringify(request);
  const [state, setState] = useState<{ key: string; bill: Bill | null; error: string | null }>({ key: '', bill: null, error: null });

  useEffect(() => {
    if (!request || request.lines.length === 0) return;
    let alive = true;
    (unlabeled ? cartApi.unlabeledCartDetails : cartApi.cartDetails)(request)
      .then(({ result }) => alive && setState({ key, bill: result, error: null }))
      .catch((error: unknown) => alive && setState({ key, bill: null, error: error instanceof Error ? error.message : 'Server Error' }));
    return () => {
      alive = false;
    };
    // key captures the request's content
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, unlabeled]);

  return state.key === key ? { bill: state.bill, error: state.error } : { bill: null, error: null };
}

/** Whether the cart being bought holds a print or a collage: only then does checkout ask for address and PIN code. */
export function useCartShipsGoods(): boolean {
  const shop = useAtomValue(shopAtom);
  return useMemo(() => cartShipsGoods(cartRequestFromShop(shop)?.lines ?? []), [shop]);
}
