import { describe, expect, test } from '@jest/globals';
import { contentSecurityPolicy, originsFromList, s3MediaOrigin, securityHeaders, storageMediaOrigins } from './security-headers.mjs';

/** The policy as directive -> sources, so a test reads one directive at a time. */
function parse(policy) {
  return Object.fromEntries(
    policy.split('; ').map((directive) => {
      const [name, ...sources] = directive.split(' ');
      return [name, sources];
    }),
  );
}

const runtimeConfig = {
  apiBaseUrl: 'https://api.shop.example/',
  remotes: {
    storefront: 'https://storefront.shop.example/mf-manifest.json',
    account: 'https://cdn.shop.example/account/releases/1.2.0/mf-manifest.json',
  },
  googleClientId: null,
};

describe('the static servers’ Content-Security-Policy', () => {
  test('scripts from this origin and the remotes’ origins only; requests to the API and the remotes', () => {
    const policy = parse(contentSecurityPolicy({ runtimeConfig }));
    expect(policy['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", 'https://storefront.shop.example', 'https://cdn.shop.example']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.shop.example', 'https://storefront.shop.example', 'https://cdn.shop.example']);
    // Fonts a remote bundles (the certificate builder's) come from its origin.
    expect(policy['font-src']).toEqual(["'self'", 'data:', 'https://storefront.shop.example', 'https://cdn.shop.example']);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['frame-src']).toEqual(["'none'"]);
    // antd's inline styles and the captcha's Blob worker
    expect(policy['style-src']).toContain("'unsafe-inline'");
    expect(policy['worker-src']).toEqual(["'self'", 'blob:']);
    expect(policy['script-src']).not.toContain("'unsafe-inline'");
    expect(policy['script-src']).not.toContain("'unsafe-eval'");
  });

  test('the page’s own inline scripts by their hashes only', () => {
    const hash = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='";
    const policy = parse(contentSecurityPolicy({ runtimeConfig, scriptHashes: [hash] }));
    expect(policy['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", hash, 'https://storefront.shop.example', 'https://cdn.shop.example']);
    expect(policy['script-src']).not.toContain("'unsafe-inline'");
  });

  test('photos and videos from the API and the configured storage origins', () => {
    const policy = parse(contentSecurityPolicy({ runtimeConfig, mediaOrigins: ['https://photos.s3.ap-south-1.amazonaws.com'] }));
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://api.shop.example', 'https://photos.s3.ap-south-1.amazonaws.com']);
    expect(policy['media-src']).toEqual(["'self'", 'blob:', 'https://api.shop.example', 'https://photos.s3.ap-south-1.amazonaws.com']);
  });

  test('Google sign-in is allowed only when a client id is configured', () => {
    expect(contentSecurityPolicy({ runtimeConfig })).not.toContain('accounts.google.com');
    const policy = parse(contentSecurityPolicy({ runtimeConfig: { ...runtimeConfig, googleClientId: 'id.apps.googleusercontent.com' } }));
    for (const directive of ['script-src', 'style-src', 'connect-src', 'frame-src']) expect(policy[directive]).toContain('https://accounts.google.com');
  });

  test('without a runtime config a deployment may reach nothing but itself', () => {
    const policy = parse(contentSecurityPolicy({ runtimeConfig: null }));
    expect(policy['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
  });

  test('storage origins from MEDIA_ORIGINS and the S3 settings', () => {
    expect(originsFromList('https://a.example/photos, http://b.example:9000')).toEqual(['https://a.example', 'http://b.example:9000']);
    expect(() => originsFromList('javascript:alert(1)')).toThrow('Not an http(s) origin');
    expect(s3MediaOrigin({})).toBeNull();
    expect(s3MediaOrigin({ S3_BUCKET: 'photos', S3_REGION: 'eu-west-1' })).toBe('https://photos.s3.eu-west-1.amazonaws.com');
    expect(s3MediaOrigin({ S3_BUCKET: 'photos', S3_ENDPOINT: 'http://minio.local:9000/' })).toBe('http://minio.local:9000');
    expect(s3MediaOrigin({ S3_BUCKET: 'photos', S3_ENDPOINT: 'http://s3:9000', S3_PUBLIC_ENDPOINT: 'https://media.example/' })).toBe('https://media.example');
    expect(storageMediaOrigins({ S3_BUCKET: 'photos', S3_ENDPOINT: 'http://s3:9000', MEDIA_PUBLIC_URL: 'https://cdn.example/assets' })).toEqual([
      'http://s3:9000',
      'https://cdn.example',
    ]);
    expect(storageMediaOrigins({})).toEqual([]);
  });

  test('every answer also refuses sniffing and framing and sends a cross-origin referrer as the origin only', () => {
    expect(securityHeaders('default-src x')).toEqual({
      'Content-Security-Policy': 'default-src x',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Frame-Options': 'DENY',
    });
  });
});
