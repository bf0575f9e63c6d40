import { useEffect, useState } from 'react';
import { useLiveEvents } from '../../../events/useLiveEvents.ts';
import { httpClient } from '../../../providers/httpClient.ts';
import { HISTORY_SIZE, type MonitorSnapshot } from './monitorTypes.ts';

/**
 * The monitor's readings (the controller; MonitorPage only renders): a first one from
 * `GET v1/system/monitor`, then one every 2 s from the live events, the last HISTORY_SIZE kept for the
 * charts. `isLive` once a second reading has come (the events are flowing).
 *
 * @example
 * const { latest, history, isLive, isError } = useMonitor();
 */
export function useMonitor() {
  const [history, setHistory] = useState<MonitorSnapshot[]>([]);
  const [isError, setIsError] = useState(false);
  const add = (snapshot: MonitorSnapshot) => setHistory((h) => [...h, snapshot].slice(-HISTORY_SIZE));
  useEffect(() => {
    let isActive = true;
    httpClient<MonitorSnapshot>('v1/system/monitor')
      .then((snapshot) => isActive && add(snapshot))
      .catch(() => isActive && setIsError(true));
    return () => {
      isActive = false;
    };
  }, []);
  useLiveEvents((event) => {
    if (event.type === 'monitor') add(event.data as MonitorSnapshot);
  });
  return { history, latest: history.at(-1), isLive: history.length > 1, isError };
}
