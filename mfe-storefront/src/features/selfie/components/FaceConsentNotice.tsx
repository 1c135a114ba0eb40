import { Button, Space, Typography } from 'antd';
import { FACE_CONSENT_POINTS, FACE_CONSENT_TITLE } from '../selfieRules';

/**
 * Notice and consent before the first selfie (India's DPDP Act asks for both before personal data
 * such as a face is used). Agreeing is remembered in this browser; the camera starts only after it.
 */
export function FaceConsentNotice({ onAgree, onCancel }: { onAgree: () => void; onCancel: () => void }) {
  return (
    <div className="fl-selfie-consent" data-testid="face-consent">
      <Typography.Title level={5}>{FACE_CONSENT_TITLE}</Typography.Title>
      <ul>
        {FACE_CONSENT_POINTS.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
      <Space wrap>
        <Button type="primary" onClick={onAgree}>
          I agree
        </Button>
        <Button onClick={onCancel}>Not now</Button>
      </Space>
    </div>
  );
}
