export { releaseRoutes } from './routes';
export { watchCanaries, judgeCanary, RATES_WINDOW_MINUTES, type CanaryVerdict } from './canaryWatch';
export { storeClientReports, ratesSince, cleanRoute } from './clientReports';
