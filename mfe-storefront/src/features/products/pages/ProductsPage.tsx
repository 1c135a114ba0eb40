import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { Alert, App, Button, Empty, Tabs } from 'antd';
import {
  addAllPhotos,
  allPhotosInCart,
  cartCounts,
  cartRequestFromShop,
  computeBill,
  describePhoto,
  COLLAGE_MAX_PHOTOS,
  COLLAGE_RULE_MESSAGE,
  emptyCart,
  isInCart,
  shopAtom,
  toggleItem,
  type BibSearchResult,
  type Photo,
  type PrintProduct,
  isSearchSessionExpired,
  removeFirstPaint,
} from '@finishline/shared';
import { ExpiredSession, StartFromHome, useDocumentTitle } from '@finishline/shared/react';
import { MasonryGrid } from '../components/MasonryGrid';
import { PhotoCard } from '../components/PhotoCard';
import { PhotoCarousel } from '../components/PhotoCarousel';
import { PrintProductModal } from '../components/PrintProductModal';
import { VideoList } from '../components/VideoList';
import { CartBottomBar } from '../components/CartBottomBar';
import { useColumns } from '../hooks/useColumns';
import { printOptions, reservesPrintButtons, useMasterConfig } from '../hooks/useMasterConfig';
import { useRefreshProducts } from '../api/useRefreshProducts';
import { congratulationsText, photosTabText, priceInfoText, PRODUCTS_TEXT, videosTabText, waitingBehindCheckText } from '../productsText';
import '../products.css';

/** What the report feature gets from this page (features meet in App.tsx, not by importing each other). */
export interface ReportSlotProps {
  bibNumber: string;
  eventId: number;
  reportMode: boolean;
  onReportMode: (on: boolean) => void;
  selectedIds: number[];
  onRecorded: () => Promise<void>;
}

export interface ProductsPageProps {
  /** The privacy OTP drawer, shown while the server withholds the BIB's photos. */
  renderPrivacyCheck?: (products: BibSearchResult, onVerified: () => Promise<void>) => ReactNode;
  /** Report picture(s) / Back, Hide and Not Me. */
  renderReport?: (props: ReportSlotProps) => ReactNode;
}

/**
 * Photo selection (/products, /searchbyselfie): event header, price info, the congratulations
 * bar, actions, the masonry grid, carousel, print products, videos and the fixed cart bar.
 */
export function ProductsPage({ renderPrivacyCheck, renderReport }: ProductsPageProps) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [shop, setShop] = useAtom(shopAtom);
  const products = shop.products;
  const unlabeled = shop.searchKind === 'unlabeled';
  const [tab, setTab] = useState<'photos' | 'videos'>('photos');
  const [carouselIndex, setCarouselIndex] = useState<number | null>(null);
  const [printPhoto, setPrintPhoto] = useState<Photo | null>(null);
  const [reportMode, setReportMode] = useState(false);
  const [reported, setReported] = useState<number[]>([]);
  const columns = useColumns(unlabeled);
  const { config, settled: configSettled } = useMasterConfig();
  const refresh = useRefreshProducts();
  useDocumentTitle(products ? `${products.eventName} Select Photos` : 'Select Photos');

  const { printsAllowed, collagesAllowed } = printOptions(config, products?.eventId ?? 0, products?.printsDisabled);
  const reservePrintButtons = reservesPrintButtons(configSettled, products?.printsDisabled);
  const cart = shop.cart;
  const counts = useMemo(() => cartCounts(cart), [cart]);
  // The shared pricing rules the server bills by, so the bar's total matches the cart's bill.
  const cartTotal = useMemo(() => {
    const request = cartRequestFromShop(shop);
    if (!request || request.lines.length === 0 || !shop.products) return null;
    try {
      return computeBill({ cart: request, catalog: shop.products }).total_amount;
    } catch {
      return null;
    }
  }, [shop]);

  const toggleCart = useCallback((photo: Photo) => setShop((s) => toggleItem(s, photo, 'download')), [setShop]);
  const collagePhotos = counts.collages;
  const toggleCollage = useCallback(
    (photo: Photo) => {
      if (!isInCart(cart, photo.id, 'collage') && collagePhotos >= COLLAGE_MAX_PHOTOS) {
        message.warning(COLLAGE_RULE_MESSAGE);
        return;
      }
      setShop((s) => toggleItem(s, photo, 'collage'));
    },
    [cart, collagePhotos, setShop, message],
  );
  const toggleReport = useCallback((photo: Photo) => setReported((r) => (r.includes(photo.id) ? r.filter((id) => id !== photo.id) : [...r, photo.id])), []);
  const togglePrint = useCallback((photo: Photo, product: PrintProduct) => setShop((s) => toggleItem(s, photo, 'print', product)), [setShop]);

  const onVerified = useCallback(async () => {
    if (products) await refresh(products);
  }, [products, refresh]);

  // The page's early copy (the shell's page paints the top and the grid's first row from the kept
  // result) gives way to the grid's first photo (PhotoCard); when the page shows anything else, it goes now.
  const expired = !!products && isSearchSessionExpired(Date.now());
  const withheld = !!products && products.isPrivacyCheckEnabled && !products.isVerified;
  const showsGrid = !!products && !expired && !withheld && tab === 'photos' && products.photo.length > 0;
  useEffect(() => {
    if (!showsGrid) removeFirstPaint();
  }, [showsGrid]);

  if (!products) {
    return <StartFromHome title="Search for your photos first" subTitle="Choose your event and enter your BIB number on the home page." />;
  }

  if (expired) return <ExpiredSession />;

  const count = tab === 'photos' ? products.photo.length : products.video.length;
  // Behind the privacy check the lists are empty: the search still says how many wait there.
  const waiting = tab === 'photos' ? products.total_image_count : (products.total_video_count ?? 0);
  const allIn = allPhotosInCart(cart, products.photo);
  const cartRoute = unlabeled ? '/unlabeled-cart' : '/cart';

  return (
    <div className="fl-products">
      <header className="fl-products-head">
        {products.eventLogo ? <img className="fl-products-logo" src={products.eventLogo} alt={products.eventName} /> : null}
        <div>
          <h1 className="fl-products-title">{products.eventName}</h1>
          <div className="fl-products-prices" data-testid="price-info">
            {priceInfoText(products.priceInfo)}
          </div>
        </div>
      </header>
      <div className="fl-congrats" data-testid="congrats-bar">
        <span className="fl-bib">BIB {products.bibNumber}</span>
        <span>{withheld ? waitingBehindCheckText(waiting, tab) : congratulationsText(count, tab)}</span>
      </div>
      <div className="fl-product-actions">
        {renderReport && !unlabeled && shop.searchKind !== 'selfie'
          ? renderReport({
              bibNumber: products.bibNumber,
              eventId: products.eventId,
              reportMode,
              onReportMode: (on) => {
                setReportMode(on);
                setReported([]);
              },
              selectedIds: reported,
              onRecorded: async () => {
                setReported([]);
                await refresh(products);
              },
            })
          : null}
        <Button
          type={allIn ? 'default' : 'primary'}
          danger={allIn}
          disabled={products.photo.length === 0}
          onClick={() => setShop((s) => (allIn ? emptyCart(s) : addAllPhotos(s, products.photo)))}
        >
          {allIn ? PRODUCTS_TEXT.emptyCart : PRODUCTS_TEXT.addAll}
        </Button>
        {/* Only for a runner whose results complete an achievement (the BIB search's achievementsEligibility). */}
        {!unlabeled && products.achievementsEligibility?.certificate_eligible ? (
          <Button onClick={() => navigate('/eventcertificate', { state: { eventName: products.eventName, bibNumber: products.bibNumber } })}>
            {PRODUCTS_TEXT.certificate}
          </Button>
        ) : null}
      </div>
      {withheld ? (
        <>
          <Alert
            type="warning"
            showIcon
            title="These photos are private"
            description={`Enter the one-time password sent to ${products.participantExists[0]?.email1 ?? 'the runner'} to see them.`}
          />
          {renderPrivacyCheck?.(products, onVerified)}
        </>
      ) : null}
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'photos' | 'videos')}
        items={[
          {
            key: 'photos',
            label: photosTabText(products.photo.length),
            children: products.photo.length ? (
              <MasonryGrid
                photos={products.photo}
                columns={columns}
                renderCard={(photo, index) => (
                  <PhotoCard
                    key={photo.id}
                    photo={photo}
                    index={index}
                    description={describePhoto({
                      position: index + 1,
                      total: products.photo.length,
                      eventName: products.eventName,
                      bibNumber: photo.bibNumber,
                    })}
                    inCart={isInCart(cart, photo.id, 'download')}
                    inCollage={isInCart(cart, photo.id, 'collage')}
                    printsAllowed={printsAllowed}
                    collagesAllowed={collagesAllowed && !unlabeled}
                    reservePrints={reservePrintButtons}
                    reserveCollage={reservePrintButtons && !unlabeled}
                    reportMode={reportMode}
                    reportSelected={reported.includes(photo.id)}
                    onOpen={setCarouselIndex}
                    onToggleCart={toggleCart}
                    onOrderPrints={setPrintPhoto}
                    onToggleCollage={toggleCollage}
                    onToggleReport={toggleReport}
                  />
                )}
              />
            ) : (
              <Empty description="No photos in this section" />
            ),
          },
          ...(unlabeled
            ? []
            : [
                {
                  key: 'videos',
                  label: videosTabText(products.video.length),
                  children: products.video.length ? (
                    <VideoList videos={products.video} isAdded={(v) => isInCart(cart, v.id, 'download')} onToggleCart={toggleCart} />
                  ) : (
                    <Empty description="No videos in this section" />
                  ),
                },
              ]),
        ]}
      />
      <PhotoCarousel
        photos={products.photo}
        index={carouselIndex}
        onIndex={setCarouselIndex}
        onClose={() => setCarouselIndex(null)}
        isInCart={(p) => isInCart(cart, p.id, 'download')}
        onToggleCart={toggleCart}
        eventName={products.eventName}
      />
      {printsAllowed ? (
        <PrintProductModal
          photo={printPhoto}
          products={products.printProductInfo}
          gstPercent={products.priceInfo.gst_percent}
          isAdded={(p, product) => isInCart(cart, p.id, 'print', product.id)}
          onToggle={togglePrint}
          onClose={() => setPrintPhoto(null)}
        />
      ) : null}
      <CartBottomBar counts={counts} total={cartTotal} onProceed={() => navigate(cartRoute)} />
    </div>
  );
}
