import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { ordersApi, shopAtom } from '@finishline/shared';

const STYLE = `
@keyframes fl-marquee { from { transform: translateX(12px); } to { transform: translateX(-100%); } }
.fl-marquee { overflow: hidden; white-space: nowrap; background: #fff4e5; color: #8a4b00; font-size: 13px; padding: 4px 0; }
.fl-marquee span { display: inline-block; animation: fl-marquee 22s linear infinite; }
@media (prefers-reduced-motion: reduce) { .fl-marquee span { animation: none; padding-left: 12px; } }
`;

/**
 * The purchase-notification marquee, shown only when the server provides a notification. The text
 * starts in view and scrolls left, so the strip is never an empty bar while it enters.
 */
export function PurchaseMarquee() {
  const fromSearch = useAtomValue(shopAtom).products?.purchase_notification ?? null;
  const [fromServer, setFromServer] = useState<string | null>(null);

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
  if (!text) return null;
  return (
    <div className="fl-marquee" role="marquee" aria-live="off" data-testid="purchase-marquee">
      <style>{STYLE}</style>
      <span>{text}</span>
    </div>
  );
}
