export { CompliancePage, FindingsPage, FINDINGS_MESSAGES, FINDINGS_TEXT, IamPage } from './components/findings-page';
export type * from './types';
