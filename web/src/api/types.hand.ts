// Hand-written from docs/API.md until web/openapi.json is available.
// Once `npm run gen:api` has produced schema.gen.ts these become aliases of the generated schemas.

export type Role = 'owner' | 'admin' | 'user';
export type UserStatus = 'active' | 'pending';

export interface User {
  id: number;
  customer_id: number;
  name: string;
  email: string;
  role: Role;
  status: UserStatus;
  created_at: string;
}

export interface AuthResponse {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  user: User;
}

export interface SignupRequest {
  name: string;
  email: string;
  password: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface RefreshRequest {
  refresh_token: string;
}

export interface LogoutRequest {
  refresh_token: string;
}

export interface FeatureFlags {
  oldCostDashboard: boolean;
  newCostDashboard: boolean;
  IAMTab: boolean;
  ComplianceTab: boolean;
  DiscoverJobTrigger: boolean;
  SnapshotSuccessTime: boolean;
  missionControlDashboard: boolean;
}

export interface PublicConfig {
  features: FeatureFlags;
  compliance_customer_ids: number[];
  support_email: string;
  documentation_url: string;
}

export interface Customer {
  id: number;
  name: string;
  trialEndDate?: string | null;
  Tier: number;
  EndTime?: number | null;
  Role: Role;
  EmailID: string;
  OwnerName: string;
  OwnerEmailID: string;
  is_demo: boolean;
}

export interface CloudAccount {
  id: number;
  provider: 'aws' | 'gcp' | 'azure';
  account_id: string;
  aws_account_id?: string | null;
  account_name: string;
  creation_time: string;
}

export interface InviteRequest {
  email: string;
  role: string;
}

export interface InviteResponse {
  user: User;
  invite_url: string;
  email_sent: boolean;
}

export interface UpdateUserRequest {
  name?: string | null;
  role?: string | null;
}

export interface MessageResponse {
  message: string;
}

export interface ErrorBody {
  message: string;
  details?: Record<string, unknown> | null;
}

export interface InvitationInfo {
  email: string;
  customer_name: string;
  invited_by: string;
}

export interface AcceptInvitationRequest {
  name: string;
  password: string;
}
