import { Route } from 'react-router-dom';
import { NotAvailableYet } from '@finishline/shared/react';
import { UnauthorizedPage } from './UnauthorizedPage';
import { ErrorPage } from './ErrorPage';
import { EventsPage } from './EventsPage';

/** Screens a later issue builds: they say so instead of pretending to work. */
const NOT_BUILT_YET: Array<{ path: string; title: string }> = [
  { path: '/sign-in', title: 'Sign in' },
  { path: '/sign-up', title: 'Sign up' },
  { path: '/forgot-password', title: 'Forgot password' },
  { path: '/reset-password', title: 'Reset password' },
  { path: '/change-password', title: 'Change password' },
  { path: '/contact-us', title: 'Contact us' },
  { path: '/faqs', title: 'Frequently asked questions' },
  { path: '/terms-and-conditions', title: 'Terms and Conditions' },
  { path: '/privacypolicy', title: 'Privacy Policy' },
];

/** The shell's own pages, matched before any remote route. */
export const shellPageRoutes = [
  ...NOT_BUILT_YET.map((page) => <Route key={page.path} path={page.path} element={<NotAvailableYet title={page.title} />} />),
  <Route key="/unauthorizeduser" path="/unauthorizeduser" element={<UnauthorizedPage />} />,
  <Route key="/errorone" path="/errorone" element={<ErrorPage kind="404" />} />,
  <Route key="/errortwo" path="/errortwo" element={<ErrorPage kind="500" />} />,
  <Route key="/events" path="/events" element={<EventsPage />} />,
];
