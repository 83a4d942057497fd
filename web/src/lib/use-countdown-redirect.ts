import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/** While `active`, counts down `ms` and then goes to `to`; answers the whole seconds left. */
export function useCountdownRedirect(active: boolean, ms: number, to: string): number {
  const navigate = useNavigate();
  const [left, setLeft] = useState(Math.ceil(ms / 1000));

  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    setLeft(Math.ceil(ms / 1000));
    const tick = setInterval(() => setLeft(Math.max(0, Math.ceil((ms - (Date.now() - started)) / 1000))), 250);
    const done = setTimeout(() => navigate(to), ms);
    return () => {
      clearInterval(tick);
      clearTimeout(done);
    };
  }, [active, ms, to, navigate]);

  return left;
}
