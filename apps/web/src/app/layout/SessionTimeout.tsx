import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { signOut } from '#src/features/account/sign-out';
import { api } from '#src/lib/http/client';
import { useSession } from '#src/lib/session/session-context';
import type { Warning } from './SessionWarning';

// The warning's window comes when a warning is due, not with every screen.
const SessionWarning = lazy(() => import('./SessionWarning').then((m) => ({ default: m.SessionWarning })));

/** How long before an idle or absolute end the console warns. */
export const IDLE_WARNING_MS = 2 * 60_000;
const END_WARNING_MS = 5 * 60_000;
/** While the user works without calling the server, the server hears of it this often. */
const KEEPALIVE_MS = 5 * 60_000;
const TICK_MS = 1000;
/** Shared by the console's tabs: working in one keeps the others signed in. */
const ACTIVITY_KEY = 'fg.lastActivity';
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

function sharedActivity(): number {
  return Number(window.localStorage.getItem(ACTIVITY_KEY)) || 0;
}

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/**
 * The sign-in's limits (ASVS V3.3.2, SESSION_IDLE_MINUTES and SESSION_MAX_HOURS): two
 * minutes before the console signs out an idle user it says so and offers to stay; five
 * minutes before the sign-in ends whatever happens, it says when. The server enforces both
 * on its own; idleness here is the user's (pointer, keys), since pages that refresh by
 * themselves keep calling the server.
 */
export function SessionTimeout() {
  const { session } = useSession().user;
  const [warning, setWarning] = useState<Warning | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const lastActivity = useRef(Date.now());
  const lastKeepalive = useRef(Date.now());
  const endDismissed = useRef(false);

  useEffect(() => {
    if (!session) return;
    const idleMs = session.idle_minutes * 60_000;
    const endsAt = Date.parse(session.expires_at);
    let written = 0;
    const active = () => {
      const at = Date.now();
      lastActivity.current = at;
      // Written at most every ten seconds: other tabs read it, nobody needs it sooner.
      if (at - written > 10_000) {
        written = at;
        window.localStorage.setItem(ACTIVITY_KEY, String(at));
      }
    };
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, active, { passive: true });

    const tick = () => {
      const at = Date.now();
      setNow(at);
      const last = Math.max(lastActivity.current, sharedActivity());
      if (at >= endsAt || at - last >= idleMs) {
        clearInterval(timer);
        void signOut(at >= endsAt ? 'ended' : 'idle');
        return;
      }
      if (last > lastKeepalive.current && at - lastKeepalive.current >= KEEPALIVE_MS) {
        lastKeepalive.current = at;
        void api.get('/user').catch(() => {});
      }
      if (at - last >= idleMs - IDLE_WARNING_MS) setWarning({ kind: 'idle', at: last + idleMs });
      else if (at >= endsAt - END_WARNING_MS && !endDismissed.current)
        setWarning({ kind: 'end', at: endsAt });
      else setWarning(null);
    };
    const timer = setInterval(tick, TICK_MS);
    return () => {
      clearInterval(timer);
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, active);
    };
  }, [session]);

  if (!session || !warning) return null;

  const stay = () => {
    lastActivity.current = Date.now();
    lastKeepalive.current = Date.now();
    window.localStorage.setItem(ACTIVITY_KEY, String(lastActivity.current));
    void api.get('/user').catch(() => {});
    setWarning(null);
  };
  const dismissEnd = () => {
    endDismissed.current = true;
    setWarning(null);
  };

  return (
    <Suspense fallback={null}>
      <SessionWarning
        warning={warning}
        left={clock(warning.at - now)}
        idleMinutes={session.idle_minutes}
        onStay={stay}
        onDismissEnd={dismissEnd}
      />
    </Suspense>
  );
}
