// The partners feature's public entry: sealing a partner's bank account number and PAN (the demo seed
// stores real sealed values), and moving sealed values onto a new key (the admin command line).
export { sealPartnerSecrets, sealContext } from './profiles';
export { resealPartnerData, type ResealReport } from './resealing';
