import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Alert, Button, Empty, Result, Tabs } from 'antd';
import { shopAtom, STORAGE_KEYS } from '@finishline/shared';
import { useDocumentTitle } from '@finishline/shared/react';
import { PhotoGrid, VideoList } from '../components/PhotoGrid';
import '../products.css';

export const EXPIRED_SESSION_TEXT = 'Oops !!..Your search session is expired please serach again get the valid images';

export function congratulationsText(count: number): string {
  return `Congratulations. There are ${count} photos in this section`;
}

function searchExpired(): boolean {
  const expiry = localStorage.getItem(STORAGE_KEYS.awsImageExpiry);
  return expiry !== null && expiry !== '' && new Date(expiry).getTime() < Date.now();
}

/**
 * Photo selection after a BIB search (/products): event header, the congratulations bar and the
 * photos from their signed preview URLs, in Photos and Videos tabs. Cart actions, the OTP drawer
 * and reporting are later issues and are not shown rather than faked.
 */
export function ProductsPage() {
  const navigate = useNavigate();
  const shop = useAtomValue(shopAtom);
  const products = shop.products;
  const [tab, setTab] = useState<'photos' | 'videos'>('photos');
  useDocumentTitle(products ? `${products.eventName} Select Photos` : 'Select Photos');

  if (!products) {
    return (
      <Result
        status="info"
        title="Search for your photos first"
        subTitle="Choose your event and enter your BIB number on the home page."
        extra={<Button type="primary" onClick={() => navigate('/home')}>Home</Button>}
      />
    );
  }

  if (searchExpired()) {
    return (
      <Result
        status="warning"
        title={EXPIRED_SESSION_TEXT}
        extra={
          <Button
            type="primary"
            onClick={() => {
              localStorage.removeItem(STORAGE_KEYS.awsImageExpiry);
              navigate('/home');
            }}
          >
            Go back
          </Button>
        }
      />
    );
  }

  const withheld = products.isPrivacyCheckEnabled && !products.isVerified;
  const count = tab === 'photos' ? products.photo.length : products.video.length;

  return (
    <div className="fl-products">
      <header className="fl-products-head">
        {products.eventLogo ? <img className="fl-products-logo" src={products.eventLogo} alt={products.eventName} /> : null}
        <div>
          <h1 className="fl-products-title">{products.eventName}</h1>
          <div className="fl-products-prices">
            1 photo ₹{products.priceInfo.single_photo} · each extra ₹{products.priceInfo.extra_photo} · 5 or more ₹{products.priceInfo.five_or_more} (+{products.priceInfo.gst_percent}% GST)
          </div>
        </div>
      </header>
      {products.purchase_notification ? <Alert type="info" banner title={products.purchase_notification} /> : null}
      <div className="fl-congrats" data-testid="congrats-bar">
        <span className="fl-bib">BIB {products.bibNumber}</span>
        <span>{congratulationsText(count)}</span>
      </div>
      {withheld ? (
        <Alert
          type="warning"
          showIcon
          title="These photos are protected"
          description={`This event shows a runner's photos only after a one-time code sent to ${products.participantExists[0]?.email1 ?? 'the runner'} is confirmed. Code verification is not available yet.`}
        />
      ) : null}
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'photos' | 'videos')}
        items={[
          {
            key: 'photos',
            label: `Photos (${products.photo.length})`,
            children: products.photo.length ? <PhotoGrid photos={products.photo} /> : <Empty description="No photos in this section" />,
          },
          {
            key: 'videos',
            label: `Videos (${products.video.length})`,
            children: products.video.length ? <VideoList videos={products.video} /> : <Empty description="No videos in this section" />,
          },
        ]}
      />
    </div>
  );
}
