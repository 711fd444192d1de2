import { json, type Handler } from './context';

/** GET {base_url}/api/report/objects (spec 4.3): an array of strings. */
export const reportObjects: Handler = ({ data }) => json(data.adObjects());
