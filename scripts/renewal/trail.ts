/**
 * Reading the sandbox's request log in the renewal stage: what an action caused, whether each 401
 * was renewed once and repeated, and the sign-in counts.
 */
import { isDeepStrictEqual } from 'node:util';
import type { LoggedRequest, MultipartBody, Sandbox } from '../../sandbox';

export const SIGN_IN = '/api/v2/login';
export const REFRESH = '/api/v2/access-token';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const isAuth = (r: LoggedRequest) => r.path === SIGN_IN || r.path === REFRESH;
export const api = (requests: readonly LoggedRequest[]) =>
	requests.filter((r) => r.api === 'base' || r.api === 'client');
export const line = (r: LoggedRequest) => `${r.method} ${r.path} ${r.status}`;

/** What identifies one request's content: a repeat carries the same. */
function contentOf(r: LoggedRequest): unknown {
	const body = r.body as MultipartBody | undefined;
	if (body && typeof body === 'object' && 'files' in body && 'fields' in body) {
		return {
			fields: body.fields,
			files: Object.fromEntries(Object.entries(body.files).map(([k, f]) => [k, f.sha256])),
		};
	}
	return body ?? null;
}

/**
 * Every API request answered 401 was followed, after one renewal (a refresh, or a refused refresh
 * and a sign-in), by the same request answered 2xx. Returns what does not hold.
 */
export function unrepeated401s(requests: readonly LoggedRequest[]): string[] {
	const log = api(requests);
	const problems: string[] = [];
	log.forEach((r, i) => {
		if (r.status !== 401 || isAuth(r)) return;
		const repeat = log
			.slice(i + 1)
			.find(
				(later) =>
					!isAuth(later) &&
					later.method === r.method &&
					later.path === r.path &&
					isDeepStrictEqual(later.query, r.query) &&
					isDeepStrictEqual(contentOf(later), contentOf(r)),
			);
		if (!repeat || repeat.status < 200 || repeat.status > 299) {
			problems.push(
				`${line(r)} (#${r.seq}): ${repeat ? `repeated as ${line(repeat)}` : 'never repeated'}`,
			);
		}
	});
	return problems;
}

/** The sandbox's sign-ins and refreshes so far. */
export function authCounts(sandbox: Sandbox) {
	return { ...sandbox.sessions.counts };
}

/** Renewals after the first sign-in: each is n8n meeting an expired token. */
export function renewals(sandbox: Sandbox): number {
	const c = sandbox.sessions.counts;
	return c.refreshes + Math.max(0, c.logins - 1);
}

/**
 * Ends the access tokens issued so far, runs `act`, and returns the API requests it caused (the
 * renewal included). The running workflows share the credential: when one of them renewed it
 * between the expiry and `act`'s first request (its path answered 2xx first), it is done again.
 */
export async function afterAnExpiry<T>(
	sandbox: Sandbox,
	what: string,
	path: string,
	act: () => Promise<T>,
): Promise<{ result: T; trail: string[] }> {
	for (let attempt = 1; ; attempt++) {
		sandbox.sessions.expire({ access: true });
		const from = sandbox.requests.length;
		const result = await act();
		const own = api(sandbox.requests.slice(from));
		// Only what this action caused: its own requests, and the renewal between the first two.
		const mine = own.filter((r) => r.path === path);
		const [first, second] = mine;
		const between = first
			? own.slice(own.indexOf(first) + 1, second ? own.indexOf(second) : own.length).filter(isAuth)
			: [];
		const trail = [...(first ? [first] : []), ...between, ...mine.slice(1)].map(line);
		if (first?.status === 401 || attempt === 3) {
			console.log(`      ${what}: ${trail.join(' → ')}`);
			return { result, trail };
		}
		console.log(`      ${what}: a workflow renewed the token first; again`);
	}
}

/** A trail that renewed once: a refresh, or a refused refresh and a sign-in. */
export function renewedOnce(trail: string[]): boolean {
	const auth = trail.filter((l) => l.includes(SIGN_IN) || l.includes(REFRESH));
	return (
		isDeepStrictEqual(auth, [`GET ${REFRESH} 200`]) ||
		isDeepStrictEqual(auth, [`GET ${REFRESH} 401`, `POST ${SIGN_IN} 200`])
	);
}
