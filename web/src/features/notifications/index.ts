export { NotificationsPage } from './components/notifications-page';
export { DigestPage } from './components/digest-page';
