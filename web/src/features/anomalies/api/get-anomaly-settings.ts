import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { AnomalySettings } from '../types';
import { anomalyKeys } from './keys';

export const getAnomalySettings = () => unwrap<AnomalySettings>(api.GET('/v1/anomalies/settings'));

export const anomalySettingsQuery = () => queryOptions({ queryKey: anomalyKeys.settings(), queryFn: getAnomalySettings });

export const useAnomalySettings = (enabled = true) => useQuery({ ...anomalySettingsQuery(), enabled });
