import { STORAGE_KEYS } from '@/lib/cost';
import { rulesToFlatFilters } from '@/lib/cost-filters';
import type { AnalysisState } from '../types';
import { DEFAULT_STATE, withDimensions } from './analysis-state';
import { deleteReport, listSavedReports, loadReport, reportToState, saveReport } from './saved-reports';

const NOW = new Date('2026-11-23T09:30:00Z');

const state: AnalysisState = {
  period: { preset: 'custom', startDate: '2026-10-01', endDate: '2026-10-15' },
  viewType: 'weekly',
  grouping: withDimensions(DEFAULT_STATE.grouping, ['account', 'service']),
  inclusions: { ...DEFAULT_STATE.inclusions, Credit: true },
  filters: rulesToFlatFilters([{ id: 'r', provider: 'aws', conditions: [{ id: 'c', field: 'service', operator: 'equals', value: ['AmazonEC2'] }] }], NOW),
};

describe('saved reports', () => {
  it('saves a report with the §3 fields in browser storage, newest first', () => {
    const first = saveReport({ name: '  EC2 by account ', description: ' October ' }, state, NOW);
    expect(first).toMatchObject({
      name: 'EC2 by account',
      description: 'October',
      timeRange: { preset: 'custom', startDate: '2026-10-01', endDate: '2026-10-15' },
      filters: state.filters,
      groupBy: ['account', 'service'],
      viewType: 'weekly',
      displayType: 'currency',
      costInclusions: state.inclusions,
      savedAt: '2026-11-23T09:30:00.000Z',
    });
    const second = saveReport({ name: 'Everything' }, DEFAULT_STATE, new Date('2026-11-23T10:00:00Z'));
    expect(listSavedReports().map((r) => r.name)).toEqual(['Everything', 'EC2 by account']);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.savedReports)!)).toHaveLength(2);
    expect(second.description).toBe('');
  });

  it('needs a name', () => {
    expect(() => saveReport({ name: '   ' }, state, NOW)).toThrow('Report name is required');
    expect(listSavedReports()).toEqual([]);
  });

  it('loads a report back as the screen state, keeping the user’s sort and hierarchy', () => {
    const report = saveReport({ name: 'EC2' }, state, NOW);
    const current: AnalysisState = {
      ...DEFAULT_STATE,
      grouping: { ...DEFAULT_STATE.grouping, groupByHierarchy: false, sortConfig: { field: 'cost', direction: 'asc' } },
    };
    const loaded = reportToState(loadReport(report.id), current);
    expect(loaded).toEqual({
      ...state,
      grouping: { ...state.grouping, groupByHierarchy: false, sortConfig: { field: 'cost', direction: 'asc' } },
    });
  });

  it('says "Report not found" for a report that is not in storage', () => {
    const report = saveReport({ name: 'Gone soon' }, state, NOW);
    deleteReport(report.id);
    expect(listSavedReports()).toEqual([]);
    expect(() => loadReport(report.id)).toThrow('Report not found');
    expect(() => loadReport('never-saved')).toThrow('Report not found');
  });

  it('ignores unreadable storage', () => {
    localStorage.setItem(STORAGE_KEYS.savedReports, '{"not":"a list"}');
    expect(listSavedReports()).toEqual([]);
    localStorage.setItem(STORAGE_KEYS.savedReports, '[{"name":"no id"}]');
    expect(listSavedReports()).toEqual([]);
  });
});
