import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAtom } from 'jotai';
import { Alert, Button, Empty, Pagination, Skeleton, Tabs } from 'antd';
import {
  cartCounts,
  type CartCounts,
  describePhoto,
  isInCart,
  PHOTOS_PER_PAGE,
  shopAtom,
  STORAGE_KEYS,
  toggleItem,
  localStore,
  isSearchSessionExpired,
  UNLABELED_BIB,
} from '@finishline/shared';
import { DescribedImage, useDocumentTitle, ExpiredSession, StartFromHome } from '@finishline/shared/react';
import { useUnlabeledPage } from '../api/useUnlabeledPage';
import '../unlabeled.css';

export const NO_UNLABELED_IMAGES = 'No Images found for this run';

function storedEventId(): number | null {
  const raw = localStore.get(STORAGE_KEYS.selectedEventId) ?? localStore.get(STORAGE_KEYS.eventId);
  const id = raw ? Number(raw) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** The bottom bar with the counts and Proceed to Checkout, composed by the remote's App (it is the photos page's bar). */
export type CartBarSlot = (counts: CartCounts, onProceed: () => void) => ReactNode;

/**
 * Unlabeled photos of the chosen event (/unlabeled-events): one Photos tab, 50 photos a page from
 * the paginate call, Add To Cart per photo (no Collage here), and the bottom bar with the counts,
 * the bill's total and Proceed to Checkout to /unlabeled-cart while the cart holds something.
 */
export function UnlabeledPage({ renderCartBar }: { renderCartBar: CartBarSlot }) {
  const navigate = useNavigate();
  const [shop, setShop] = useAtom(shopAtom);
  const [eventId] = useState(storedEventId);
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [expired, setExpired] = useState(isSearchSessionExpired);
  const { data, error, loading } = useUnlabeledPage(expired ? null : eventId, page, attempt);
  const eventName = data?.eventName ?? localStore.get(STORAGE_KEYS.selectedEvent) ?? '';
  useDocumentTitle(`${eventName} Unlabeled Photos`.trim());

  // This cart is the unlabeled one: a cart of another BIB or event starts empty.
  useEffect(() => {
    if (!data) return;
    localStore.set(STORAGE_KEYS.bibId, UNLABELED_BIB);
    localStore.setFlag(STORAGE_KEYS.isUnlabeled, true);
    if (shop.bibNumber !== UNLABELED_BIB || shop.eventId !== data.eventId) {
      setShop({
        ...shop,
        eventId: data.eventId,
        eventName: data.eventName,
        bibNumber: UNLABELED_BIB,
        searchKind: 'unlabeled',
        products: null,
        cart: [],
        packageKind: null,
      });
    }
  }, [data]); // eslint-disable-line react-hooks/exhaustive-deps -- once per loaded page

  // The session may run out while the visitor browses.
  useEffect(() => {
    const timer = setInterval(() => setExpired(isSearchSessionExpired()), 30_000);
    return () => clearInterval(timer);
  }, []);

  if (expired) return <ExpiredSession />;
  if (eventId === null) {
    return <StartFromHome title="Choose an event first" />;
  }

  const counts = cartCounts(shop.bibNumber === UNLABELED_BIB ? shop.cart : []);
  const photos = data?.photos ?? [];
  const grid = error ? (
    <Alert
      type="error"
      showIcon
      title={error}
      action={
        <Button size="small" onClick={() => setAttempt(attempt + 1)}>
          Retry
        </Button>
      }
    />
  ) : loading && !data ? (
    <Skeleton active paragraph={{ rows: 8 }} />
  ) : photos.length === 0 ? (
    <Empty description={NO_UNLABELED_IMAGES}>
      <Link to="/home">Go to home page</Link>
    </Empty>
  ) : (
    <>
      <div className="fl-unlabeled-grid" data-testid="unlabeled-grid">
        {photos.map((photo, i) => {
          const added = isInCart(shop.cart, photo.id, 'download');
          return (
            <figure key={photo.id} className="fl-unlabeled-card" data-testid="unlabeled-photo">
              <DescribedImage
                src={photo.image}
                loading="lazy"
                description={describePhoto({
                  position: (page - 1) * PHOTOS_PER_PAGE + i + 1,
                  total: data?.pagination.total ?? photos.length,
                  eventName,
                  bibNumber: UNLABELED_BIB,
                })}
              />
              <figcaption>
                <span className="fl-unlabeled-id">{photo.imageid}</span>
                <Button size="small" type={added ? 'default' : 'primary'} onClick={() => setShop(toggleItem(shop, photo, 'download'))}>
                  {added ? 'Added' : 'Add To Cart'}
                </Button>
              </figcaption>
            </figure>
          );
        })}
      </div>
      {data && data.pagination.total > PHOTOS_PER_PAGE ? (
        <Pagination
          className="fl-unlabeled-pages"
          current={page}
          pageSize={PHOTOS_PER_PAGE}
          total={data.pagination.total}
          showSizeChanger={false}
          onChange={(next) => {
            setPage(next);
            window.scrollTo({ top: 0 });
          }}
        />
      ) : null}
    </>
  );

  return (
    <div className="fl-unlabeled">
      <header className="fl-unlabeled-head">
        {data?.eventLogo ? <img src={data.eventLogo} alt={eventName} className="fl-unlabeled-logo" /> : null}
        <div>
          <h1>{eventName}</h1>
          <p>Unlabeled photos{data ? ` · ${data.pagination.total} photos` : ''}</p>
        </div>
      </header>
      <Tabs items={[{ key: 'photos', label: 'Photos', children: grid }]} />
      {renderCartBar(counts, () => navigate('/unlabeled-cart'))}
    </div>
  );
}
