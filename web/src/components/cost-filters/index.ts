export { AppliedFilterChips, type AppliedFilterChipsProps } from './applied-filter-chips';
export { FiltersButton, type FiltersButtonProps } from './filters-button';
export { FilterPanel, type FilterPanelProps } from './filter-panel';
