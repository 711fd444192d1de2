import { json, type Handler } from './context';

/** GET {client_api_url}/api/kktu: the classifier tree, `{ items }`. */
export const kktuTree: Handler = ({ data }) => json({ items: data.kktu });
