export { MissionControlPage } from './components/mission-control-page';
