/**
 * The external messaging platform's name as the API spells it in paths and field names
 * (`/api/advertisement/ext/`, `/api/report/extview`, `ext_event_id`, `ext_id`).
 * A deployment whose platform segment differs (for example `telegram`) changes this line only.
 */
export const PLATFORM = 'ext';
