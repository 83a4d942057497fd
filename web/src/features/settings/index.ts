export { SettingsSection, SETTINGS_PAGE_NAMES } from './components/settings-section';
