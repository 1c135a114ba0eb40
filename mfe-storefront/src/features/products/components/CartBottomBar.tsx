import { Button } from 'antd';
import type { CartCounts } from '@finishline/shared';

export function cartSummaryText(c: CartCounts): string {
  return `You have ${c.images} Image(s) / ${c.videos} Video(s) / ${c.prints} Print(s) / ${c.collages} Collage(s)`;
}

/** Fixed bottom bar with the cart counts and 'Proceed to checkout'. */
export function CartBottomBar({ counts, onProceed }: { counts: CartCounts; onProceed: () => void }) {
  return (
    <div className="fl-bottom-bar" data-testid="cart-bottom-bar">
      <span>{cartSummaryText(counts)}</span>
      <Button type="primary" onClick={onProceed}>
        Proceed to checkout
      </Button>
    </div>
  );
}
