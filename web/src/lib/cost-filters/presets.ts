import { STORAGE_KEYS } from '@/lib/cost';
import type { FilterLogic, FlatFilter } from './types';

/** Spec 1 §3 "Filter preset". */
export interface FilterPreset {
  id: string;
  name: string;
  description?: string;
  filters: FlatFilter[];
  logic: FilterLogic;
  module: string;
  created: string;
}

function isPreset(value: unknown): value is FilterPreset {
  if (!value || typeof value !== 'object') return false;
  const p = value as Partial<FilterPreset>;
  return typeof p.id === 'string' && typeof p.name === 'string' && Array.isArray(p.filters) && typeof p.module === 'string';
}

/** Every saved preset (all modules) from localStorage "filter_presets"; unreadable data gives none. */
export function readPresets(): FilterPreset[] {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEYS.filterPresets);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isPreset) : [];
  } catch {
    return [];
  }
}

export function writePresets(presets: FilterPreset[]): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.filterPresets, JSON.stringify(presets));
  } catch {
    // Storage full or unavailable: the presets stay in memory for this visit.
  }
}

/** Adds the preset, or replaces the one with its id (spec 1 §4). */
export function upsertPreset(presets: FilterPreset[], preset: FilterPreset): FilterPreset[] {
  const index = presets.findIndex((p) => p.id === preset.id);
  if (index === -1) return [...presets, preset];
  return presets.map((p, i) => (i === index ? preset : p));
}
