// The Microsoft Teams connect API (spec 2 §3 Teams integration, §7 Teams; docs/NOTIFICATIONS.md
// "Microsoft Teams through Microsoft Graph"): aliases of the server's OpenAPI schemas.
import type { components } from '@/api/schema.gen';

type Schemas = components['schemas'];

/** GET /v1/api/teams/oauth/login: where to sign in, and the id of the pending integration. */
export type TeamsOAuthStart = Schemas['TeamsOAuthStart'];

/** POST /v1/api/teams/oauth/callback: the code and state the identity platform returned. */
export type TeamsSignInReturn = Schemas['TeamsOAuthCallback'];

/** POST /v1/api/teams/oauth/callback answer: the integration that is now signed in. */
export type TeamsSignedIn = Schemas['TeamsOAuthSignedIn'];

/** A team the signed-in user belongs to, or one of a team's channels (Graph's `{id, displayName}`). */
export type TeamsListItem = Schemas['TeamsListItem'];

/** POST …/teams/{team_id}/channels/{team_channel_id}: the integration is complete. */
export type TeamsChannelSelected = Schemas['TeamsChannelSelected'];
