import { Navigate, Route, Routes } from 'react-router';
import { NotFoundPage } from '@/components/not-found-page';
import { SettingsSection } from '@/features/settings';
import { useFeatureFlags } from '../feature-flags';
import { AppShell } from '../shell/app-shell';
import { AlreadySignedInPage } from './already-signed-in-page';
import { ComplianceGate, Gate, HomeRoute } from './gates';
import {
  AdvancedCostPage,
  AnomaliesPage,
  AnomalyDetailPage,
  AwsConnectPage,
  AzureConnectPage,
  BasicCostPage,
  BillingDataPage,
  BudgetDetailPage,
  BudgetsDashboardPage,
  BudgetWizardPage,
  CloudAccountsPage,
  CompliancePage,
  ComparePage,
  CostQueryPage,
  CurrencySettingsPage,
  DigestPage,
  CostTabsPage,
  CostVisualisationPage,
  GcpConnectPage,
  IamPage,
  InventoryPage,
  ManagedAccountsPage,
  NotificationsPage,
  SavedReportsPage,
  TagsPage,
  TeamsConnectPage,
  TeamsOAuthCallbackPage,
  UserManagementPage,
  WelcomePage,
} from './lazy-pages';

/** The routes of a signed-in user (spec 1 §2.1, spec 2 Settings area). */
export function AppRoutes() {
  const flags = useFeatureFlags();
  return (
    <Routes>
      <Route element={<AppShell />}>
        <Route index element={<HomeRoute />} />
        <Route path="dashboard" element={<HomeRoute />} />
        <Route path="welcome" element={<WelcomePage />} />
        <Route path="inventory" element={<InventoryPage />} />
        <Route path="tags" element={<TagsPage />} />
        <Route path="managed-accounts" element={<ManagedAccountsPage />} />
        <Route
          path="iam"
          element={
            <Gate when={flags.IAMTab}>
              <IamPage />
            </Gate>
          }
        />
        <Route
          path="compliance"
          element={
            <ComplianceGate>
              <CompliancePage />
            </ComplianceGate>
          }
        />
        <Route path="cost">
          <Route index element={flags.newCostDashboard ? <Navigate to="/cost/basic" replace /> : <NotFoundPage />} />
          <Route
            path="basic"
            element={
              <Gate when={flags.oldCostDashboard || flags.newCostDashboard}>
                {flags.newCostDashboard ? <CostTabsPage tab="basic" /> : <BasicCostPage />}
              </Gate>
            }
          />
          <Route
            path="advanced"
            element={
              flags.newCostDashboard ? (
                <CostTabsPage tab="advanced" advanced={<AdvancedCostPage embedded />} />
              ) : (
                <AdvancedCostPage />
              )
            }
          />
          <Route path="compare" element={<ComparePage />} />
          <Route path="query" element={<CostQueryPage />} />
          <Route path="analysis" element={<CostVisualisationPage />} />
          <Route
            path="saving"
            element={
              <Gate when={flags.newCostDashboard}>
                <CostTabsPage tab="saving" />
              </Gate>
            }
          />
          <Route
            path="report"
            element={
              <Gate when={flags.oldCostDashboard}>
                <SavedReportsPage />
              </Gate>
            }
          />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route path="budgets">
          <Route index element={<BudgetsDashboardPage />} />
          {/* Keys: going from an edit straight to a create starts a fresh wizard. */}
          <Route path="create" element={<BudgetWizardPage key="create" />} />
          <Route path="edit/:id" element={<BudgetWizardPage key="edit" />} />
          <Route path="view/:id" element={<BudgetDetailPage />} />
          <Route path="view/:id/details" element={<BudgetDetailPage />} />
          <Route path="view/:id/resources" element={<BudgetDetailPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route path="anomalies">
          <Route index element={<AnomaliesPage />} />
          <Route path=":id" element={<AnomalyDetailPage />} />
        </Route>
        <Route path="settings">
          <Route index element={<Navigate to="/settings/integrations" replace />} />
          <Route
            path="integrations"
            element={
              <SettingsSection pageName="Cloud Accounts">
                <CloudAccountsPage />
              </SettingsSection>
            }
          />
          <Route
            path="users"
            element={
              <SettingsSection pageName="User Management">
                <UserManagementPage />
              </SettingsSection>
            }
          />
          <Route
            path="billing-data"
            element={
              <SettingsSection pageName="Billing Data">
                <BillingDataPage />
              </SettingsSection>
            }
          />
          <Route
            path="currency"
            element={
              <SettingsSection pageName="Currency">
                <CurrencySettingsPage />
              </SettingsSection>
            }
          />
          <Route
            path="notifications"
            element={
              <SettingsSection pageName="Notifications">
                <NotificationsPage />
              </SettingsSection>
            }
          />
          <Route
            path="digest"
            element={
              <SettingsSection pageName="Digest">
                <DigestPage />
              </SettingsSection>
            }
          />
          <Route
            path="aws-connect"
            element={
              <SettingsSection pageName="Connect AWS">
                <AwsConnectPage />
              </SettingsSection>
            }
          />
          <Route
            path="gcp-connect"
            element={
              <SettingsSection pageName="Connect GCP">
                <GcpConnectPage />
              </SettingsSection>
            }
          />
          <Route
            path="azure-connect"
            element={
              <SettingsSection pageName="Connect Azure">
                <AzureConnectPage />
              </SettingsSection>
            }
          />
          <Route
            path="ms-teams-connect"
            element={
              <SettingsSection>
                <TeamsConnectPage />
              </SettingsSection>
            }
          />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route path="teams-oauth-callback" element={<TeamsOAuthCallbackPage />} />
        <Route path="invite/:token" element={<AlreadySignedInPage />} />
        <Route path="signup" element={<Navigate to="/" replace />} />
        <Route path="login" element={<Navigate to="/" replace />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
