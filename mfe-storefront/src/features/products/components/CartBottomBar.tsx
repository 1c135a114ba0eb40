import { Button } from 'antd';
import type { CartCounts } from '@finishline/shared';
import '../products.css';

export function cartSummaryText(c: CartCounts): string {
  return `You have ${c.images} Image(s) / ${c.videos} Video(s) / ${c.prints} Print(s) / ${c.collages} Collage(s)`;
}

/** The unlabeled photos' sentence (spec): they have no videos. */
export function unlabeledCartSummaryText(c: CartCounts): string {
  return `You have ${c.images} Image(s) / ${c.prints} Print(s) / ${c.collages} Collage(s)`;
}

/** The same counts for a phone's single line: only what the cart holds ('2 Image(s) / 1 Video(s)'). */
export function cartSummaryShort(c: CartCounts): string {
  const parts: Array<[number, string]> = [
    [c.images, 'Image(s)'],
    [c.videos, 'Video(s)'],
    [c.prints, 'Print(s)'],
    [c.collages, 'Collage(s)'],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, label]) => `${n} ${label}`)
    .join(' / ');
}

export const cartItemTotal = (c: CartCounts) => c.images + c.videos + c.prints + c.collages;

interface CartBottomBarProps {
  counts: CartCounts;
  total: number | null;
  onProceed: () => void;
  /** The spec's sentence for wider screens (the unlabeled page's has no videos). */
  sentence?: string;
  /** The button's spec wording ('Proceed to Checkout' on the unlabeled page). */
  proceedLabel?: string;
}

/**
 * Fixed bottom bar with the cart counts, the bill's total and 'Proceed to checkout', shown only while
 * the cart holds something (so checkout never leads to an empty cart). On one line: a phone shows the
 * counts of what is in the cart, wider screens the spec's full sentence. The photos page and the
 * unlabeled photos share it.
 */
export function CartBottomBar({ counts, total, onProceed, sentence = cartSummaryText(counts), proceedLabel = 'Proceed to checkout' }: CartBottomBarProps) {
  if (cartItemTotal(counts) === 0) return null;
  return (
    <div className="fl-bottom-bar" data-testid="cart-bottom-bar" role="region" aria-label="Your cart">
      <span className="fl-bottom-counts">
        <span className="fl-bottom-full">{sentence}</span>
        <span className="fl-bottom-short">{cartSummaryShort(counts)}</span>
      </span>
      {total !== null ? (
        <strong className="fl-bottom-total" data-testid="bottom-bar-total">
          ₹{total.toLocaleString('en-IN')}
        </strong>
      ) : null}
      <Button type="primary" onClick={onProceed}>
        {proceedLabel}
      </Button>
    </div>
  );
}
