import { useEffect, useState } from 'react';
import { App } from 'antd';
import { eventsApi, STORAGE_KEYS, type MasterConfig, localStore, printsDeliverableTo } from '@finishline/shared';

export const MASTER_CONFIG_FAILED = 'Failed to retrieve master config';

function storedConfig(): MasterConfig | null {
  return localStore.getJson<MasterConfig>(STORAGE_KEYS.config);
}

/**
 * Master configuration (DISABLEPRINTS and the caller's country calling code, looked up by the
 * server), fetched once per page and stored under Config. Until it answers nothing print-related
 * is offered; the server refuses prints outside +91 either way.
 */
export interface MasterConfigState {
  config: MasterConfig | null;
  /** False until the server has answered or failed (a stored config from an earlier visit counts as an answer). */
  settled: boolean;
}

export function useMasterConfig(): MasterConfigState {
  const { message } = App.useApp();
  const [config, setConfig] = useState<MasterConfig | null>(storedConfig);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let alive = true;
    eventsApi
      .masterConfig()
      .then(({ result }) => {
        localStore.setJson(STORAGE_KEYS.config, result);
        if (alive) setConfig(result);
      })
      .catch(() => {
        if (alive) {
          setFailed(true);
          message.error(MASTER_CONFIG_FAILED);
        }
      });
    return () => {
      alive = false;
    };
  }, [message]);
  return { config, settled: config !== null || failed };
}

/** Prints: country code +91 and the event not on DISABLEPRINTS. Collages: not on DISABLEPRINTS. */
export function printOptions(config: MasterConfig | null, eventId: number, printsDisabledForEvent: boolean | undefined) {
  const disabled = Boolean(printsDisabledForEvent) || Boolean(config?.DISABLEPRINTS.includes(eventId));
  return {
    printsAllowed: config !== null && !disabled && printsDeliverableTo(config.country_calling_code),
    collagesAllowed: config !== null && !disabled,
  };
}

/**
 * Whether a photo card keeps room for the print and collage buttons before the master config has
 * answered: most visitors get them (India, prints not switched off), so reserving their place keeps
 * the grid from moving when they appear. An event whose prints are off is known from the search.
 */
export function reservesPrintButtons(settled: boolean, printsDisabledForEvent: boolean | undefined): boolean {
  return !settled && !printsDisabledForEvent;
}
