/** Mission Control's texts (spec 1 §2.10, §8). */
export const PAGE_TITLE = 'Mission Control';
export const PAGE_SUBTITLE = 'Your cloud spend at a glance';

export const DASHBOARD_ERROR = 'Failed to load dashboard data';
export const DASHBOARD_ERROR_FALLBACK = 'An unexpected error occurred while loading dashboard data';
export const CATEGORIES_ERROR = 'Failed to load service categories data';
export const BUDGETS_ERROR = 'Failed to load budget data';

export const NO_PROVIDER_DATA = 'No cloud provider data available';
export const NO_ACTIVE_BUDGETS = 'No active budgets found';
export const NO_CATEGORY_DATA = 'No service category data available for the selected period';
