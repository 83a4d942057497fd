import type { NotificationChannel } from '../model/types';

/** A channel as GET /v1/channels answers it (docs/NOTIFICATIONS.md), for tests. */
export function makeChannel(overrides: Partial<NotificationChannel> = {}): NotificationChannel {
  return {
    id: 1,
    type: 'slack',
    name: 'Team alerts',
    targetHint: 'https://hooks.slack.com/…',
    createdAt: '2026-11-01T10:00:00Z',
    lastDelivery: null,
    ...overrides,
  };
}
