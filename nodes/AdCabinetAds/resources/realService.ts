import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { CREDENTIAL_TYPE, MAX_PAGE_SIZE, PAGE_BOUND_SLACK } from '../../shared/constants';
import { apiError } from '../../shared/transport/errors';
import { apiRequest, connectionOptions } from '../../shared/transport/request';
import { invalidInput } from '../../shared/validation';
import { PLATFORM_LABEL, platformNames, type PlatformNames } from '../../shared/platform';

/**
 * Cabinets, campaigns and balances are endpoints of the real service (Telegram, Adstat) that the
 * interface spec does not show. With the credential in the Generic form they are refused before
 * anything is sent.
 */
export async function realServiceCredentials(
	ctx: IExecuteFunctions,
	itemIndex: number,
	what: string,
): Promise<{ credentials: ICredentialDataDecryptedObject; paths: NonNullable<PlatformNames['accounts']> }> {
	const credentials = await ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
	const names = platformNames(credentials, ctx.getNode(), itemIndex);
	if (!names.accounts) {
		throw invalidInput(
			ctx.getNode(),
			PLATFORM_LABEL,
			`${what} exist only on the Telegram (Adstat) API; this credential's Platform is "${names.label}", whose API has no such endpoint. Set Platform to Telegram (Adstat) in the credential, or type the IDs by hand in the other operations`,
			itemIndex,
		);
	}
	return { credentials, paths: names.accounts };
}

/**
 * A list the API pages by `offset` and `limit` and answers as `{items, count}`: read until `count`
 * (or the Limit), at most 500 a request.
 */
export async function offsetList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: { path: string; qs: IDataObject; limit: number; credentials: ICredentialDataDecryptedObject },
): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	let offset = 0;
	let count = Infinity;
	let requests = 0;
	const connection = connectionOptions(ctx, itemIndex);
	while (out.length < request.limit && offset < count) {
		const size = Math.min(MAX_PAGE_SIZE, request.limit - out.length);
		const body = (await apiRequest.call(ctx, {
			api: 'base',
			method: 'GET',
			path: request.path,
			qs: { ...request.qs, offset, limit: size },
			itemIndex,
			connection,
			credentials: request.credentials,
		})) as { items?: unknown; count?: unknown } | undefined;
		requests++;
		const items = body && Array.isArray(body.items) ? (body.items as IDataObject[]) : undefined;
		if (!items) {
			throw apiError(ctx.getNode(), {
				message: `The Ad Cabinet API answered ${request.path} without an "items" list, so it is not the list asked for. It only reads data, so running it again is safe.`,
				itemIndex,
			});
		}
		if (typeof body?.count === 'number') count = body.count;
		for (const item of items) if (out.length < request.limit) out.push(item);
		offset += items.length;
		if (items.length === 0) break;
		if (Number.isFinite(count) && requests > Math.ceil(count / MAX_PAGE_SIZE) + PAGE_BOUND_SLACK) {
			throw apiError(ctx.getNode(), {
				message: `The Ad Cabinet API kept answering ${request.path} with more pages than its count of ${count} needs, so paging stopped. It only reads data, so running it again is safe.`,
				itemIndex,
			});
		}
	}
	return out;
}
