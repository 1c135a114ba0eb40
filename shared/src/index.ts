/**
 * Everything a browser deployment uses from shared. The run-time singletons come through the
 * package name `@finishline/shared/runtime` (shared once per tab by Module Federation); the rest is
 * pure code each deployment bundles (see runtime.ts and docs/architecture.md).
 */
export * from './pure';
export * from '@finishline/shared/runtime';
export * from './api/endpoints';
export * from './api/preloaded';
export * from './api/cartApi';
export * from './state/cartActions';
export * from './state/bibSearch';
export * from './api/authApi';
export * from './api/ordersApi';
export * from './api/discoveryApi';
export * from './api/organiserApi';
export * from './api/partnerApi';
export * from './api/fulfilmentApi';
export * from './api/operatorApi';
export * from './api/supplyApi';
export * from './api/captchaNeeded';
export * from './api/certificateApi';
