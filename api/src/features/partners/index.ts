// The partners feature's public entry: sealing a partner's bank account number and PAN (the demo seed stores real sealed values).
export { sealPartnerSecrets, sealContext } from './profiles';
