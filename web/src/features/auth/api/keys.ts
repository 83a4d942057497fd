export const authKeys = {
  all: ['auth'] as const,
  invitation: (token: string) => ['auth', 'invitation', token] as const,
};
