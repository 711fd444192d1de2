import type { LoggedRequest } from '../../sandbox';

/** What reached the sandbox, one line per request: sign-in, refresh and API calls with their status. */
export function trail(requests: LoggedRequest[]): string[] {
	return requests
		.filter((r) => r.api === 'base' || r.api === 'client')
		.map((r) => `${r.method} ${r.path} ${r.status}`);
}
