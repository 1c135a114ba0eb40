import { Route } from 'react-router-dom';
import { UnauthorizedPage } from './UnauthorizedPage';
import { ErrorPage } from './ErrorPage';
import { EventsPage } from './EventsPage';
import { FaqPage } from './FaqPage';
import { TermsPage } from './TermsPage';
import { PrivacyPolicyPage } from './PrivacyPolicyPage';

/** The shell's static pages, matched before any remote route (the app adds the account and contact pages). */
export const shellPageRoutes = [
  <Route key="/faqs" path="/faqs" element={<FaqPage />} />,
  <Route key="/terms-and-conditions" path="/terms-and-conditions" element={<TermsPage />} />,
  <Route key="/privacypolicy" path="/privacypolicy" element={<PrivacyPolicyPage />} />,
  <Route key="/unauthorizeduser" path="/unauthorizeduser" element={<UnauthorizedPage />} />,
  <Route key="/errorone" path="/errorone" element={<ErrorPage kind="404" />} />,
  <Route key="/errortwo" path="/errortwo" element={<ErrorPage kind="500" />} />,
  <Route key="/events" path="/events" element={<EventsPage />} />,
];
