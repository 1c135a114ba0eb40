import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { App } from 'antd';
import {
  cartRequestFromShop,
  isApiError,
  ordersApi,
  shopAtom,
  STORAGE_KEYS,
  type CreateOrderRequest,
  localStore,
  storedIsdCode,
  printsDeliverableTo,
} from '@finishline/shared';

export const CREATE_ORDER_FAILED = 'Something went wrong while creating order.';

export type Buyer = Pick<CreateOrderRequest, 'name' | 'email' | 'phone_number'> & Partial<Pick<CreateOrderRequest, 'gender' | 'shipping_address' | 'pincode'>>;

/**
 * Sends create order with the shared cart (the server prices it) and continues: an amount of 0
 * stores the txnid and goes straight to order success; otherwise order confirmation posts to the
 * payment provider. A server Message is shown as a warning, anything else as the spec's text.
 */
export function usePlaceOrder(printInstruction: string) {
  const shop = useAtomValue(shopAtom);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [placing, setPlacing] = useState(false);

  const place = async (buyer: Buyer, extra: { captcha?: string; newUserFlg?: number } = {}): Promise<boolean> => {
    const cart = cartRequestFromShop(shop);
    if (!cart || cart.lines.length === 0) {
      message.warning('Your cart is empty', 3);
      return false;
    }
    setPlacing(true);
    try {
      const isdCode = storedIsdCode();
      const userId = Number(localStore.get(STORAGE_KEYS.userId));
      const { result } = await ordersApi.createOrder({
        ...buyer,
        ...extra,
        userID: Number.isFinite(userId) && userId > 0 ? userId : null,
        isdCode,
        print_instruction: printsDeliverableTo(isdCode) ? printInstruction : '',
        eventID: cart.eventId,
        bibNumber: cart.bibNumber,
        sponsorofferID: cart.sponsorofferID,
        cartInfo: { searchKind: cart.searchKind, packageKind: cart.packageKind, lines: cart.lines, discountedPhotoIds: cart.discountedPhotoIds },
      });
      localStore.set(STORAGE_KEYS.txnid, result.txnid);
      localStore.setFlag(STORAGE_KEYS.isUnlabeled, result.unlabeled);
      if (Number(result.amount) === 0) {
        navigate(`/ordersuccess?orderref=${encodeURIComponent(result.order_ref)}&txnid=${encodeURIComponent(result.txnid)}`);
      } else {
        navigate('/order-confirm', { state: { payment: result } });
      }
      return true;
    } catch (error) {
      if (isApiError(error) && error.kind === 'http' && error.statusCode < 500) message.warning(error.message, 3);
      else message.error(CREATE_ORDER_FAILED, 4);
      return false;
    } finally {
      setPlacing(false);
    }
  };
  return { place, placing };
}
