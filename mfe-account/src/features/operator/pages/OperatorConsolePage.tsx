import { useState } from 'react';
import { Navigate } from 'react-router-dom';
import { readLocalSession } from '@finishline/shared';
import { useAccessRefused, useDocumentTitle } from '@finishline/shared/react';
import { EventsSection } from '../components/EventsSection';
import { RequestsSection } from '../components/RequestsSection';
import { StaffRolesSection } from '../components/StaffRolesSection';

/**
 * /operator: the platform operator's console. Requests to list a race (approve, or decline with a
 * reason), staff roles by email, and every event with its state. Operators only: the server checks
 * every call, and anyone else who opens the page goes to /unauthorizeduser.
 */
export function OperatorConsolePage() {
  const session = readLocalSession();
  const refused = useAccessRefused('/operator');
  // Approving a request or changing a role can change an event's organisers: the table reads again.
  const [version, setVersion] = useState(0);
  useDocumentTitle('Operator Console');
  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/operator' }} />;
  const changed = () => setVersion((n) => n + 1);
  return (
    <div style={{ maxWidth: 1240, margin: '24px auto', padding: '0 16px' }} data-testid="operator-console">
      <h1 style={{ fontSize: 26 }}>Operator Console</h1>
      <RequestsSection refused={refused} onDecided={changed} />
      <StaffRolesSection refused={refused} onChanged={changed} />
      <EventsSection refused={refused} version={version} />
    </div>
  );
}
