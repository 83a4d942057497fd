// The notification channels API (docs/NOTIFICATIONS.md): aliases of the server's OpenAPI
// schemas, so that the page and the server cannot disagree about a field.
import type { components } from '@/api/schema.gen';

type Schemas = components['schemas'];

/** `type` of a channel: where and how a notification is sent. */
export type ChannelType = Schemas['ChannelKind'];
/** The types "Add channel" creates; a `teams` (Microsoft Graph) channel comes from "Connect MS Teams". */
export type CreatableChannelType = Exclude<ChannelType, 'teams'>;
export const CHANNEL_TYPES: readonly CreatableChannelType[] = ['email', 'slack', 'teams_webhook', 'webhook'];

/** A delivery's state; after 8 failed attempts it is `failed` and not tried again. */
export type DeliveryStatus = Schemas['DeliveryStatus'];

/** The newest delivery to a channel, as the channel list shows it. */
export type ChannelLastDelivery = Schemas['LastDeliveryDto'];

/** GET /v1/channels item. The target itself never comes back, only its hint. */
export type Channel = Schemas['NotificationChannel'];

/** POST /v1/channels. `secret` only for `webhook`; without it the server generates one. */
export type CreateChannelRequest = Schemas['NotificationChannelRequest'];

/** POST /v1/channels answer: the only answer that carries a webhook's `secret`. */
export type CreatedChannel = Schemas['NotificationChannelCreated'];

/** POST /v1/channels/{id}/test, 200 (a 502 carries the reason in `message`). */
export type TestChannelResult = Schemas['ChannelTestResult'];

/** GET /v1/notifications/deliveries item, newest first. */
export type Delivery = Schemas['NotificationDelivery'];

/** How often a user's digest comes: `off`, `daily` or `weekly` (Mondays, UTC). */
export type DigestFrequency = Schemas['DigestFrequency'];

/** GET and PUT /v1/me/digest answer: the signed-in user's own digest choice. */
export type DigestSettings = Schemas['DigestSettings'];

/** PUT /v1/me/digest body. */
export type DigestSettingsRequest = Schemas['DigestSettingsRequest'];
