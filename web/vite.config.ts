/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * MUI, emotion and their helpers in one chunk: every page behind sign-in needs them, and one
 * request instead of dozens of small shared chunks (a Table here, a Chip there) saves round trips
 * on a real network. The sign-in page does not use MUI and does not load it.
 */
const MUI = /[\\/]node_modules[\\/](@mui|@emotion|react-transition-group|stylis|hoist-non-react-statics|react-is|@popperjs|clsx|@babel[\\/]runtime)[\\/]/;

/** The chart library is fetched on its own, by the pages that draw a chart (components/cost). */
const CHARTS = /([\\/]node_modules[\\/](echarts|zrender|tslib)[\\/])|echarts-setup|spending-echarts/;
/** Code shared by the pages behind sign-in: the shell, shared components, helpers, vendors. */
const SHARED = /([\\/]src[\\/](app|components|lib|hooks|api)[\\/])|[\\/]node_modules[\\/]/;

type ModuleInfo = { isEntry: boolean; importedIds: readonly string[] } | null;
interface ChunkMeta {
  getModuleIds: () => IterableIterator<string>;
  getModuleInfo: (id: string) => ModuleInfo;
}

let entryGraph: Set<string> | undefined;
/** The modules the entry imports statically: they make the entry chunk (the sign-in page). */
function loadedWithEntry(meta: ChunkMeta): Set<string> {
  if (entryGraph) return entryGraph;
  const seen = new Set<string>();
  const queue = [...meta.getModuleIds()].filter((id) => meta.getModuleInfo(id)?.isEntry);
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(meta.getModuleInfo(id)?.importedIds ?? []));
  }
  entryGraph = seen;
  return seen;
}

/**
 * Three chunks behind sign-in instead of dozens: `mui`, `app` (the shared code) and each feature's
 * pages; a page then costs a handful of requests, which matters more than bytes on a link with
 * 40 ms of latency (docs/PERFORMANCE.md, "Speed over a real network").
 */
function manualChunks(id: string, meta: ChunkMeta): string | undefined {
  // Named, or a manual chunk would pull the entry's modules (React, the router) in with it.
  if (loadedWithEntry(meta).has(id)) return 'index';
  if (MUI.test(id)) return 'mui';
  if (CHARTS.test(id)) return undefined;
  return SHARED.test(id) ? 'app' : undefined;
}

const apiTarget = process.env.COSTSCOPE_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/v1': apiTarget,
      '/v2': apiTarget,
      // Only the API part of /tags: /tags itself is the SPA's Tags page.
      '/tags/standard': apiTarget,
      '/healthz': apiTarget,
      '/openapi.json': apiTarget,
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        manualChunks,
      },
    },
  },
  test: {
    globals: true,
    environment: 'jsdom',
    pool: 'threads',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 15_000,
  },
});
