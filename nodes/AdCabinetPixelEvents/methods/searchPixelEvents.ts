import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { PATHS } from '../../shared/constants';
import { platformNamesOf } from '../../shared/platform';
import { apiRequest } from '../../shared/transport/request';

/** "From List" of the Event locator: the events of the cabinet in the Cabinet ID field, by `id`. */
export async function searchPixelEvents(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const raw = this.getCurrentNodeParameter('accountId') as unknown;
	const accountId = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	if (!accountId) return { results: [] };
	const { eventId } = (await platformNamesOf(this)).fields;
	const body = (await apiRequest.call(this, {
		api: 'client',
		method: 'GET',
		path: PATHS.pixelEvents,
		qs: { account_id: accountId },
	})) as { items?: IDataObject[] } | IDataObject[] | undefined;
	const events = Array.isArray(body) ? body : (body?.items ?? []);
	const needle = (filter ?? '').trim().toLowerCase();
	const results = events
		.filter(
			(event) =>
				!needle ||
				String(event.title ?? '')
					.toLowerCase()
					.includes(needle) ||
				String(event.id ?? '').includes(needle) ||
				String(event[eventId] ?? '').includes(needle),
		)
		.map((event) => ({
			name: `${String(event.title)} (${String(event.type)}, ${String(event.status)})`,
			value: String(event.id),
		}));
	return { results };
}
