import { useEffect, useState } from 'react';

/** The current time, ticking every 30 s so relative times ("2 minutes ago") stay true. */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
