import type { Sandbox } from '../../sandbox';
import type { SignInCredential } from '../../harness/sandbox';
import type { Checks } from '../lib/checks';
import type { N8nRest } from '../lib/rest';
import type { N8nRuntime } from '../lib/runtime';
import type { Example } from '../lib/workflows';

/** What every part of the renewal stage works with. */
export interface RenewalStage {
	sb: Sandbox;
	rest: N8nRest;
	runtime: N8nRuntime;
	checks: Checks;
	credential: SignInCredential;
	trigger: Example;
	scheduled: Example;
	manual: Example;
	queue: boolean;
}

/** A cabinet that may have audiences (Uzbekistan), in the real service's id form. */
export const CABINET = 'ACC06163';
/** Token expiries the trigger's polls, and the scheduled runs, must each meet. */
export const EXPIRIES = 3;
/** The trigger polls at this second of each minute (scripts/lib/statsWorkflows.ts). */
export const POLL_SECOND = 3;
/** 10 requests per 3 s for each path, blocked for a window on the 11th. */
export const RATE_LIMIT = '10/3';
