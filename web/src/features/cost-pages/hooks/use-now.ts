import { useState } from 'react';

/** The time the page was opened: every range of one page view is computed from the same instant. */
export function useNow(): Date {
  const [now] = useState(() => new Date());
  return now;
}
