import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { App } from 'antd';
import { afterBibSearch, bibSearchRequestOf, eventsApi, isApiError, shopAtom } from '@finishline/shared';

export const BUY_FAILED = 'We could not open the photos of this BIB. Please try again.';

/**
 * The builder's offer to buy: the BIB's products page, reached as the storefront's BIB search reaches
 * it (the search answer in the shop state), where the Premium and Ultra Premium packages are offered.
 */
export function useBuyPhotos() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [shop, setShop] = useAtom(shopAtom);
  const [opening, setOpening] = useState(false);

  const buy = useCallback(
    async (event: { event_id: number; event_name: string }, bib: string) => {
      setOpening(true);
      try {
        const { result } = await eventsApi.searchByBib(bibSearchRequestOf(event, bib));
        setShop(afterBibSearch(shop, event, result));
        navigate('/products');
      } catch (error) {
        message.error(isApiError(error) && !error.isNetworkError ? error.message : BUY_FAILED);
      } finally {
        setOpening(false);
      }
    },
    [message, navigate, setShop, shop],
  );
  return { buy, opening };
}
