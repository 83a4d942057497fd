import { ApiError } from '@/api/api-error';
import { fractionToPercent, percentToFraction, settingsProblems, toFormValues, toSettings } from './settings-form';

describe('anomaly settings form', () => {
  it('shows the fraction as a percentage and sends the percentage as a fraction', () => {
    expect(fractionToPercent(0.2)).toBe('20');
    expect(fractionToPercent(0.07)).toBe('7');
    expect(fractionToPercent(0.125)).toBe('12.5');
    expect(fractionToPercent(10)).toBe('1000');
    expect(percentToFraction(20)).toBe(0.2);
    expect(percentToFraction(7)).toBe(0.07);
    expect(percentToFraction(0.5)).toBe(0.005);
    expect(percentToFraction(33.3)).toBe(0.333);
  });

  it('sends what was typed and leaves the rules to the server', () => {
    const values = { ...toFormValues({ relativeThreshold: 0.2, absoluteThreshold: 100, tagKeys: ['team'], channelIds: [3] }), relativePercent: '2000' };
    expect(toSettings(values)).toEqual({ settings: { relativeThreshold: 20, absoluteThreshold: 100, tagKeys: ['team'], channelIds: [3] } });
  });

  it('stops thresholds that are not numbers', () => {
    expect(toSettings({ relativePercent: '', absolute: 'x', tagKeys: [], channelIds: [] })).toEqual({
      errors: { relativeThreshold: 'Enter a number', absoluteThreshold: 'Enter a number' },
    });
  });

  it('puts a 422\'s details under their fields, and what names no field above the form', () => {
    const message = 'Monitor at most 5 tag keys';
    expect(settingsProblems(new ApiError(message, 422, { tagKeys: [message] }, message))).toEqual({ fields: { tagKeys: message }, form: null });
    expect(settingsProblems(new ApiError('Invalid', 422, { other: ['x'], channelIds: ['Unknown channel'] }, 'Invalid'))).toEqual({
      fields: { channelIds: 'Unknown channel' },
      form: 'Invalid',
    });
    const forbidden = 'Only owners and admins can change anomaly settings';
    expect(settingsProblems(new ApiError(forbidden, 403, undefined, forbidden))).toEqual({ fields: {}, form: forbidden });
    expect(settingsProblems(new Error('boom'))).toEqual({ fields: {}, form: 'The anomaly settings could not be saved' });
  });
});
