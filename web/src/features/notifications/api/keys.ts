export const notificationKeys = {
  all: ['notifications'] as const,
  channels: () => ['notifications', 'channels'] as const,
  deliveries: (limit: number) => ['notifications', 'deliveries', limit] as const,
  digest: () => ['notifications', 'digest'] as const,
};
