import { ApiError } from '@/api/api-error';
import { DISCOVERY_MESSAGES, isDemoCustomer, outcomeOfAnswer, outcomeOfError } from './discovery';

describe('discovery trigger outcomes (spec 2 §8)', () => {
  it('reads a success answer', () => {
    expect(outcomeOfAnswer({ data: true })).toEqual({ severity: 'success', message: DISCOVERY_MESSAGES.success });
    expect(DISCOVERY_MESSAGES.success).toBe('Triggered on-demand discovery, please wait for few mins to reflect the changes.');
  });

  it('reads details text in an answer', () => {
    expect(outcomeOfAnswer({ data: { details: 'On-demand discovery is already running' } }).message).toBe(
      'On-demand discovery is already running. Please wait.',
    );
    expect(outcomeOfAnswer({ data: { details: 'On-demand discovery limit reached for today' } }).message).toBe(
      'On-demand discovery limit reached, Please upgrade the account to increase the limit.',
    );
    expect(outcomeOfAnswer({ data: { details: 'something else' } })).toEqual({
      severity: 'error',
      message: 'An error occurred while triggering the job.',
      detail: 'something else',
    });
    expect(outcomeOfAnswer({}).message).toBe('Failed to trigger discovery job. Please try again.');
    expect(outcomeOfAnswer(undefined).message).toBe('Failed to trigger discovery job. Please try again.');
  });

  it('reads failures', () => {
    const conflict = new ApiError('On-demand discovery is already running', 409, undefined, 'On-demand discovery is already running');
    expect(outcomeOfError(conflict).message).toBe(DISCOVERY_MESSAGES.alreadyRunning);
    const limit = new ApiError('x', 429, { data: { details: 'On-demand discovery limit reached for today' } });
    expect(outcomeOfError(limit).message).toBe(DISCOVERY_MESSAGES.limitReached);
    const other = new ApiError('Connect an AWS account before running discovery', 422, undefined, 'Connect an AWS account before running discovery');
    expect(outcomeOfError(other)).toEqual({
      severity: 'error',
      message: 'An error occurred while triggering the job.',
      detail: 'Connect an AWS account before running discovery',
    });
    expect(outcomeOfError(new ApiError('Network error', 0)).message).toBe('An unexpected error occurred.');
    expect(outcomeOfError(new Error('boom')).message).toBe('An unexpected error occurred.');
  });

  it('knows the demo customer', () => {
    expect(isDemoCustomer({ id: 7, is_demo: false })).toBe(true);
    expect(isDemoCustomer({ id: 10, is_demo: true })).toBe(true);
    expect(isDemoCustomer({ id: 10, is_demo: false })).toBe(false);
    expect(isDemoCustomer(undefined)).toBe(false);
  });
});
