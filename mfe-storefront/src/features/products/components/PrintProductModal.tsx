import { Button, Modal } from 'antd';
import { printPriceWithGst, type Photo, type PrintProduct } from '@finishline/shared';

/** Print products of one photo (magnet, frame, mug, poster) with prices before and with GST. */
export function PrintProductModal({
  photo,
  products,
  isAdded,
  onToggle,
  onClose,
  gstPercent,
}: {
  photo: Photo | null;
  products: PrintProduct[];
  isAdded: (photo: Photo, product: PrintProduct) => boolean;
  onToggle: (photo: Photo, product: PrintProduct) => void;
  onClose: () => void;
  gstPercent: number;
}) {
  if (!photo) return null;
  return (
    <Modal open onCancel={onClose} footer={<Button onClick={onClose}>Done</Button>} title={`Order prints of photo ${photo.imageid}`} width={760}>
      <p className="fl-muted">Prints are delivered only inside India within 2 weeks; prices include shipping.</p>
      <div className="fl-print-grid" data-testid="print-products">
        {products.map((product) => {
          const added = isAdded(photo, product);
          return (
            <div className="fl-print-card" key={product.id}>
              {product.image ? <img src={product.image} alt={product.name} loading="lazy" /> : null}
              <strong>{product.name}</strong>
              <span>
                ₹{product.price} <span className="fl-muted">(₹{printPriceWithGst(product, gstPercent)} with GST)</span>
              </span>
              <Button type={added ? 'default' : 'primary'} onClick={() => onToggle(photo, product)} aria-label={`${added ? 'Remove' : 'Add'} ${product.name}`}>
                {added ? 'Added' : 'Add To Cart'}
              </Button>
            </div>
          );
        })}
      </div>
    </Modal>
  );
}
