import type { Channel, Delivery } from '../types';

/** An ISO time `minutes` before now, so that relative times read the same on every run. */
export function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

export function makeChannel(overrides: Partial<Channel> = {}): Channel {
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

export function makeDelivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: 1,
    notificationId: 100,
    event: 'budget_alert',
    title: 'Budget "Production" crossed 80 %',
    channelId: 1,
    channelName: 'Team alerts',
    status: 'delivered',
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    deliveredAt: minutesAgo(3),
    createdAt: minutesAgo(4),
    ...overrides,
  };
}
