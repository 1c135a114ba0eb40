import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { useLayoutEffect } from 'react';
import { removeFirstPaint, REMOTE_NAMES, type RemoteName } from '@finishline/shared';
import type { RemoteAppModule } from './federation';
import { StatusResult } from '../StatusResult';
import { reportRemote } from './errorReports';

export const REMOTE_INCOMPATIBLE_TEXT = 'This part of Finishline is being updated.';

/** What the federation runtime says when a strictVersion singleton cannot meet a remote's range. */
const UNSATISFIED_SINGLETON = /Version (\S*) from \S* of shared singleton module (\S+) does not satisfy the requirement of (\S+) which needs ([^)\s]+)/;

export interface ContractMismatch {
  provided: string;
  module: string;
  remote: string;
  needs: string;
}

export function contractMismatchOf(error: unknown): ContractMismatch | null {
  const match = UNSATISFIED_SINGLETON.exec(error instanceof Error ? error.message : String(error));
  return match ? { provided: match[1] || 'none', module: match[2], remote: match[3], needs: match[4] } : null;
}

/** Shown in the remote's outlet instead of a white screen or the remote running on a contract it was not built for. */
function incompatibleRemote({ provided, module, remote, needs }: ContractMismatch): RemoteAppModule {
  const RemoteIncompatible = () => {
    // The page's early hero must not cover the message.
    useLayoutEffect(removeFirstPaint, []);
    return (
      <StatusResult
        status="info"
        title={REMOTE_INCOMPATIBLE_TEXT}
        subTitle="Please try again later. The rest of the site still works."
        data-testid="remote-incompatible"
        data-remote-incompatible={remote}
        data-detail={`${remote} needs ${module} ${needs}; this site provides ${provided}`}
      />
    );
  };
  return { default: RemoteIncompatible };
}

/**
 * Federation runtime plugin of the shell: a remote whose declared range of a versioned singleton the
 * shell cannot meet (strictVersion makes the runtime throw) gets a clear message in its outlet; any
 * other loading failure keeps going to the outlet's error boundary (with Retry).
 */
export function sharedContractPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'finishline-shared-contract',
    errorLoadRemote({ error, lifecycle }) {
      const mismatch = lifecycle === 'onLoad' ? contractMismatchOf(error) : null;
      if (!mismatch) return undefined;
      const text = `Remote "${mismatch.remote}" needs ${mismatch.module} ${mismatch.needs}; the shell provides ${mismatch.provided}.`;
      console.error(text);
      if ((REMOTE_NAMES as readonly string[]).includes(mismatch.remote)) reportRemote('load', mismatch.remote as RemoteName, text);
      return incompatibleRemote(mismatch);
    },
  };
}
