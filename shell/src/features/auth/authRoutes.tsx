import { Route } from 'react-router-dom';
import { SignInPage } from './pages/SignInPage';
import { SignUpPage } from './pages/SignUpPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { ChangePasswordPage } from './pages/ChangePasswordPage';

/** The account pages the shell renders itself. */
export const authRoutes = [
  <Route key="/sign-in" path="/sign-in" element={<SignInPage />} />,
  <Route key="/sign-up" path="/sign-up" element={<SignUpPage />} />,
  <Route key="/forgot-password" path="/forgot-password" element={<ForgotPasswordPage />} />,
  <Route key="/reset-password" path="/reset-password" element={<ResetPasswordPage />} />,
  <Route key="/change-password" path="/change-password" element={<ChangePasswordPage />} />,
];
