import { useState } from 'react';
import { Button, Modal } from 'antd';
import { hasCookieConsent, storeCookieConsent } from './cookieConsent';

/** Spec: shown at first unless the stored cookie flag is 'true'; both Cancel and Accept Cookies store consent. */
export function CookieConsent() {
  const [open, setOpen] = useState(() => !hasCookieConsent());
  const consent = () => {
    storeCookieConsent();
    setOpen(false);
  };
  return (
    <Modal
      open={open}
      title="We use cookies"
      onCancel={consent}
      closable={false}
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={consent}>
          Cancel
        </Button>,
        <Button key="accept" type="primary" onClick={consent}>
          Accept Cookies
        </Button>,
      ]}
    >
      <p>
        Finishline stores a few values in your browser to keep you signed in and to remember your cart and your event. We use no advertising
        trackers. Read our <a href="/privacypolicy">Privacy Policy</a>.
      </p>
    </Modal>
  );
}
