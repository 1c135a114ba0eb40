import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context';
import { platformRoutes } from './platform/routes';
import { eventRoutes } from './events/routes';
import { searchRoutes } from './search/routes';
import { cartRoutes } from './cart/routes';
import { otpRoutes } from './otp/routes';
import { feedbackRoutes } from './feedback/routes';
import { faceRoutes } from './faces/routes';
import { discoveryRoutes } from './discovery/routes';
import { authRoutes } from './auth/routes';
import { contactRoutes } from './contact/routes';
import { devtoolsRoutes } from './devtools/routes';
import { orderRoutes } from './orders/routes';
import { paymentRoutes } from './payment/routes';
import { downloadRoutes } from './downloads/routes';
import { preorderRoutes } from './preorder/routes';
import { organiserRoutes } from './organiser/routes';
import { certificateRoutes, organiserCertificateRoutes } from './certificates/routes';
import { operatorRoutes } from './operator/routes';
import { partnerRoutes } from './partners/routes';
import { supplyRoutes } from './supply/routes';
import { fulfilmentRoutes } from './fulfilment/routes';
import { releaseRoutes } from './releases/routes';

export type Feature = FastifyPluginAsync<{ ctx: AppContext }>;

/** Every feature's routes. Each feature folder owns its routes, queries and rules. */
export const features: Feature[] = [
  platformRoutes,
  eventRoutes,
  searchRoutes,
  cartRoutes,
  otpRoutes,
  feedbackRoutes,
  faceRoutes,
  discoveryRoutes,
  authRoutes,
  contactRoutes,
  devtoolsRoutes,
  orderRoutes,
  paymentRoutes,
  downloadRoutes,
  preorderRoutes,
  organiserRoutes,
  certificateRoutes,
  organiserCertificateRoutes,
  operatorRoutes,
  partnerRoutes,
  supplyRoutes,
  fulfilmentRoutes,
  releaseRoutes,
];
