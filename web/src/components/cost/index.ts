export * from './chart-option';
export * from './chart-loader';
export * from './cost-chart';
export * from './cost-error-alert';
export * from './custom-range-dialog';
export * from './no-cost-data';
export * from './time-range-selector';
export * from './widget-boundary';
