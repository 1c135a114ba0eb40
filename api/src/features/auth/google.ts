import { OAuth2Client } from 'google-auth-library';

export interface GoogleIdentity {
  email: string;
  firstName: string;
  lastName: string;
}

const clients = new Map<string, OAuth2Client>();

/**
 * Verifies a Google ID token (signature with Google's published keys, audience = our client id,
 * issuer, expiry) and returns the verified identity, or null when anything is wrong.
 */
export async function verifyGoogleIdToken(clientId: string, idToken: string): Promise<GoogleIdentity | null> {
  let client = clients.get(clientId);
  if (!client) {
    client = new OAuth2Client({ clientId });
    clients.set(clientId, client);
  }
  try {
    const ticket = await client.verifyIdToken({ idToken, audience: clientId });
    const payload = ticket.getPayload();
    if (!payload?.email || payload.email_verified !== true) return null;
    const email = payload.email.toLowerCase();
    return {
      email,
      firstName: (payload.given_name ?? payload.name ?? email.split('@')[0]).slice(0, 60),
      lastName: (payload.family_name ?? '').slice(0, 60) || '-',
    };
  } catch {
    return null;
  }
}
