/** The two renewal paths, as the real service names them. */
const SIGN_IN_PATH = '/api/v2/login';
const REFRESH_PATH = '/api/v2/access-token';

type AuthPath = 'sign-in' | 'refresh';
const AUTH_PATHS: readonly AuthPath[] = ['sign-in', 'refresh'];

/** A status to answer with, or `reset` (the connection dropped without an answer). */
type AuthFaultKind = number | 'reset';

export interface AuthFaultSettings {
	/** What the faulted requests get; undefined: no fault, only the latency. */
	kind?: AuthFaultKind;
	/** Milliseconds each affected request waits before it is answered (or faulted). */
	latencyMs: number;
	/** How many of the next sign-in or refresh requests are affected. */
	count: number;
	/** Which paths; both by default. */
	paths: AuthPath[];
}

interface AuthFaultDecision {
	kind?: AuthFaultKind;
	latencyMs: number;
}

function authPathOf(path: string): AuthPath | undefined {
	const bare = path.replace(/\/$/, '');
	if (bare === SIGN_IN_PATH) return 'sign-in';
	if (bare === REFRESH_PATH) return 'refresh';
	return undefined;
}

const USAGE =
	'{ "status": 502 | "reset" (optional), "latencyMs": 0 or more (optional), "count": N of at least 1, "paths": ["sign-in", "refresh"] (optional) }';

/** Reads a control body or CLI value into settings; throws with the rule when it fits none. */
export function parseAuthFault(value: Record<string, unknown>): AuthFaultSettings {
	const { status, latencyMs = 0, count, paths = AUTH_PATHS } = value;
	const kind =
		status === undefined
			? undefined
			: status === 'reset'
				? 'reset'
				: typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599
					? status
					: null;
	if (kind === null) throw new Error(`auth fault status must be 400-599 or "reset": ${USAGE}`);
	if (typeof latencyMs !== 'number' || !(latencyMs >= 0))
		throw new Error(`auth fault latencyMs must be a number of 0 or more: ${USAGE}`);
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1)
		throw new Error(`auth fault count must be a whole number of at least 1: ${USAGE}`);
	if (
		!Array.isArray(paths) ||
		paths.length === 0 ||
		!paths.every((p) => (AUTH_PATHS as readonly unknown[]).includes(p))
	)
		throw new Error(`auth fault paths must be a non-empty list of "sign-in", "refresh": ${USAGE}`);
	if (kind === undefined && latencyMs === 0)
		throw new Error(`an auth fault needs a status or a latency: ${USAGE}`);
	return { kind, latencyMs, count, paths: [...(paths as AuthPath[])] };
}

/** "502:3", "reset:1", "latency=2000:5", "503:2:sign-in" (CLI form). */
export function parseAuthFaultFlag(raw: string): AuthFaultSettings {
	const [what, count, paths] = raw.split(':');
	const latency = /^latency=(\d+)$/.exec(what ?? '');
	return parseAuthFault({
		...(latency
			? { latencyMs: Number(latency[1]) }
			: { status: what === 'reset' ? 'reset' : Number(what) }),
		count: Number(count ?? 1),
		...(paths ? { paths: paths.split(',') } : {}),
	});
}

/**
 * Faults on sign-in and refresh only, for the next N of those requests: a status, a dropped
 * connection, latency. Kept apart from the general faults, which count every API request.
 */
export class AuthFaults {
	private settings: AuthFaultSettings | null = null;
	private left = 0;
	/** Faults injected, by path. */
	readonly injected: Record<AuthPath, number> = { 'sign-in': 0, refresh: 0 };

	set(settings: AuthFaultSettings): void {
		this.settings = settings;
		this.left = settings.count;
	}

	clear(): void {
		this.settings = null;
		this.left = 0;
	}

	/** How many requests are still to be affected. */
	get remaining(): number {
		return this.left;
	}

	decide(path: string): AuthFaultDecision | null {
		const which = authPathOf(path);
		const settings = this.settings;
		if (!which || !settings || this.left <= 0 || !settings.paths.includes(which)) return null;
		this.left -= 1;
		if (settings.kind !== undefined) this.injected[which] += 1;
		return { kind: settings.kind, latencyMs: settings.latencyMs };
	}

	state(): Record<string, unknown> {
		return {
			status: this.settings?.kind ?? null,
			latencyMs: this.settings?.latencyMs ?? 0,
			paths: this.settings?.paths ?? [],
			remaining: this.left,
			injected: { ...this.injected },
		};
	}
}
