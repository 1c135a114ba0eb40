import type { ShopState } from '@finishline/shared/runtime';
import { localStore } from '../storage/localStore';
import { STORAGE_KEYS } from '../storageKeys';
import type { BibSearchRequest, BibSearchResult } from '../types/search';
import type { EventSummary } from '../types/entities';

/** The BIB search's request as the browser sends it: the signed-in user and the session's token from storage. */
export function bibSearchRequestOf(event: Pick<EventSummary, 'event_id' | 'event_name'>, bib: string): BibSearchRequest {
  const userId = localStore.get(STORAGE_KEYS.userId);
  return {
    eventName: event.event_name,
    bibNumber: bib,
    eventID: event.event_id,
    userID: userId ? Number(userId) : null,
    sessionToken: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
    orderId: null,
  };
}

/**
 * What a BIB search's answer changes, wherever the search was made (the storefront's BIB search, the
 * certificate builder's offer to buy): the values other screens read under the spec's keys, and the
 * shop state for /products. A different BIB than last time empties the cart.
 */
export function afterBibSearch(shop: ShopState, event: Pick<EventSummary, 'event_id' | 'event_name'>, result: BibSearchResult): ShopState {
  const previousBib = localStore.get(STORAGE_KEYS.bibId);
  const bibChanged = previousBib !== null && previousBib.toUpperCase() !== result.bibNumber.toUpperCase();
  localStore.set(STORAGE_KEYS.bibId, result.bibNumber);
  localStore.set(STORAGE_KEYS.selectedEvent, event.event_name);
  localStore.set(STORAGE_KEYS.selectedEventId, String(event.event_id));
  localStore.set(STORAGE_KEYS.eventId, String(event.event_id));
  localStore.set(STORAGE_KEYS.awsImageExpiry, result.awsImageExpary);
  localStore.set(STORAGE_KEYS.achievementsEligibility, JSON.stringify(result.achievementsEligibility));
  return {
    ...shop,
    eventId: result.eventId,
    eventName: result.eventName,
    bibNumber: result.bibNumber,
    searchKind: 'bib',
    products: result,
    cart: bibChanged ? [] : shop.cart,
  };
}
