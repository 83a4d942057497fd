export { WelcomePage } from './components/welcome-page';
export { TrialBanner } from './components/trial-banner';
