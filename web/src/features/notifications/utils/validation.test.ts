import { ApiError } from '@/api/api-error';
import { serverProblems, toCreateRequest, validateChannel, type ChannelFormValues } from './validation';

const valid: ChannelFormValues = { type: 'slack', name: 'Team alerts', target: 'https://hooks.slack.com/services/T/B/x', secret: '' };

describe('what the form stops before sending', () => {
  it('lets every filled-in channel through: the server judges targets, lengths and secrets', () => {
    expect(validateChannel(valid)).toEqual({});
    // Each of these breaks a server rule; the form leaves it to the server's 422.
    expect(validateChannel({ ...valid, target: 'http://example.com/hook' })).toEqual({});
    expect(validateChannel({ ...valid, type: 'email', target: 'not-an-address' })).toEqual({});
    expect(validateChannel({ ...valid, name: 'a'.repeat(500) })).toEqual({});
    expect(validateChannel({ ...valid, type: 'webhook', secret: 'short' })).toEqual({});
  });

  it('asks for a type with the server\'s words', () => {
    expect(validateChannel({ ...valid, type: '' }).type).toBe('Choose a channel type: email, slack, teams_webhook or webhook');
  });

  it('asks for a name that is not blank', () => {
    expect(validateChannel({ ...valid, name: '   ' }).name).toBe('Name is required');
  });

  it('asks for a target with what the server answers for an empty one of that type', () => {
    expect(validateChannel({ ...valid, target: ' ' }).target).toBe('Enter a URL that starts with https://');
    expect(validateChannel({ ...valid, type: 'email', target: '' }).target).toBe('Enter a valid email address');
    // Without a type there is no target to ask for yet.
    expect(validateChannel({ ...valid, type: '', target: '' }).target).toBeUndefined();
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
