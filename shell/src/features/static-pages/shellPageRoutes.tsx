import { Route } from 'react-router-dom';
import { lazyPageWithAntdApp } from '@finishline/shared/react';

// Each loaded when first shown: none of them is part of the shop's first load.
const UnauthorizedPage = lazyPageWithAntdApp(() => import('./UnauthorizedPage'), 'UnauthorizedPage');
const ErrorPage = lazyPageWithAntdApp(() => import('./ErrorPage'), 'ErrorPage');
const EventsPage = lazyPageWithAntdApp(() => import('./EventsPage'), 'EventsPage');
const FaqPage = lazyPageWithAntdApp(() => import('./FaqPage'), 'FaqPage');
const TermsPage = lazyPageWithAntdApp(() => import('./TermsPage'), 'TermsPage');
const PrivacyPolicyPage = lazyPageWithAntdApp(() => import('./PrivacyPolicyPage'), 'PrivacyPolicyPage');

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
