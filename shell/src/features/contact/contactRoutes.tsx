import { Route } from 'react-router-dom';
import { ContactPage } from './pages/ContactPage';

export const contactRoutes = [<Route key="/contact-us" path="/contact-us" element={<ContactPage />} />];
