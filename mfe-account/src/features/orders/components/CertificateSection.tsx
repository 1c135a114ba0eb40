import { useNavigate } from 'react-router-dom';
import { Button } from 'antd';
import { useCertificateEligibility } from '../api/useCertificateEligibility';

/**
 * The order page's link to the race's certificate: shown when the race's results give the order's
 * BIB one (certificates on, an official time). The builder opens with the race and BIB filled in;
 * a certificate the runner already made in this session can be downloaded again.
 */
export function CertificateSection({ eventID, eventName, bibNumber, paid }: { eventID: number; eventName: string; bibNumber: string; paid: boolean }) {
  const navigate = useNavigate();
  const eligibility = useCertificateEligibility(eventID, bibNumber, paid);
  if (!eligibility?.certificate_eligible) return null;
  return (
    <section className="fl-order-section" data-testid="order-certificate">
      <h2>Certificate</h2>
      <p className="fl-muted">Your achievement certificate of {eventName}: your name, official time and a photo of your choice.</p>
      <div className="fl-order-actions">
        <Button type="primary" onClick={() => navigate('/eventcertificate', { state: { eventName, bibNumber } })}>
          Generate Certificate
        </Button>
        {eligibility.certificate_url ? (
          <Button href={eligibility.certificate_url} download>
            Download your certificate
          </Button>
        ) : null}
      </div>
    </section>
  );
}
