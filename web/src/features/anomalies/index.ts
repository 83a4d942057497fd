export { AnomaliesPage } from './components/anomalies-page';
export { AnomalyDetailPage } from './components/anomaly-detail-page';
