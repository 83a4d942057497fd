// The notification channels API of issue 15, written by hand from docs/NOTIFICATIONS.md while
// the server side is built. Once the server's /openapi.json carries these routes, the shapes
// below become aliases of `components['schemas']` in `@/api/schema.gen` and `NotificationPaths`
// goes away (the calls then use the shared `api` client).

/** `type` of a channel: where and how a notification is sent. */
export type ChannelType = 'email' | 'slack' | 'teams_webhook' | 'webhook';
export const CHANNEL_TYPES: readonly ChannelType[] = ['email', 'slack', 'teams_webhook', 'webhook'];

/** A delivery's state; after 8 failed attempts it is `failed` and not tried again. */
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

/** The newest delivery to a channel, as the channel list shows it. */
export interface ChannelLastDelivery {
  at: string;
  status: DeliveryStatus;
  error: string | null;
}

/** GET /v1/channels item. The target itself never comes back, only its hint. */
export interface Channel {
  id: number;
  type: ChannelType;
  name: string;
  /** The e-mail address, or the URL's scheme and host followed by `/…`. */
  targetHint: string;
  createdAt: string;
  lastDelivery: ChannelLastDelivery | null;
}

/** POST /v1/channels. `secret` only for `webhook`; without it the server generates one. */
export interface CreateChannelRequest {
  type: ChannelType;
  name: string;
  target: string;
  secret?: string;
}

/** POST /v1/channels answer: the only answer that carries a webhook's `secret`. */
export interface CreatedChannel extends Channel {
  secret?: string | null;
}

/** POST /v1/channels/{id}/test, 200 (a 502 carries the reason in `message`). */
export interface TestChannelResult {
  delivered: boolean;
}

/** GET /v1/notifications/deliveries item, newest first. */
export interface Delivery {
  id: number;
  notificationId: number;
  event: string;
  title: string;
  channelId: number | null;
  channelName: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

// ---- The routes in openapi-typescript's shape, so that openapi-fetch types the calls ----

interface JsonContent<T> {
  headers: { [name: string]: unknown };
  content: { 'application/json': T };
}

interface NoContent {
  headers: { [name: string]: unknown };
  content?: never;
}

interface ErrorBody {
  message: string;
  details?: Record<string, string[]>;
}

interface NoParameters {
  query?: never;
  header?: never;
  path?: never;
  cookie?: never;
}

interface ChannelIdParameters {
  query?: never;
  header?: never;
  path: { id: number };
  cookie?: never;
}

interface Unused {
  put?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
}

export interface NotificationPaths {
  '/v1/channels': Unused & {
    parameters: NoParameters;
    get: {
      parameters: NoParameters;
      requestBody?: never;
      responses: { 200: JsonContent<Channel[]>; 401: JsonContent<ErrorBody> };
    };
    post: {
      parameters: NoParameters;
      requestBody: { content: { 'application/json': CreateChannelRequest } };
      responses: {
        201: JsonContent<CreatedChannel>;
        403: JsonContent<ErrorBody>;
        409: JsonContent<ErrorBody>;
        422: JsonContent<ErrorBody>;
      };
    };
    delete?: never;
  };
  '/v1/channels/{id}': Unused & {
    parameters: NoParameters;
    get?: never;
    post?: never;
    delete: {
      parameters: ChannelIdParameters;
      requestBody?: never;
      responses: { 204: NoContent; 403: JsonContent<ErrorBody>; 404: JsonContent<ErrorBody> };
    };
  };
  '/v1/channels/{id}/test': Unused & {
    parameters: NoParameters;
    get?: never;
    post: {
      parameters: ChannelIdParameters;
      requestBody?: never;
      responses: {
        200: JsonContent<TestChannelResult>;
        403: JsonContent<ErrorBody>;
        404: JsonContent<ErrorBody>;
        502: JsonContent<ErrorBody>;
      };
    };
    delete?: never;
  };
  '/v1/notifications/deliveries': Unused & {
    parameters: NoParameters;
    get: {
      parameters: { query?: { limit?: number }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: JsonContent<Delivery[]>; 422: JsonContent<ErrorBody> };
    };
    post?: never;
    delete?: never;
  };
}
