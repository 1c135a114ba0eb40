import { useState, type ComponentType, type ReactNode } from 'react';
import { DigitalDownloadsTitle } from '@finishline/shared/react';
import { Alert, Button, Tag } from 'antd';
import { PrintLineDelivery } from './PrintLineDelivery';
import { describePhoto, IMAGE_FAILED_TEXT, PACKAGES, PREBOOK_BIB, type OrderDetail, type PreauthParams } from '@finishline/shared';
import { CertificateSection } from './CertificateSection';

/** The downloads feature's parts, handed in by App.tsx (features do not import each other). */
export interface DownloadsUi {
  useDownloads: () => {
    processing: boolean;
    refusal: string | null;
    downloadZip: (t: { orderID: string; bibNumber: string; preauth?: PreauthParams | null }) => Promise<void>;
    downloadImage: (t: { orderID: string; bibNumber: string; preauth?: PreauthParams | null }, imageID: number) => Promise<void>;
  };
  Overlay: ComponentType;
}

function MediaImage({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <div className="fl-order-fallback">{IMAGE_FAILED_TEXT}</div>;
  return <img src={src} alt={alt} loading="lazy" onError={() => setFailed(true)} />;
}

/** One photo or video of the order, with its own Download button once the order is paid. */
function OrderItem({
  label,
  imageId,
  onDownload,
  children,
}: {
  label: 'Photo' | 'Video';
  imageId: string;
  onDownload: (() => void) | null;
  children: ReactNode;
}) {
  return (
    <figure className="fl-order-item">
      {children}
      <figcaption>
        <span className="fl-muted">
          {label} ID: {imageId}
        </span>
        {onDownload ? (
          <Button size="small" onClick={onDownload} aria-label={`Download ${label.toLowerCase()} ${imageId}`}>
            Download
          </Button>
        ) : null}
      </figcaption>
    </figure>
  );
}

/** An order's items with their download actions (order details and the pre-authorised page). */
export function OrderView({
  order,
  preauth,
  downloads,
  onChanged = () => undefined,
}: {
  order: OrderDetail;
  preauth: PreauthParams | null;
  downloads: DownloadsUi;
  onChanged?: () => void;
}) {
  const { processing, refusal, downloadZip, downloadImage } = downloads.useDownloads();
  const target = { orderID: order.order_ref, bibNumber: order.bib_no, preauth };
  const ultra = order.bundle === PACKAGES.b.id;
  const paid = order.status === 'Paid' || order.status === 'Downloaded';
  const prints = order.prints.filter((p) => p.type === 'print');
  const collages = order.prints.filter((p) => p.type === 'collage');

  return (
    <div className="fl-order" data-testid="order-view">
      {processing ? <downloads.Overlay /> : null}
      <header className="fl-order-head">
        {order.eventLogo ? <img className="fl-order-logo" src={order.eventLogo} alt={order.eventName} /> : null}
        <div>
          <h1>{order.eventName}</h1>
          <div className="fl-muted">
            Order {order.order_ref} · BIB {order.bib_no} · ₹{order.orderTotal_amount} (GST ₹{order.gst}) · <Tag>{order.status}</Tag>
          </div>
          {order.download_until ? (
            <div className="fl-muted">
              Downloads available until {new Date(order.download_until).toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric' })}
            </div>
          ) : null}
        </div>
      </header>
      {refusal ? <Alert type="warning" showIcon title={refusal} style={{ marginBottom: 16 }} /> : null}
      {order.is_preorder && order.bib_no === PREBOOK_BIB ? (
        <Alert
          type="info"
          showIcon
          title="This pre-order is not mapped to a BIB yet. Use 'Generate link' in your order history (or Pre-Booked Photos on the home page) after the race."
        />
      ) : null}
      <CertificateSection eventID={order.eventID} eventName={order.eventName} bibNumber={order.bib_no} paid={paid && order.bib_no !== PREBOOK_BIB} />

      {order.photo.length > 0 ? (
        <section className="fl-order-section">
          <h2>
            <DigitalDownloadsTitle ultra={ultra} />
          </h2>
          {paid ? (
            <Button type="primary" onClick={() => downloadZip(target)} data-testid="download-zip">
              Download all (zip)
            </Button>
          ) : null}
          <div className="fl-order-grid">
            {order.photo.map((p, i) => (
              <OrderItem key={p.id} label="Photo" imageId={p.imageid} onDownload={paid ? () => downloadImage(target, p.id) : null}>
                <MediaImage
                  src={p.image || p.s3}
                  alt={describePhoto({ position: i + 1, total: order.photo.length, eventName: order.eventName, bibNumber: order.bib_no })}
                />
              </OrderItem>
            ))}
          </div>
        </section>
      ) : null}

      {order.video.length > 0 ? (
        <section className="fl-order-section">
          <h2>Videos</h2>
          <div className="fl-order-grid">
            {order.video.map((v) => (
              <OrderItem key={v.id} label="Video" imageId={v.imageid} onDownload={paid ? () => downloadImage(target, v.id) : null}>
                <video src={v.s3} poster={v.image || undefined} controls preload="metadata" />
              </OrderItem>
            ))}
          </div>
        </section>
      ) : null}

      {prints.length > 0 ? (
        <section className="fl-order-section">
          <h2>Prints</h2>
          <div className="fl-order-grid">
            {prints.map((p, i) => (
              <figure key={`p${i}`} className="fl-order-item">
                {p.s3[0] ? (
                  <MediaImage
                    src={p.s3[0]}
                    alt={describePhoto({ kind: p.name, position: i + 1, total: prints.length, eventName: order.eventName, bibNumber: order.bib_no })}
                  />
                ) : null}
                <figcaption>{p.name}</figcaption>
              </figure>
            ))}
          </div>
          {order.print_instructions ? <p className="fl-muted">Print instructions: {order.print_instructions}</p> : null}
        </section>
      ) : null}

      {order.printLines.length > 0 ? (
        <section className="fl-order-section" data-testid="print-delivery">
          <h2>Delivery</h2>
          {order.shipping ? (
            <p className="fl-muted">
              Shipping to {order.shipping.address}, PIN code {order.shipping.pincode}
            </p>
          ) : null}
          <ul className="fl-order-deliveries">
            {order.printLines.map((line) => (
              <PrintLineDelivery key={line.id} orderRef={order.order_ref} line={line} onChanged={onChanged} />
            ))}
          </ul>
        </section>
      ) : null}

      {collages.length > 0 ? (
        <section className="fl-order-section">
          <h2>Collages</h2>
          {collages.map((c, i) => (
            <div key={`c${i}`} className="fl-order-collage">
              <strong>{c.name}</strong>
              <div className="fl-order-grid">
                {c.s3.map((src, j) => (
                  <figure key={j} className="fl-order-item">
                    <MediaImage
                      src={src}
                      alt={describePhoto({ kind: `${c.name} photo`, position: j + 1, total: c.s3.length, eventName: order.eventName, bibNumber: order.bib_no })}
                    />
                  </figure>
                ))}
              </div>
            </div>
          ))}
        </section>
      ) : null}
    </div>
  );
}
