import { describe, expect, test } from '@jest/globals';
import { DEFAULT_JOBS, inputsFingerprint, jobsFrom } from './build.mjs';
import { isQuietLogLine } from './start.mjs';

describe('how many builds run at once', () => {
  test('--jobs wins over BUILD_JOBS, which wins over the default', () => {
    expect(jobsFrom([], {})).toBe(DEFAULT_JOBS);
    expect(jobsFrom([], { BUILD_JOBS: '6' })).toBe(6);
    expect(jobsFrom(['--jobs', '1'], { BUILD_JOBS: '6' })).toBe(1);
    expect(() => jobsFrom(['--jobs', '0'], {})).toThrow('at least 1');
    expect(() => jobsFrom([], { BUILD_JOBS: 'many' })).toThrow('whole number');
  });
});

describe('what --changed compares', () => {
  test('a deployment fingerprint is stable, differs per deployment and follows the build environment', () => {
    const before = inputsFingerprint('storefront');
    expect(inputsFingerprint('storefront')).toBe(before);
    expect(inputsFingerprint('account')).not.toBe(before);
    process.env.BUILD_BANNER = 'another build';
    try {
      expect(inputsFingerprint('storefront')).not.toBe(before);
    } finally {
      delete process.env.BUILD_BANNER;
    }
  });
});

describe("what of the API's log reaches the terminal", () => {
  test('requests and notes stay in the log file; warnings, errors and plain lines show', () => {
    expect(isQuietLogLine('{"level":30,"msg":"incoming request"}')).toBe(true);
    expect(isQuietLogLine('{"level":40,"msg":"slow"}')).toBe(false);
    expect(isQuietLogLine('{"level":50,"msg":"failed"}')).toBe(false);
    expect(isQuietLogLine('seed: 100/803 rendered')).toBe(false);
    expect(isQuietLogLine('{not json')).toBe(false);
  });
});
