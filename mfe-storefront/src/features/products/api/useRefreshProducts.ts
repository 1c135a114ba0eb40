import { useCallback } from 'react';
import { useSetAtom } from 'jotai';
import { eventsApi, shopAtom, STORAGE_KEYS, type BibSearchResult, localStore } from '@finishline/shared';

/**
 * Runs the BIB search again for the products on screen (after OTP verification or feedback) and
 * stores the fresh product list; the cart keeps only items still offered.
 */
export function useRefreshProducts() {
  const setShop = useSetAtom(shopAtom);
  return useCallback(
    async (products: BibSearchResult): Promise<BibSearchResult> => {
      const userId = localStore.get(STORAGE_KEYS.userId);
      const { result } = await eventsApi.searchByBib({
        eventID: products.eventId,
        eventName: products.eventName,
        bibNumber: products.bibNumber,
        userID: userId ? Number(userId) : null,
        sessionToken: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
        orderId: null,
      });
      localStore.set(STORAGE_KEYS.awsImageExpiry, result.awsImageExpary);
      const offered = new Set([...result.photo, ...result.video].map((p) => p.id));
      setShop((shop) => ({
        ...shop,
        products: result,
        cart: shop.cart.filter((item) => typeof item.id !== 'number' || offered.has(item.id)),
        sponsor: { ...shop.sponsor, discountedPhoto: shop.sponsor.discountedPhoto.filter((id) => offered.has(id)) },
      }));
      return result;
    },
    [setShop],
  );
}
