export { NotificationsPage } from './components/notifications-page';
