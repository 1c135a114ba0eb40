import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { arrivedPurchaseNotification, ordersApi, shopAtom } from '@finishline/shared';
import { usePrefersReducedMotion } from '@finishline/shared/react';

const STYLE = `
@keyframes fl-marquee { from { transform: translateX(12px); } to { transform: translateX(-100%); } }
.fl-marquee { display: flex; align-items: center; gap: 4px; background: #fff4e5; color: #8a4b00; font-size: 13px; }
.fl-marquee-track { flex: 1; min-width: 0; overflow: hidden; white-space: nowrap; padding: 4px 0; }
.fl-marquee-text { display: inline-block; animation: fl-marquee 22s linear infinite; }
.fl-marquee[data-moving='false'] .fl-marquee-text { animation-play-state: paused; }
.fl-marquee[data-motion='reduced'] .fl-marquee-track { white-space: normal; padding: 4px 12px; }
.fl-marquee[data-motion='reduced'] .fl-marquee-text { animation: none; }
.fl-marquee .fl-marquee-toggle { color: #8a4b00; font-size: 13px; }
`;

/**
 * The purchase-notification marquee, shown only when the server provides a notification (the latest
 * one, or the one the BIB search carried). The shell's page requests it before the JavaScript
 * (build/firstRoutePreload.mjs, on storefront pages): when that answer has arrived, the first render
 * shows the strip, so it does not push the page down 44 px when it comes.
 */
export function PurchaseMarquee() {
  const fromSearch = useAtomValue(shopAtom).products?.purchase_notification ?? null;
  const [fromServer, setFromServer] = useState<string | null>(() => arrivedPurchaseNotification() ?? null);

  useEffect(() => {
    let alive = true;
    ordersApi
      .purchaseNotification()
      .then((answer) => alive && setFromServer(answer.result.purchase_notification))
      .catch(() => undefined); // no notification is simply no marquee
    return () => {
      alive = false;
    };
  }, []);

  const text = fromServer || fromSearch;
  return text ? <MarqueeStrip text={text} /> : null;
}

/** Focus a keyboard gave (a tap or a click focuses the button too, without meaning "hold still"). */
function isKeyboardFocus(target: Element): boolean {
  try {
    return target.matches(':focus-visible');
  } catch {
    return true; // a browser without :focus-visible: any focus holds it still
  }
}

/**
 * The strip itself. The text starts in view and scrolls left, so the strip is never an empty bar
 * while it enters. It moves for longer than 5 seconds, so (WCAG 2.2.2) it stops while a mouse pointer
 * is over it or its button has keyboard focus, and a labelled Pause button stops it until Play; a visitor
 * who asked the system for less motion gets the text standing still (wrapped, whole) and no button.
 */
export function MarqueeStrip({ text }: { text: string }) {
  const reducedMotion = usePrefersReducedMotion();
  const [pausedByVisitor, setPausedByVisitor] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const moving = !reducedMotion && !pausedByVisitor && !hovered && !focused;
  return (
    <section
      className="fl-marquee"
      aria-label="Latest purchase"
      data-testid="purchase-marquee"
      data-motion={reducedMotion ? 'reduced' : 'full'}
      data-moving={moving}
      // A finger's tap is neither: on a phone, Play must start it again at once.
      onPointerEnter={(event) => event.pointerType === 'mouse' && setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={(event) => isKeyboardFocus(event.target) && setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <style>{STYLE}</style>
      <div className="fl-marquee-track" role="marquee" aria-live="off">
        <span className="fl-marquee-text" data-testid="purchase-marquee-text">
          {text}
        </span>
      </div>
      {reducedMotion ? null : (
        <button
          type="button"
          className="fl-btn fl-btn-text fl-btn-sm fl-marquee-toggle"
          aria-label={pausedByVisitor ? 'Play purchase news' : 'Pause purchase news'}
          onClick={() => setPausedByVisitor((paused) => !paused)}
        >
          <span aria-hidden="true">{pausedByVisitor ? '▶' : '❚❚'}</span>
          {pausedByVisitor ? 'Play' : 'Pause'}
        </button>
      )}
    </section>
  );
}
