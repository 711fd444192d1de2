import type { IExecuteFunctions, NodeEgressFilter } from 'n8n-workflow';
import { isIpAddress, isLocalhostName, nonPublicKind, type AddressKind } from './networkAddress';

export const ALLOW_PRIVATE_LABEL = 'Allow Private Network Addresses';

/** n8n's outbound network filter, where the running n8n has one (2.x); undefined on n8n 1.x. */
function egressFilter(ctx: IExecuteFunctions): NodeEgressFilter | undefined {
	const helpers = ctx.helpers as Partial<IExecuteFunctions['helpers']>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	// 'enforced': n8n's blocked ranges and host names apply even where the instance leaves its
	// SSRF protection off.
	return helpers.getSecureEgressFilter('enforced');
}

/** Every address `host` resolves to, through n8n's filter (which throws for a blocked one). */
async function resolveThrough(filter: NodeEgressFilter, host: string): Promise<string[]> {
	const lookup = filter.createSecureLookup();
	return await new Promise<string[]>((resolve, reject) => {
		lookup(host, { all: true }, (error, addresses) => {
			if (error) return reject(error);
			const list = Array.isArray(addresses)
				? addresses.map((entry) => entry.address)
				: [String(addresses)];
			resolve(list);
		});
	});
}

/** Why n8n's filter refused an address: a blocked IP (with the address) or a blocked host name. */
export function blockedBy(error: unknown): { ip?: string } | undefined {
	let cause = error;
	for (let depth = 0; cause && depth < 3; depth++) {
		const record = cause as { name?: unknown; ip?: unknown; cause?: unknown };
		if (record.name === 'SsrfBlockedIpError') {
			return { ip: typeof record.ip === 'string' ? record.ip : undefined };
		}
		if (record.name === 'SsrfBlockedHostnameError') return {};
		cause = record.cause;
	}
	return undefined;
}

const USE_PUBLIC = `Use a public address, or turn on ${ALLOW_PRIVATE_LABEL} for a file on your own network`;
export const POLICY =
	"n8n's outbound network policy (its N8N_SSRF_ settings) does not allow this address, so nothing was downloaded from it; use another address or ask the n8n administrator";

/**
 * Why the download may not go to `url`, or undefined when it may. Decided before any connection:
 * a literal IP address and a localhost name by our own table; a host name by the addresses it
 * resolves to, through n8n's egress filter (n8n 2.x: its blocked ranges and host names, then our
 * table). n8n 1.x offers no resolver a community node may use, so there a name is not resolved.
 * `redirect` tells the File URL itself from a redirect's target. With private addresses allowed,
 * nothing is checked here: the instance's own SSRF setting still applies inside n8n's helper.
 */
export async function addressProblem(
	ctx: IExecuteFunctions,
	url: URL,
	allowPrivateNetwork: boolean,
	redirect: boolean,
): Promise<string | undefined> {
	const host = url.hostname.replace(/^\[|\]$/g, '');
	const refuse = (kind: AddressKind, resolved: boolean) =>
		redirect
			? `must lead to an address on the public internet, but it redirects to ${resolved ? 'a host name that resolves to ' : ''}${kind}, so the redirect was not followed. ${USE_PUBLIC}`
			: `must be an address on the public internet, but ${resolved ? 'its host name resolves to' : 'it is'} ${kind}, so nothing was downloaded from it. ${USE_PUBLIC}`;
	if (allowPrivateNetwork) return undefined;
	if (isLocalhostName(host)) return refuse('a loopback address', false);
	const literal = isIpAddress(host) ? nonPublicKind(host) : undefined;
	if (literal) return refuse(literal, false);
	const filter = egressFilter(ctx);
	if (!filter) return undefined;
	let addresses: string[];
	try {
		addresses = await resolveThrough(filter, host);
	} catch (error) {
		const blocked = blockedBy(error);
		if (blocked) {
			const kind = blocked.ip ? nonPublicKind(blocked.ip) : undefined;
			return kind ? refuse(kind, !isIpAddress(host)) : POLICY;
		}
		return `downloading the file failed: its host name could not be found${redirect ? ' (after a redirect)' : ''}; check the address`;
	}
	for (const address of addresses) {
		const kind = nonPublicKind(address);
		if (kind) return refuse(kind, !isIpAddress(host));
	}
	return undefined;
}
