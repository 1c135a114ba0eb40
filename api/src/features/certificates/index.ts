// The certificates feature's public entry: a BIB's achievement eligibility (BIB search), the timed
// certificates of an ultra premium zip (downloads), and storing an achievement with its template and
// background (the demo seed).
export { achievementsEligibility, IN_ACTIVE_ACHIEVEMENT_SQL } from './eligibility';
export { timedCertificates, type CertificateImage } from './timed';
export { ensureFinisherCertificate, saveAchievement } from './admin';
export { renderBackground, STANDARD_ACCENT } from './render';
