import { useEffect, useRef, useState } from 'react';
import { useAtom } from 'jotai';
import { Button, Checkbox, Modal, Tag } from 'antd';
import { acceptSponsorOffer, shopAtom, STORAGE_KEYS, type SponsorOffer, localStore, withdrawSponsorOffer } from '@finishline/shared';

export const SPONSOR_CLOSE_DELAY_MS = 300;

/** '20%' for percent offers, '₹50' for flat ones. */
export function discountLabel(offer: SponsorOffer): string {
  return offer.discount_type === 'flat' ? `₹${offer.discount_amount}` : `${offer.discount_amount}%`;
}

export function sponsorBannerText(offer: SponsorOffer): string {
  return `Special sponsor offer ${offer.sponsor_name} ${discountLabel(offer)} Off on all digital downloads.`;
}

/** showModal is 'true' until the visitor closes the offer once (an absent flag counts as 'true'). */
function showModalFlag(): boolean {
  const value = localStore.get(STORAGE_KEYS.showModal);
  return value === null || value === 'true';
}

/**
 * The cart's sponsor banner and its modal. The modal opens when the cart has digital images, an
 * offer exists, the offer flag is set and showModal is 'true'. Ticking the box applies the offer to
 * the cart's photos (up to the BIB's cap) and closes after 300 ms; closing clears the application.
 * The spec's copy is kept with its spelling corrected ("Your are elegible", "Plese Check").
 */
export function SponsorBanner({ offer, available, hasDigitalImages }: { offer: SponsorOffer; available: boolean; hasDigitalImages: boolean }) {
  const [shop, setShop] = useAtom(shopAtom);
  const [flag, setFlag] = useState(showModalFlag);
  const timer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  const open = hasDigitalImages && available && flag;
  const applied = shop.sponsor.appliedDiscount;
  const covered = shop.sponsor.discountedPhoto.length;

  const setShowModal = (value: boolean) => {
    localStore.set(STORAGE_KEYS.showModal, String(value));
    setFlag(value);
  };
  const close = () => {
    setShowModal(false);
    setShop(withdrawSponsorOffer);
  };
  // One decision: ticking gives the cart's photos the discount at once (the bill follows), unticking withdraws it.
  const tick = (checked: boolean) => {
    setShop(checked ? acceptSponsorOffer : withdrawSponsorOffer);
    if (checked) {
      timer.current = window.setTimeout(() => {
        localStore.set(STORAGE_KEYS.showModal, 'false');
        setFlag(false);
      }, SPONSOR_CLOSE_DELAY_MS);
    }
  };

  return (
    <>
      {/* Once taken, the banner says so and offers the way back instead of a second Apply. */}
      <div className={`fl-sponsor-banner${applied ? ' fl-sponsor-applied' : ''}`} data-testid="sponsor-banner" data-applied={applied ? 'true' : 'false'}>
        <span>{sponsorBannerText(offer)}</span>
        {applied ? (
          <span className="fl-sponsor-state" role="status">
            <strong data-testid="sponsor-applied">
              ✓ Offer applied to {covered} photo{covered === 1 ? '' : 's'}
            </strong>
            <Button type="text" onClick={() => setShop(withdrawSponsorOffer)}>
              Remove offer
            </Button>
          </span>
        ) : (
          <Button type="primary" onClick={() => setShowModal(true)} disabled={!hasDigitalImages}>
            Apply
          </Button>
        )}
      </div>
      <Modal open={open} onCancel={close} footer={null} title={offer.sponsor_name} data-testid="sponsor-modal">
        <p>{offer.description}</p>
        <p>You are eligible for this Offer. Select an image for {discountLabel(offer)} Discount at the time of Order CheckOut</p>
        <Checkbox checked={shop.sponsor.appliedDiscount} onChange={(e) => tick(e.target.checked)}>
          Please Check to Avail this offer
        </Checkbox>
      </Modal>
    </>
  );
}

/** The removable coupon badge of the Digital Downloads heading: pressing it removes the discount. */
export function CouponBadge({ offer }: { offer: SponsorOffer }) {
  const [shop, setShop] = useAtom(shopAtom);
  if (!shop.sponsor.appliedDiscount) return null;
  return (
    <Tag
      // antd's green preset is 3.4:1; these are the same greens at AA contrast.
      style={{ color: '#135200', background: '#f6ffed', borderColor: '#b7eb8f' }}
      closable
      onClose={(e) => {
        e.preventDefault();
        setShop(withdrawSponsorOffer);
      }}
      data-testid="coupon-badge"
    >
      {offer.coupon_name} · {discountLabel(offer)} off
    </Tag>
  );
}

/**
 * Per-photo tick box for the discount, ticked already for the photos the accepted offer covers; it
 * moves the discount between photos and is disabled at max_orders_allowed unless already ticked.
 */
export function DiscountTick({ offer, photoId }: { offer: SponsorOffer; photoId: number }) {
  const [shop, setShop] = useAtom(shopAtom);
  if (!shop.sponsor.appliedDiscount) return null;
  const ticked = shop.sponsor.discountedPhoto.includes(photoId);
  const full = shop.sponsor.discountedPhoto.length >= offer.max_orders_allowed;
  return (
    <Checkbox
      checked={ticked}
      disabled={!ticked && full}
      onChange={(e) =>
        setShop((s) => ({
          ...s,
          sponsor: {
            ...s.sponsor,
            discountedPhoto: e.target.checked
              ? [...s.sponsor.discountedPhoto.filter((id) => id !== photoId), photoId]
              : s.sponsor.discountedPhoto.filter((id) => id !== photoId),
          },
        }))
      }
    >
      {discountLabel(offer)} off
    </Checkbox>
  );
}

export const sponsorUi = { Banner: SponsorBanner, Badge: CouponBadge, Tick: DiscountTick };
