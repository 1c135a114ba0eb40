import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { App } from 'antd';
import { afterBibSearch, bibSearchRequestOf, eventsApi, isApiError, shopAtom, type BibSearchResult, type EventSummary } from '@finishline/shared';

export const SERVER_ERROR_TEXT = 'Server Error';

/** Photos and videos of the BIB on the server, including those a privacy check still withholds. */
function mediaCount(result: BibSearchResult): number {
  const images = Math.max(result.total_image_count ?? 0, result.photo.length);
  const videos = Math.max(result.total_video_count ?? 0, result.video.length);
  return images + videos;
}

/**
 * Search by BIB (storefront spec section 4): an empty value goes home; otherwise 'Processing...'
 * shows while the server searches; with photos the result goes to the shop store and the
 * visitor to /products, else the server's Message shows as a warning ('Server Error' when the
 * server cannot be reached). A different BIB than last time empties the cart.
 */
export function useBibSearch(event: EventSummary) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [shop, setShop] = useAtom(shopAtom);
  const [processing, setProcessing] = useState(false);

  const search = useCallback(
    async (rawBib: string) => {
      const bib = rawBib.trim();
      if (!bib) {
        navigate('/home');
        return;
      }
      setProcessing(true);
      try {
        const answer = await eventsApi.searchByBib(bibSearchRequestOf(event, bib));
        const result = answer.result;
        if (mediaCount(result) === 0) {
          message.warning(answer.message || 'No photos found for this BIB.');
          return;
        }
        setShop(afterBibSearch(shop, event, result));
        navigate('/products');
      } catch (error) {
        if (isApiError(error) && !error.isNetworkError) message.warning(error.message);
        else message.error(SERVER_ERROR_TEXT);
      } finally {
        setProcessing(false);
      }
    },
    [event, message, navigate, setShop, shop],
  );

  return { search, processing };
}
