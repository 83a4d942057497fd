export { CloudAccountsPage } from './components/cloud-accounts-page';
export { AwsConnectPage } from './components/aws-connect-page';
export { GcpConnectPage } from './components/gcp-connect-page';
export { AzureConnectPage } from './components/azure-connect-page';
