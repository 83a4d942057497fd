export { ComingSoonPage, type ComingSoonPageProps } from './components/coming-soon-page';
