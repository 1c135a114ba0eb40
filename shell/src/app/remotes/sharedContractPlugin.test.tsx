import { render, screen } from '@testing-library/react';
import { jest } from '@jest/globals';
import { contractMismatchOf, REMOTE_INCOMPATIBLE_TEXT, sharedContractPlugin } from './sharedContractPlugin';
import type { RemoteAppModule } from './federation';

// The message @module-federation/runtime-core 2.9.2 throws (utils/share.js) for a strictVersion singleton.
const UNSATISFIED =
  '[ Federation Runtime ]: Version 1.1.0 from shell of shared singleton module @finishline/shared/runtime does not satisfy the requirement of storefront which needs ^2.0.0)';

type ErrorHook = (args: { error: unknown; lifecycle: string }) => unknown;
const errorLoadRemote = sharedContractPlugin().errorLoadRemote as unknown as ErrorHook;

describe('shared contract fallback', () => {
  test('reads the runtime’s unsatisfied-singleton message', () => {
    expect(contractMismatchOf(new Error(UNSATISFIED))).toEqual({
      provided: '1.1.0',
      module: '@finishline/shared/runtime',
      remote: 'storefront',
      needs: '^2.0.0',
    });
    expect(contractMismatchOf(new Error('Failed to fetch'))).toBeNull();
  });

  test('a remote whose range the shell cannot meet renders the message in its outlet', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const fallback = errorLoadRemote({ error: new Error(UNSATISFIED), lifecycle: 'onLoad' }) as RemoteAppModule;
    const Fallback = fallback.default;
    render(<Fallback />);
    // antd's Result screen loads when first shown (StatusResult).
    expect(await screen.findByText(REMOTE_INCOMPATIBLE_TEXT, undefined, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByTestId('remote-incompatible').getAttribute('data-detail')).toBe(
      'storefront needs @finishline/shared/runtime ^2.0.0; this site provides 1.1.0',
    );
    spy.mockRestore();
  });

  test('other failures are left to the outlet’s error boundary (Retry)', () => {
    expect(errorLoadRemote({ error: new Error('Failed to fetch manifest'), lifecycle: 'onLoad' })).toBeUndefined();
    expect(errorLoadRemote({ error: new Error(UNSATISFIED), lifecycle: 'afterResolve' })).toBeUndefined();
  });
});
