import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { App } from 'antd';
import { discoveryApi, isApiError, shopAtom, STORAGE_KEYS, type EventSummary } from '@finishline/shared';
import { rememberSearchExpiry } from '../../session/searchSession';
import { SELFIE_INVALID, SELFIE_REDIRECT_MS } from '../selfieRules';


/**
 * Search by selfie (storefront spec section 4): the image goes to the server, which finds the face
 * and the event's photos with it. Photos found: the result fills the shop store like a BIB search
 * (bib 'selfie'), a success message shows and /searchbyselfie opens after 1 second. No face, no
 * photos or a refused image: the server's Message as a warning; anything else: 'Invalid'.
 */
export function useSelfieSearch(event: EventSummary) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [shop, setShop] = useAtom(shopAtom);
  const [searching, setSearching] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const search = useCallback(
    async (selfieDataUrl: string): Promise<boolean> => {
      setSearching(true);
      try {
        const answer = await discoveryApi.searchBySelfie({
          eventID: event.event_id,
          selfieimg: selfieDataUrl,
          sessionToken: localStorage.getItem(STORAGE_KEYS.sessionToken) ?? undefined,
        });
        const result = answer.result;
        if (result.photo.length === 0) {
          message.warning(answer.message);
          return false;
        }
        const bibChanged = shop.bibNumber !== null && shop.bibNumber !== result.bibNumber;
        localStorage.setItem(STORAGE_KEYS.bibId, result.bibNumber);
        localStorage.setItem(STORAGE_KEYS.selectedEvent, event.event_name);
        localStorage.setItem(STORAGE_KEYS.selectedEventId, String(event.event_id));
        localStorage.setItem(STORAGE_KEYS.eventId, String(event.event_id));
        localStorage.removeItem(STORAGE_KEYS.isUnlabeled);
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
        return true;
      } catch (error) {
        if (isApiError(error) && !error.isNetworkError) message.warning(error.message);
        else message.warning(SELFIE_INVALID);
        return false;
      } finally {
        setSearching(false);
      }
    },
    [event, message, navigate, setShop, shop],
  );

  return { search, searching };
}
