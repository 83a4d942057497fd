export { ComparePage } from './components/compare-page';
