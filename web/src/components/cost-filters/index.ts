export { AppliedFilterChips, type AppliedFilterChipsProps } from './applied-filter-chips';
export { FiltersButton, type FiltersButtonProps } from './filters-button';
export { FilterPanel, type FilterPanelProps } from './filter-panel';
export { TagKeyInput, type TagKeyInputProps } from './tag-key-input';
export { ValuesInput, type ValuesInputProps } from './values-input';
