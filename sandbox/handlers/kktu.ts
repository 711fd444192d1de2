import { json, type Handler } from './context';

/** GET {client_api_url}/api/kktu (spec 4.10). */
export const kktuTree: Handler = ({ data }) => json({ items: data.kktu });
