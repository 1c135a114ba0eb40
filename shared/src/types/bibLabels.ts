/**
 * Words that stand where a runner's BIB number would: one definition for the server, the browser and
 * the orders they write (stored lower case, unlike real BIBs, which are stored upper case).
 */
/** Photos no BIB could be read on: the unlabeled photos page, cart and order. */
export const UNLABELED_BIB = 'unlabeled';
/** Photos found by a selfie search, which may span several BIBs of the event. */
export const SELFIE_BIB = 'selfie';
/** A pre-order until its buyer maps it to a BIB after the race. */
export const PREBOOK_BIB = 'prebook';
