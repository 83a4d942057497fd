import { ApiError } from '@/api/api-error';
import {
  isAllowedWebhookUrl,
  looksLikeEmail,
  serverProblems,
  toCreateRequest,
  validateChannel,
  type ChannelFormValues,
} from './validation';

const valid: ChannelFormValues = { type: 'slack', name: 'Team alerts', target: 'https://hooks.slack.com/services/T/B/x', secret: '' };

describe('channel rules (docs/NOTIFICATIONS.md)', () => {
  it('accepts a complete channel of each type', () => {
    expect(validateChannel(valid)).toEqual({});
    expect(validateChannel({ ...valid, type: 'teams_webhook', target: 'https://prod.westeurope.logic.azure.com/workflows/1' })).toEqual({});
    expect(validateChannel({ ...valid, type: 'email', target: ' finops@example.com ' })).toEqual({});
    expect(validateChannel({ ...valid, type: 'webhook', secret: 'x'.repeat(16) })).toEqual({});
    expect(validateChannel({ ...valid, type: 'webhook', secret: 'x'.repeat(256) })).toEqual({});
  });

  it('asks for a type', () => {
    expect(validateChannel({ ...valid, type: '' }).type).toBe('Choose a channel type: email, slack, teams_webhook or webhook');
  });

  it('requires a trimmed name of 1 to 100 characters, counted as characters, not UTF-16 units', () => {
    expect(validateChannel({ ...valid, name: '   ' }).name).toBe('Name is required');
    expect(validateChannel({ ...valid, name: 'a'.repeat(101) }).name).toBe('Name must be at most 100 characters');
    expect(validateChannel({ ...valid, name: ` ${'a'.repeat(100)} ` }).name).toBeUndefined();
    // 100 emoji are 200 UTF-16 units but 100 characters.
    expect(validateChannel({ ...valid, name: '🔔'.repeat(100) }).name).toBeUndefined();
  });

  it('checks e-mail addresses like the server', () => {
    for (const bad of ['', 'plain', 'a@b', '@x.com', 'a@.com', 'a b@x.com', 'a@x.com.', 'a@@x.com', 'a@x..com']) {
      expect(looksLikeEmail(bad), bad).toBe(false);
      expect(validateChannel({ ...valid, type: 'email', target: bad }).target).toBe('Enter a valid email address');
    }
    expect(looksLikeEmail('finops@example.com')).toBe(true);
  });

  it('takes https URLs, and http only to this machine', () => {
    for (const good of [
      'https://hooks.slack.com/services/x',
      'http://localhost:9000/hook',
      'http://127.0.0.1:8080/',
      'http://127.9.8.7/x',
      'http://[::1]:3000/in',
      'http://LOCALHOST/hook',
      'http://127.1/hook',
      'https://10.0.0.1/x',
    ]) {
      expect(isAllowedWebhookUrl(good), good).toBe(true);
    }
    for (const bad of [
      '',
      'hooks.slack.com/x',
      'http://example.com/hook',
      'http://10.0.0.1/',
      'ftp://example.com',
      'https://',
      'javascript:alert(1)',
      // The host as the HTTP client reads it, not as it looks.
      'http://localhost@evil.example.com/x',
      'http://localhost.evil.example.com/x',
      'http://[::2]/x',
    ]) {
      expect(isAllowedWebhookUrl(bad), bad).toBe(false);
      expect(validateChannel({ ...valid, target: bad }).target).toBe('Enter a URL that starts with https://');
    }
  });

  it('limits URLs to 2048 characters', () => {
    const base = 'https://example.com/';
    expect(validateChannel({ ...valid, target: base + 'a'.repeat(2048 - base.length) }).target).toBeUndefined();
    expect(validateChannel({ ...valid, target: base + 'a'.repeat(2049 - base.length) }).target).toBe('The URL must be at most 2048 characters');
  });

  it('checks a webhook secret only when one is given, and ignores the field for other types', () => {
    expect(validateChannel({ ...valid, type: 'webhook', secret: 'x'.repeat(15) }).secret).toBe('The secret must be 16 to 256 characters');
    expect(validateChannel({ ...valid, type: 'webhook', secret: 'x'.repeat(257) }).secret).toBe('The secret must be 16 to 256 characters');
    expect(validateChannel({ ...valid, type: 'slack', secret: 'short' }).secret).toBeUndefined();
  });

  it('sends the trimmed name and target, and a secret only for a webhook that has one', () => {
    expect(toCreateRequest({ ...valid, type: 'slack', name: ' A ', target: ' https://x.test/h ', secret: 'ignored-secret-value' })).toEqual({
      type: 'slack',
      name: 'A',
      target: 'https://x.test/h',
    });
    expect(toCreateRequest({ ...valid, type: 'webhook', secret: '' })).not.toHaveProperty('secret');
    expect(toCreateRequest({ ...valid, type: 'webhook', secret: 's'.repeat(20) }).secret).toBe('s'.repeat(20));
  });
});

describe('serverProblems', () => {
  it('puts a 409 on the name, with the server message or the contract text', () => {
    const taken = 'A channel named "Ops" already exists';
    expect(serverProblems(new ApiError(taken, 409, undefined, taken), 'Ops')).toEqual({ fields: { name: taken }, form: null });
    expect(serverProblems(new ApiError('An unexpected error occurred', 409), 'Ops').fields.name).toBe(taken);
  });

  it('puts 422 details on their fields, and what names no field above the form', () => {
    const smtp = 'E-mail channels need SMTP configured on the server';
    expect(serverProblems(new ApiError(smtp, 422, { target: [smtp] }, smtp), 'x')).toEqual({ fields: { target: smtp }, form: null });
    const limit = 'A tenant may have at most 20 channels';
    expect(serverProblems(new ApiError(limit, 422, { channels: [limit] }, limit), 'x')).toEqual({ fields: {}, form: limit });
    expect(serverProblems(new ApiError(limit, 422, undefined, limit), 'x')).toEqual({ fields: {}, form: limit });
  });

  it('shows other failures above the form', () => {
    expect(serverProblems(new ApiError('You do not have permission to do this', 403), 'x').form).toBe('You do not have permission to do this');
    expect(serverProblems(new Error('boom'), 'x').form).toBe('Failed to add the channel');
  });
});
