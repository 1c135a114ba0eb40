import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { App } from 'antd';
import {
  captchaNeededOf,
  discoveryApi,
  isApiError,
  SELFIE_MESSAGES,
  shopAtom,
  STORAGE_KEYS,
  type EventSummary,
  localStore,
  rememberSearchExpiry,
  type SelfieSearchRequest,
  type SeveralFacesResult,
} from '@finishline/shared';
import { SELFIE_INVALID, SELFIE_REDIRECT_MS } from '../selfieRules';

/**
 * What a search gave: photos (the page moves on), several faces to pick from, a captcha to solve
 * (this device searched many times), the notice to agree to again (its version changed), or nothing
 * (a warning showed).
 */
export type SelfieSearchOutcome =
  { kind: 'found' } | { kind: 'several'; choices: SeveralFacesResult } | { kind: 'captcha' } | { kind: 'consent' } | { kind: 'none' };

/**
 * Search by selfie (storefront spec section 4): the selfie (or, on-device, only its face descriptor)
 * goes to the server, which matches it with the event's photos. Photos found: the result fills the
 * shop store like a BIB search (bib 'selfie'), a success message shows and /searchbyselfie opens
 * after 1 second. Several faces: the runner picks one. No face, no photos or a refused image: the
 * server's Message as a warning; anything else: 'Invalid'.
 */
export function useSelfieSearch(event: EventSummary) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [shop, setShop] = useAtom(shopAtom);
  const [searching, setSearching] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const search = useCallback(
    async (query: Pick<SelfieSearchRequest, 'selfieimg' | 'embedding' | 'faceQuality' | 'faceBox' | 'gCaptchToken'>): Promise<SelfieSearchOutcome> => {
      setSearching(true);
      try {
        const answer = await discoveryApi.searchBySelfie({
          eventID: event.event_id,
          ...query,
          // The version of the notice this browser agreed to; the API refuses any other.
          consentVersion: localStore.get(STORAGE_KEYS.faceSearchConsent) ?? '',
          sessionToken: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
        });
        const result = answer.result;
        if (result.photo.length === 0) {
          message.warning(answer.message);
          return { kind: 'none' };
        }
        const bibChanged = shop.bibNumber !== null && shop.bibNumber !== result.bibNumber;
        localStore.set(STORAGE_KEYS.bibId, result.bibNumber);
        localStore.set(STORAGE_KEYS.selectedEvent, event.event_name);
        localStore.set(STORAGE_KEYS.selectedEventId, String(event.event_id));
        localStore.set(STORAGE_KEYS.eventId, String(event.event_id));
        localStore.remove(STORAGE_KEYS.isUnlabeled);
        rememberSearchExpiry(result.awsImageExpary);
        setShop({
          ...shop,
          eventId: result.eventId,
          eventName: result.eventName,
          bibNumber: result.bibNumber,
          searchKind: 'selfie',
          products: result,
          cart: bibChanged ? [] : shop.cart,
          packageKind: null,
        });
        message.success(`We found ${result.photo.length} photo(s) of you.`);
        timer.current = setTimeout(() => navigate('/searchbyselfie'), SELFIE_REDIRECT_MS);
        return { kind: 'found' };
      } catch (error) {
        if (isApiError(error) && error.statusCode === 409 && error.payload && typeof error.payload === 'object' && 'faces' in error.payload) {
          message.info(error.message);
          return { kind: 'several', choices: error.payload as SeveralFacesResult };
        }
        if (captchaNeededOf(error)) {
          message.info(SELFIE_MESSAGES.captchaNeeded);
          return { kind: 'captcha' };
        }
        if (isApiError(error) && error.message === SELFIE_MESSAGES.consentNeeded) {
          localStore.remove(STORAGE_KEYS.faceSearchConsent);
          message.info(error.message);
          return { kind: 'consent' };
        }
        if (isApiError(error) && !error.isNetworkError) message.warning(error.message);
        else message.warning(SELFIE_INVALID);
        return { kind: 'none' };
      } finally {
        setSearching(false);
      }
    },
    [event, message, navigate, setShop, shop],
  );

  return { search, searching };
}
