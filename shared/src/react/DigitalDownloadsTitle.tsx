import { useEffect, useRef, useState } from 'react';
import { Tooltip } from 'antd';

export const ULTRA_TOOLTIP_TEXT = "The photo and timed certificates are located in the 'certs' folder within the downloaded zip file.";
/** A touch has no hover: it shows the tooltip for this long. */
export const ULTRA_TOOLTIP_TOUCH_MS = 3000;

/**
 * The 'Digital Downloads' heading of the cart and of an order. With the ultra premium pack it
 * explains where the timed certificates are, on hover or for a few seconds after a touch.
 */
export function DigitalDownloadsTitle({ ultra }: { ultra: boolean }) {
  const [open, setOpen] = useState(false);
  const timer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  if (!ultra) return <span>Digital Downloads</span>;
  const touch = () => {
    setOpen(true);
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setOpen(false), ULTRA_TOOLTIP_TOUCH_MS);
  };
  return (
    <Tooltip title={ULTRA_TOOLTIP_TEXT} open={open} onOpenChange={setOpen}>
      <span onTouchStart={touch}>Digital Downloads</span>
    </Tooltip>
  );
}
