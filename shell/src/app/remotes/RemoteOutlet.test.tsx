import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jest } from '@jest/globals';
import type { RemoteName } from '@finishline/shared';
import { RemoteOutlet, type RemoteLoader } from './RemoteOutlet';
import { REMOTE_FALLBACK_TEXT } from './RemoteErrorBoundary';

// The outlet retries before it gives up, and the fallback's picture is a file of its own: on a busy
// machine that takes longer than findByText's default second.
const FALLBACK_WAIT = { timeout: 15_000 };

function StorefrontStandIn() {
  return <p>storefront pages</p>;
}

describe('RemoteOutlet', () => {
  let consoleError: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    // React and the boundary log the caught failure; keep the test output readable.
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('shows the friendly fallback when the remote cannot be loaded, and Retry loads it again', async () => {
    const attempts: Array<[RemoteName, number]> = [];
    let reachable = false;
    const load: RemoteLoader = async (name, attempt) => {
      attempts.push([name, attempt]);
      if (!reachable) throw new Error('Failed to fetch mf-manifest.json');
      return { default: StorefrontStandIn };
    };

    render(<RemoteOutlet remote="storefront" load={load} />);
    expect(await screen.findByText(REMOTE_FALLBACK_TEXT, undefined, FALLBACK_WAIT)).toBeInTheDocument();
    expect(screen.queryByText('storefront pages')).not.toBeInTheDocument();

    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('storefront pages')).toBeInTheDocument();
    expect(screen.queryByText(REMOTE_FALLBACK_TEXT)).not.toBeInTheDocument();
    expect(attempts).toEqual([
      ['storefront', 0],
      ['storefront', 1],
    ]);
  });

  it('keeps showing the fallback while the remote stays down', async () => {
    const load: RemoteLoader = async () => {
      throw new Error('connection refused');
    };
    render(<RemoteOutlet remote="partner" load={load} />);
    expect(await screen.findByText(REMOTE_FALLBACK_TEXT, undefined, FALLBACK_WAIT)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(REMOTE_FALLBACK_TEXT, undefined, FALLBACK_WAIT)).toBeInTheDocument();
  });

  it('also catches a remote that crashes while rendering', async () => {
    function Broken(): never {
      throw new Error('render bug');
    }
    render(<RemoteOutlet remote="account" load={async () => ({ default: Broken })} />);
    expect(await screen.findByText(REMOTE_FALLBACK_TEXT, undefined, FALLBACK_WAIT)).toBeInTheDocument();
  });
});
