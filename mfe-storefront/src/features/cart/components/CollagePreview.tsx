import { useEffect, useState } from 'react';
import { App as AntApp, Button, Modal, Spin } from 'antd';
import { cartApi, collagePreviewNote, isApiError, type CartRequest, type CollageOrientation } from '@finishline/shared';

/**
 * "Preview collage": the server draws the cart's journey-map collage as it will be printed (layout,
 * race, date, name and official time), small and from the watermarked photos, and the runner sees it
 * before paying. Each opening asks again, so a changed orientation or photo shows at once.
 */
export function CollagePreview({ request, orientation, disabled }: { request: CartRequest | null; orientation: CollageOrientation; disabled: boolean }) {
  const { message } = AntApp.useApp();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  // The object URL lives while the dialog shows it.
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  const show = async () => {
    if (!request) return;
    setLoading(true);
    try {
      const image = await cartApi.collagePreview(request);
      setUrl(URL.createObjectURL(image));
      setOpen(true);
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'We could not draw the preview of your collage. Please try again.');
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <Button onClick={show} loading={loading} disabled={disabled || !request}>
        Preview collage
      </Button>
      <Modal
        open={open}
        title="Your journey map collage"
        footer={null}
        onCancel={() => {
          setOpen(false);
          setUrl(null);
        }}
        width={orientation === 'Vertical' ? 520 : 760}
        destroyOnHidden
      >
        {url ? <img src={url} alt="Preview of your journey map collage" style={{ width: '100%', height: 'auto', display: 'block' }} /> : <Spin />}
        <p className="fl-muted" style={{ marginTop: 12 }}>
          {collagePreviewNote(orientation)}
        </p>
      </Modal>
    </>
  );
}
