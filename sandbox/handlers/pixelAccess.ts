import type { Cabinet } from '../data/model';
import type { SandboxData } from '../data/sandboxData';
import { ApiError } from '../errors';

/**
 * The cabinet behind a pixel or audience request. Unknown accounts are 403 where the spec lists no
 * 404 for the account (list, create, rename), and 404 where it does (delete: "event or account not found").
 */
export function accessibleCabinet(
	data: SandboxData,
	accountId: string,
	unknownStatus: 403 | 404 = 403,
): Cabinet {
	const cabinet = data.cabinet(accountId);
	if (!cabinet) {
		throw new ApiError(
			unknownStatus,
			unknownStatus === 404
				? `Account ${accountId} not found.`
				: `You do not have permission to access account ${accountId}.`,
		);
	}
	if (!cabinet.permitted) {
		throw new ApiError(403, `You do not have permission to access account ${accountId}.`);
	}
	return cabinet;
}
