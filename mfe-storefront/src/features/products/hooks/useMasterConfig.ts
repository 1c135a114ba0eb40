import { useEffect, useState } from 'react';
import { App } from 'antd';
import { eventsApi, STORAGE_KEYS, type MasterConfig } from '@finishline/shared';

export const MASTER_CONFIG_FAILED = 'Failed to retrieve master config';
export const PRINT_COUNTRY_CODE = '+91';

function storedConfig(): MasterConfig | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.config);
    return raw ? (JSON.parse(raw) as MasterConfig) : null;
  } catch {
    return null;
  }
}

/**
 * Master configuration (DISABLEPRINTS and the caller's country calling code, looked up by the
 * server), fetched once per page and stored under Config. Until it answers nothing print-related
 * is offered; the server refuses prints outside +91 either way.
 */
export function useMasterConfig(): MasterConfig | null {
  const { message } = App.useApp();
  const [config, setConfig] = useState<MasterConfig | null>(storedConfig);
  useEffect(() => {
    let alive = true;
    eventsApi
      .masterConfig()
      .then(({ result }) => {
        localStorage.setItem(STORAGE_KEYS.config, JSON.stringify(result));
        if (alive) setConfig(result);
      })
      .catch(() => {
        if (alive) message.error(MASTER_CONFIG_FAILED);
      });
    return () => {
      alive = false;
    };
  }, [message]);
  return config;
}

/** Prints: country code +91 and the event not on DISABLEPRINTS. Collages: not on DISABLEPRINTS. */
export function printOptions(config: MasterConfig | null, eventId: number, printsDisabledForEvent: boolean | undefined) {
  const disabled = Boolean(printsDisabledForEvent) || Boolean(config?.DISABLEPRINTS.includes(eventId));
  return {
    printsAllowed: config !== null && !disabled && config.country_calling_code === PRINT_COUNTRY_CODE,
    collagesAllowed: config !== null && !disabled,
  };
}
