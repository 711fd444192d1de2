import { json, type Handler } from './context';

/** GET {base_url}/api/report/objects: an array of strings. */
export const reportObjects: Handler = ({ data }) => json(data.adObjects());
