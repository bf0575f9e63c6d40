import Alert from '@mui/material/Alert';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import type { Identifier } from 'react-admin';
import { isLiveConnected, subscribeLiveStatus } from '../../events/eventStream.ts';
import { useLiveEvents } from '../../events/useLiveEvents.ts';
import { cachedProfile } from '../../providers/profile.ts';

/** How often an open form repeats that it is open (the server's presence lasts 45 s without it). */
const HEARTBEAT_MS = 20_000;
/** How long the first announcement waits for this tab's event stream to connect. */
const UNCONNECTED_MS = 5_000;

interface PresenceEvent {
  resource: string;
  id: string;
  state: 'editing' | 'left';
  user_id: string;
  name: string;
  ttl_seconds: number;
}

interface PresenceProvider {
  announcePresence(name: string, params: { id: Identifier; state: 'editing' | 'left' }): Promise<unknown>;
}

/**
 * On an edit page: says "<name> is editing this record" while someone else has the same record's edit form
 * open, over the live event stream (`presence` events, across servers), and tells the others the same about
 * this user: `editing` when the form opens and every 20 s, `left` when it closes. A presence without a
 * heartbeat lapses after its `ttl_seconds`.
 *
 * Nothing is stored on the server, so a form that opens learns of the forms already open by their answer:
 * the first `editing` is sent once this tab's event stream is connected (so the answers reach it), and a
 * form that hears `editing` from someone it did not know answers at once with its own. Each pair exchanges
 * at most three events; the heartbeat alone would leave the newcomer unaware for up to 20 s.
 *
 * @example
 * <PresenceNotice resource="gadgets" id={id} />
 */
export function PresenceNotice({ resource, id }: { resource: string; id: Identifier | undefined }) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const provider = useDataProvider() as unknown as PresenceProvider;
  // user id -> { name, until (ms) }; `known` mirrors it for the event handler (which answers newcomers).
  const [editors, setEditors] = useState<Record<string, { name: string; until: number }>>({});
  const known = useRef(editors);
  useEffect(() => {
    known.current = editors;
  }, [editors]);
  const [now, setNow] = useState(() => Date.now());

  const announce = useRef<(state: 'editing' | 'left') => void>(() => undefined);
  useEffect(() => {
    if (id === undefined) return undefined;
    const say = (state: 'editing' | 'left') =>
      void provider.announcePresence(resource, { id, state }).catch(() => undefined);
    announce.current = say;
    // A stream that does not connect soon (a server without events) must not keep this form unannounced.
    const fallback = setTimeout(() => say('editing'), isLiveConnected() ? 0 : UNCONNECTED_MS);
    // On (re)connecting: those already editing answer, and whoever missed this form while the stream was
    // down hears of it again.
    const stopStatus = subscribeLiveStatus((isConnected) => {
      if (!isConnected) return;
      clearTimeout(fallback);
      say('editing');
    });
    const timer = setInterval(() => say('editing'), HEARTBEAT_MS);
    return () => {
      stopStatus();
      clearTimeout(fallback);
      clearInterval(timer);
      announce.current = () => undefined;
      say('left');
    };
  }, [provider, resource, id]);

  // Lapsed presences disappear on their own: re-evaluate once a second while someone is shown.
  const hasEditors = Object.keys(editors).length > 0;
  useEffect(() => {
    if (!hasEditors) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [hasEditors]);

  useLiveEvents((event) => {
    if (event.type !== 'presence' || id === undefined) return;
    const p = event.data as PresenceEvent;
    if (p.resource !== resource || p.id !== String(id)) return;
    if (p.user_id === cachedProfile(queryClient)?.id) return;
    const seen = known.current[p.user_id];
    if (p.state === 'editing' && (!seen || seen.until <= Date.now())) announce.current('editing');
    setEditors((current) => {
      const next = { ...current };
      if (p.state === 'left') delete next[p.user_id];
      else next[p.user_id] = { name: p.name, until: Date.now() + p.ttl_seconds * 1000 };
      return next;
    });
    setNow(Date.now());
  });

  const names = Object.values(editors)
    .filter((e) => e.until > now)
    .map((e) => e.name);
  if (names.length === 0) return null;
  return (
    <Alert severity="info" role="status" sx={{ m: 2, mb: 0 }} data-testid="presence">
      {names.map((name) => translate('engine.versions.editing', { name })).join(' ')}
    </Alert>
  );
}
