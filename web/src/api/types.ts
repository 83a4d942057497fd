import type { components } from './schema.gen';

type Schemas = components['schemas'];

export type User = Schemas['User'];
export type Role = Schemas['Role'];
export type UserStatus = Schemas['UserStatus'];
/** The refresh token is an HttpOnly cookie, never in the body. */
export type AuthResponse = Schemas['AuthResponse'];
export type SignupRequest = Schemas['SignupRequest'];
export type LoginRequest = Schemas['LoginRequest'];
export type RefreshRequest = Schemas['RefreshRequest'];
export type LogoutRequest = Schemas['LogoutRequest'];
export type Customer = Schemas['Customer'];
export type CloudAccount = Schemas['CloudAccount'];
export type InviteRequest = Schemas['InviteRequest'];
export type InviteResponse = Schemas['InviteResponse'];
export type UpdateUserRequest = Schemas['UpdateUserRequest'];
export type MessageResponse = Schemas['MessageResponse'];
export type ErrorBody = Schemas['ErrorBody'];
export type PublicConfig = Schemas['PublicConfig'];
export type FeatureFlags = Schemas['FeatureFlags'];
export type InvitationInfo = Schemas['InvitationInfo'];
export type AcceptInvitationRequest = Schemas['AcceptInvitationRequest'];
