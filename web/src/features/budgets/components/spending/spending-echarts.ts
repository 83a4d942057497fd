/**
 * The ECharts build of the Spending Trend: the shared cost chart's build (bars, lines, mark
 * lines…) plus the alert triangles (mark points) and the current-period band (mark area).
 * Loaded with a dynamic import() by `SpendingChart`, like the shared chart, never eagerly.
 */
import { MarkAreaComponent, MarkPointComponent } from 'echarts/components';
import { echarts } from '@/components/cost/echarts-setup';

echarts.use([MarkAreaComponent, MarkPointComponent]);

export { echarts };
