import { Route } from 'react-router-dom';
import { lazyPageWithAntdApp } from '@finishline/shared/react';

// Loaded when first shown (its form, validation and captcha are not part of the shop's first load).
const ContactPage = lazyPageWithAntdApp(() => import('./pages/ContactPage'), 'ContactPage');

export const contactRoutes = [<Route key="/contact-us" path="/contact-us" element={<ContactPage />} />];
