import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

export const INTEGRATIONS_PATH = '/settings/integrations';

/** While `active`, counts down `ms` and then goes to Cloud Accounts; answers the seconds left. */
export function useCountdownRedirect(active: boolean, ms: number): number {
  const navigate = useNavigate();
  const [left, setLeft] = useState(Math.ceil(ms / 1000));

  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    setLeft(Math.ceil(ms / 1000));
    const tick = setInterval(() => setLeft(Math.max(0, Math.ceil((ms - (Date.now() - started)) / 1000))), 250);
    const done = setTimeout(() => navigate(INTEGRATIONS_PATH), ms);
    return () => {
      clearInterval(tick);
      clearTimeout(done);
    };
  }, [active, ms, navigate]);

  return left;
}
