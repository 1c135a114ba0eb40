import { Alert, Button } from 'antd';
import { ShoppingCartOutlined } from '@ant-design/icons';
import { useBuyPhotos } from '../api/useBuyPhotos';

interface BuyOfferProps {
  eventId: number;
  eventName: string;
  bibNumber: string;
  /** The words: the select step's (previews only) or the preview step's (no download before buying). */
  text: string;
}

/**
 * Where the session has no right to a BIB's own photos (not bought, no privacy OTP), the builder
 * works with watermarked previews and offers to buy them; the server refuses the certificate's upload.
 */
export function BuyOffer({ eventId, eventName, bibNumber, text }: BuyOfferProps) {
  const { buy, opening } = useBuyPhotos();
  return (
    <Alert
      type="warning"
      showIcon
      className="fl-cert-banner"
      data-testid="certificate-buy-offer"
      title={text}
      action={
        <Button
          type="primary"
          icon={<ShoppingCartOutlined />}
          loading={opening}
          onClick={() => void buy({ event_id: eventId, event_name: eventName }, bibNumber)}
        >
          Buy photos
        </Button>
      }
    />
  );
}
