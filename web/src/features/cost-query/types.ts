/** The fields of the cost filter builder (spec 2 §5), as POST /v1/query names them. */
export type QueryFieldName = 'cloud_provider' | 'service_name' | 'region' | 'account_id' | 'cost_amount' | 'tags';

/** How a field's value is entered: one of the tenant's values, a tag key then its values, or an amount. */
export type QueryFieldType = 'select' | 'tag' | 'number';

export interface QueryFieldDef {
  value: QueryFieldName;
  label: string;
  type: QueryFieldType;
}

/**
 * The condition being built in the builder row. `value` holds the typed or picked values as
 * text: one for a single-value operator, any number for in / not_in, from and to for between.
 */
export interface QueryDraft {
  field: QueryFieldName | '';
  operator: string;
  value: string[];
  tagKey: string;
}
