import { Route } from 'react-router-dom';
import { lazyPageWithAntdApp } from '@finishline/shared/react';

// Loaded when first shown: the forms, their validation and the captcha are not part of the shop's first load.
const SignInPage = lazyPageWithAntdApp(() => import('./pages/SignInPage'), 'SignInPage');
const SignUpPage = lazyPageWithAntdApp(() => import('./pages/SignUpPage'), 'SignUpPage');
const ForgotPasswordPage = lazyPageWithAntdApp(() => import('./pages/ForgotPasswordPage'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPageWithAntdApp(() => import('./pages/ResetPasswordPage'), 'ResetPasswordPage');
const ChangePasswordPage = lazyPageWithAntdApp(() => import('./pages/ChangePasswordPage'), 'ChangePasswordPage');
const VerifyEmailPage = lazyPageWithAntdApp(() => import('./pages/VerifyEmailPage'), 'VerifyEmailPage');

/** The account pages the shell renders itself. */
export const authRoutes = [
  <Route key="/sign-in" path="/sign-in" element={<SignInPage />} />,
  <Route key="/sign-up" path="/sign-up" element={<SignUpPage />} />,
  <Route key="/forgot-password" path="/forgot-password" element={<ForgotPasswordPage />} />,
  <Route key="/reset-password" path="/reset-password" element={<ResetPasswordPage />} />,
  <Route key="/change-password" path="/change-password" element={<ChangePasswordPage />} />,
  <Route key="/verify-email" path="/verify-email" element={<VerifyEmailPage />} />,
];
