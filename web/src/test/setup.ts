import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Lazy routes load their chunk on first use: give async queries time on a busy 2-core machine.
configure({ asyncUtilTimeout: 5_000 });

// MUI's useMediaQuery: behave like a desktop-sized window.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string) => ({
    matches: /min-width/.test(query),
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  }),
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

afterEach(async () => {
  const { clearSession } = await import('@/api/session');
  clearSession();
});

// React reports state updates that land between Testing Library's async helpers (a fetch
// resolving while a test awaits user-event) as "not wrapped in act(...)". They are expected with
// TanStack Query and MUI transitions and would drown real problems in the CI log, so only that
// one message is dropped; every other console.error still prints.
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('not wrapped in act(')) return;
  consoleError(...args);
};
