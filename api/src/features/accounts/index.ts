// The accounts feature's public entry: what other features may use of users and sessions.
export { createSession, findSession, optionalUser, presentedToken, requireUser, resolveSession, revokeAllSessionsOf, revokeSession } from './sessions';
export { requireEventOrganiser, requireApprovedPartner, NOT_YOUR_EVENT_MESSAGE } from './eventRoles';
export { requireRole } from './sessions';
export { createUser, findUserByEmail, hashPassword, markEmailVerified, toUser, verifyPassword, type UserRow } from './users';
export { setRole, NO_ACCOUNT_MESSAGE, type GrantableRole, type RoleChangeBy } from './roles';
