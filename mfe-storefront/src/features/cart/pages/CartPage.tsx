import type { ComponentType, ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { Alert, Button, Input, Popconfirm, Radio, Result, Space } from 'antd';
import {
  addAllPhotos,
  allPhotosInCart,
  clearDigitalPhotos,
  describePhoto,
  packagesReachable,
  COLLAGE_CART_WARNING,
  COLLAGE_MIN_PHOTOS,
  collageIsIncomplete,
  COLLAGE_RULE_MESSAGE,
  collagePhotoCount,
  cartRequestFromShop,
  isSignedInValue,
  removeBySeq,
  removeCollage,
  shopAtom,
  STORAGE_KEYS,
  type CartItem,
  type CollageOrientation,
  type SponsorOffer,
  localStore,
  isSearchSessionExpired,
  UNLABELED_BIB,
  PACKAGES,
  packNameOf,
  packageOffers,
  type PackageOffer,
} from '@finishline/shared';
import { DescribedImage, DigitalDownloadsTitle, ExpiredSession, ResultHeading, returnHomeActions, useDocumentTitle } from '@finishline/shared/react';
import { useCartBill } from '../api/useCartBill';
import { BillSummary } from '../components/BillSummary';
import { CartSlideshow } from '../components/CartSlideshow';
import { CollagePreview } from '../components/CollagePreview';
import '../cart.css';

export const EMPTY_CART_TEXT = 'Your cart is empty';

/** The sponsor feature's parts, handed in by App.tsx (features do not import each other). */
export interface SponsorUi {
  Banner: ComponentType<{ offer: SponsorOffer; available: boolean; hasDigitalImages: boolean }>;
  Badge: ComponentType<{ offer: SponsorOffer }>;
  Tick: ComponentType<{ offer: SponsorOffer; photoId: number }>;
}

const thumb = (item: CartItem) => item.image || item.s3;

const rupees = (n: number) => `₹${n.toLocaleString('en-IN')}`;

/** What a package holds and what it saves (or costs more) against the photos chosen. */
export function packageSummary(pack: PackageOffer, chosenPhotos: number): string {
  const comparison =
    chosenPhotos === 0
      ? ''
      : pack.saving > 0
        ? ` Saves ${rupees(pack.saving)} against your ${chosenPhotos} photo${chosenPhotos === 1 ? '' : 's'} (${rupees(pack.photosPrice)}).`
        : ` Your ${chosenPhotos} photo${chosenPhotos === 1 ? '' : 's'} cost ${rupees(pack.photosPrice)} without it.`;
  const threshold = pack.applies ? '' : ` Applies from ${pack.threshold} photos.`;
  return `${pack.includes}.${comparison}${threshold}`;
}

/** A video or print line of the cart with its Remove button. */
function CartTile({ onRemove, children }: { onRemove: () => void; children: ReactNode }) {
  return (
    <div className="fl-cart-item">
      {children}
      <Button size="small" onClick={onRemove}>
        Remove
      </Button>
    </div>
  );
}

/** Cart (/cart) and unlabeled cart (/unlabeled-cart): every section, tile and message of the spec. */
export function CartPage({ unlabeled = false, sponsorUi }: { unlabeled?: boolean; sponsorUi?: SponsorUi }) {
  const navigate = useNavigate();
  const [shop, setShop] = useAtom(shopAtom);
  const bill = useCartBill(shop, unlabeled);
  const products = shop.products;
  useDocumentTitle(products ? `${products.eventName} Cart` : 'Cart');

  const cart = shop.cart;
  const images = cart.filter((i) => i.type === 'download' && i.category === 'image');
  const videos = cart.filter((i) => i.type === 'download' && i.category === 'video');
  const prints = cart.filter((i) => i.type === 'print');
  const collage = cart.filter((i) => i.type.startsWith('collage'));
  const describe = (kind: string, index: number, total: number) =>
    describePhoto({ kind, position: index + 1, total, eventName: products?.eventName, bibNumber: unlabeled ? 'unlabeled' : shop.bibNumber });
  const collageCount = collagePhotoCount(cart);
  const orientation: CollageOrientation = shop.collageOrientation ?? 'Vertical';
  const offer = !unlabeled ? (products?.sponsorOffer ?? null) : null;
  const addMoreRoute = unlabeled ? '/unlabeled-events' : shop.searchKind === 'selfie' ? '/searchbyselfie' : '/products';
  const shown = bill.server ?? bill.local;

  if (isSearchSessionExpired(Date.now(), { unlessPending: true })) return <ExpiredSession />;

  if (cart.length === 0) {
    const signedIn = isSignedInValue(localStore.get(STORAGE_KEYS.isSignedIn));
    return <Result status="info" title={<ResultHeading>{EMPTY_CART_TEXT}</ResultHeading>} extra={returnHomeActions(signedIn, navigate)} />;
  }

  const setOrientation = (value: CollageOrientation) => {
    localStore.set(STORAGE_KEYS.orientation, value);
    setShop((s) => ({ ...s, collageOrientation: value }));
  };
  const checkoutBlocked = collageIsIncomplete(cart) ? COLLAGE_RULE_MESSAGE : null;
  const proceed = () => {
    if (!bill.server) return;
    const state = { selectionType: shop.packageKind, price: bill.server.total_amount, printInstruction: shop.printInstruction ?? '' };
    const signedIn = isSignedInValue(localStore.get(STORAGE_KEYS.isSignedIn));
    localStore.setFlag(STORAGE_KEYS.isUnlabeled, unlabeled);
    navigate(signedIn ? '/UserOrderdetails' : '/checkoutPage-authentication', { state });
  };
  const ultra = shown?.appliedPackage === PACKAGES.b.id;
  const allIn = products ? allPhotosInCart(cart, products.photo) : false;
  const showPackages =
    !unlabeled && shop.searchKind === 'bib' && products && (products.show_prempack || products.show_ultrapack) && packagesReachable(products);

  return (
    <div className="fl-cart">
      <header className="fl-products-head">
        {products?.eventLogo ? <img className="fl-products-logo" src={products.eventLogo} alt={products.eventName} /> : null}
        <div>
          <h1 className="fl-products-title">{shop.eventName ?? products?.eventName}</h1>
          {products ? (
            <div className="fl-muted" data-testid="price-info">
              1 photo ₹{products.priceInfo.single_photo} · each extra ₹{products.priceInfo.extra_photo} · 5 or more ₹{products.priceInfo.five_or_more} (+
              {products.priceInfo.gst_percent}% GST) · BIB {unlabeled ? UNLABELED_BIB : shop.bibNumber}
            </div>
          ) : null}
        </div>
      </header>
      {offer && sponsorUi ? (
        <sponsorUi.Banner offer={offer} available={Boolean(products?.sponsorOfferAvailableFlag)} hasDigitalImages={images.length > 0} />
      ) : null}
      <div className="fl-cart-layout">
        <main className="fl-cart-main">
          <CartSlideshow images={cart.map(thumb).filter(Boolean)} />
          <section className="fl-cart-section" data-testid="digital-downloads">
            <h2>
              <DigitalDownloadsTitle ultra={ultra} /> {offer && sponsorUi ? <sponsorUi.Badge offer={offer} /> : null}
            </h2>
            {shown?.appliedPackage ? (
              <Alert type="success" showIcon title={`${packNameOf(shown.appliedPackage)} package applied to your ${images.length} photos`} />
            ) : null}
            <div className="fl-cart-grid">
              {images.map((item, i) => (
                <div className="fl-cart-item" key={`d${item.seq}`}>
                  <DescribedImage src={thumb(item)} description={describe('Photo', i, images.length)} loading="lazy" />
                  <span className="fl-muted">Photo ID: {item.imageid}</span>
                  {offer && sponsorUi && typeof item.id === 'number' ? <sponsorUi.Tick offer={offer} photoId={item.id} /> : null}
                  <Button size="small" onClick={() => setShop((s) => removeBySeq(s, item.seq ?? -1))}>
                    Remove
                  </Button>
                </div>
              ))}
              <button type="button" className="fl-tile" onClick={() => navigate(addMoreRoute)}>
                + Add more photos
              </button>
              {products && !unlabeled ? (
                <button type="button" className="fl-tile" disabled={allIn} onClick={() => setShop((s) => addAllPhotos(s, products.photo))}>
                  {allIn ? 'Added all to cart' : 'Add full package at discounted rates'}
                </button>
              ) : null}
            </div>
            {images.length > 0 ? (
              <div className="fl-cart-clear">
                {/* The destructive action is the quietest button on the page and asks first. */}
                <Popconfirm
                  title="Remove all photos from the cart?"
                  okText="Remove all"
                  cancelText="Keep them"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => setShop(clearDigitalPhotos)}
                >
                  <Button type="text" danger>
                    Clear All Photos
                  </Button>
                </Popconfirm>
              </div>
            ) : null}
            {showPackages && products ? (
              <div className="fl-packages" data-testid="packages">
                <strong id="package-choice">Package</strong>
                <Radio.Group
                  aria-labelledby="package-choice"
                  value={shop.packageKind ?? 'none'}
                  onChange={(e) => setShop((s) => ({ ...s, packageKind: e.target.value === 'none' ? null : e.target.value }))}
                >
                  <Radio value="none">Photos only</Radio>
                  {packageOffers(products, images.length).map((pack) => (
                    <Radio value={pack.kind} key={pack.kind}>
                      <span>
                        {pack.name} {rupees(pack.price)}
                      </span>
                      <span className="fl-package-detail" data-testid={`package-${pack.kind}`}>
                        {packageSummary(pack, images.length)}
                      </span>
                    </Radio>
                  ))}
                </Radio.Group>
                <span className="fl-muted">A package replaces the photo prices once {products.threshold_photo_count} or more photos are in the cart.</span>
              </div>
            ) : null}
          </section>
          {videos.length > 0 ? (
            <section className="fl-cart-section" data-testid="videos-section">
              <h2>Videos</h2>
              <div className="fl-cart-grid">
                {videos.map((item) => (
                  <CartTile key={`v${item.seq}`} onRemove={() => setShop((s) => removeBySeq(s, item.seq ?? -1))}>
                    <video src={item.videopath ?? item.s3} poster={item.image || undefined} preload="metadata" muted />
                    <span className="fl-muted">Video ID: {item.imageid}</span>
                  </CartTile>
                ))}
              </div>
            </section>
          ) : null}
          {prints.length > 0 ? (
            <section className="fl-cart-section" data-testid="prints-section">
              <h2>Prints</h2>
              <div className="fl-cart-grid">
                {prints.map((item, i) => (
                  <CartTile key={`p${item.seq}`} onRemove={() => setShop((s) => removeBySeq(s, item.seq ?? -1))}>
                    <DescribedImage src={thumb(item)} description={describe(item.productName ?? 'Print', i, prints.length)} loading="lazy" />
                    <span>{item.productName}</span>
                    <span className="fl-muted">₹{item.price} + GST</span>
                  </CartTile>
                ))}
              </div>
              <label className="fl-print-instructions">
                Print instructions
                <Input.TextArea
                  rows={2}
                  maxLength={500}
                  value={shop.printInstruction ?? ''}
                  placeholder="Anything we should know about your prints"
                  onChange={(e) => setShop((s) => ({ ...s, printInstruction: e.target.value }))}
                />
              </label>
              <p className="fl-muted">Prints are delivered only inside India within 2 weeks; prices include shipping.</p>
            </section>
          ) : null}
          {collage.length > 0 ? (
            <section className="fl-cart-section" data-testid="collage-section">
              <h2>Journey map collage</h2>
              <Radio.Group value={orientation} onChange={(e) => setOrientation(e.target.value as CollageOrientation)}>
                <Radio value="Vertical">Vertical (portrait 2ft x 3ft)</Radio>
                <Radio value="Horizontal">Horizontal (landscape 3ft x 2ft)</Radio>
              </Radio.Group>
              <div className="fl-cart-grid">
                {collage.map((item, i) => (
                  <div className="fl-cart-item" key={`c${item.seq}`}>
                    <DescribedImage src={thumb(item)} description={describe('Collage photo', i, collage.length)} loading="lazy" />
                    <span className="fl-muted">Photo ID: {item.imageid}</span>
                  </div>
                ))}
                <button type="button" className="fl-tile" onClick={() => navigate(addMoreRoute)}>
                  + Add more collages
                </button>
              </div>
              {collageCount < COLLAGE_MIN_PHOTOS ? <p className="fl-warning">{COLLAGE_CART_WARNING}</p> : null}
              <Space wrap>
                <CollagePreview request={cartRequestFromShop(shop)} orientation={orientation} disabled={collageCount < COLLAGE_MIN_PHOTOS} />
                <Button danger onClick={() => setShop(removeCollage)}>
                  Remove
                </Button>
              </Space>
            </section>
          ) : null}
        </main>
        <BillSummary bill={shown} fromServer={bill.server !== null} error={bill.error} onCheckout={proceed} checkoutBlocked={checkoutBlocked} />
      </div>
    </div>
  );
}
