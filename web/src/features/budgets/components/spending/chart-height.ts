/** The Spending Trend chart's height (spec 2 §2: 300, 350 or 400 px by window width; §9 resize debounce). */
import { useEffect, useState } from 'react';

/** §9: the chart follows the window's width 150 ms after the last resize. */
export const RESIZE_DEBOUNCE_MS = 150;

/** 300 px under 768 px of width, 350 under 1024, else 400. */
export function chartHeightFor(width: number): number {
  if (width < 768) return 300;
  if (width < 1024) return 350;
  return 400;
}

/** The height for the window's current width, updated once resizing has paused. */
export function useResponsiveChartHeight(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setWidth(window.innerWidth), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return chartHeightFor(width);
}
