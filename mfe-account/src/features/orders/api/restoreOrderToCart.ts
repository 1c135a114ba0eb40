import { eventsApi, isPackId, ordersApi, packageKindOf, UNLABELED_BIB, type CartItem, type OrderDetail, type ShopState } from '@finishline/shared';

/**
 * Retry of a Pending order: its detail is fetched and its photos, videos, prints and collage are
 * loaded into the cart (one BIB). For a BIB order the BIB search is re-run so the products page and
 * the cart's prices are fresh; the ultra premium bundle sets the package flag to b.
 */
export async function restoreOrderToCart(orderRef: string, current: ShopState): Promise<{ shop: ShopState; route: string }> {
  const { result: order } = await ordersApi.myOrder(orderRef);
  const cart = cartItemsOf(order);
  const searchKind = order.cartInfo.searchKind ?? (order.unlabeled ? 'unlabeled' : 'bib');
  let products = current.products;
  if (searchKind === 'bib') {
    try {
      products = (await eventsApi.searchByBib({ eventID: order.eventID, eventName: order.eventName, bibNumber: order.bib_no, orderId: order.order_ref }))
        .result;
    } catch {
      products = null; // the cart still prices itself on the server
    }
  }
  const packageKind = isPackId(order.bundle) ? packageKindOf(order.bundle) : order.cartInfo.packageKind;
  const shop: ShopState = {
    ...current,
    eventId: order.eventID,
    eventName: order.eventName,
    bibNumber: order.unlabeled ? UNLABELED_BIB : order.bib_no,
    searchKind,
    products,
    cart,
    nextSeq: cart.length + 1,
    packageKind,
    sponsor: { appliedDiscount: order.cartInfo.discountedPhotoIds.length > 0, discountedPhoto: order.cartInfo.discountedPhotoIds },
  };
  return { shop, route: order.unlabeled ? '/unlabeled-cart' : '/cart' };
}

function cartItemsOf(order: OrderDetail): CartItem[] {
  const media = new Map([...order.photo, ...order.video].map((m) => [m.id, m]));
  const items: CartItem[] = [];
  let seq = 1;
  const bibNumber = order.unlabeled ? UNLABELED_BIB : order.bib_no;
  for (const line of order.cartInfo.lines) {
    if (line.category === 'pack' || typeof line.id !== 'number') continue;
    const found = media.get(line.id);
    const base = {
      imageid: found?.imageid ?? String(line.id),
      s3: found?.s3 ?? '',
      image: found?.image ?? '',
      bibNumber,
      status: 'Added' as const,
      seq: seq++,
    };
    if (line.type === 'collage') {
      for (const id of line.collagePhotoIds ?? []) {
        const photo = media.get(id);
        items.push({
          ...base,
          id,
          imageid: photo?.imageid ?? String(id),
          s3: photo?.s3 ?? '',
          image: photo?.image ?? '',
          type: 'collage',
          category: 'image',
          seq: seq++,
        });
      }
    } else if (line.type === 'print') {
      items.push({ ...base, id: line.id, type: 'print', category: 'image', printProductId: line.printProductId });
    } else {
      items.push({ ...base, id: line.id, type: 'download', category: line.category, ...(line.category === 'video' ? { videopath: found?.s3 } : {}) });
    }
  }
  return items;
}
