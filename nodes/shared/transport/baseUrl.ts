import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';
import type { ApiBase } from '../constants';
import { invalidInput } from '../validation';

const CREDENTIAL_FIELD: Record<ApiBase, 'baseUrl' | 'clientApiUrl'> = {
	base: 'baseUrl',
	client: 'clientApiUrl',
};

const FIELD_LABEL: Record<ApiBase, string> = {
	base: 'Base URL (Ad Cabinet API credential)',
	client: 'Client API URL (Ad Cabinet API credential)',
};

const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;

/** Expression for declarative `baseURL`: the credential's address without trailing slashes. */
export function baseUrlExpression(api: ApiBase): string {
	return `={{$credentials.${CREDENTIAL_FIELD[api]}.replace(/\\/+$/, "")}}`;
}

function stripped(credentials: ICredentialDataDecryptedObject, api: ApiBase): string {
	return String(credentials[CREDENTIAL_FIELD[api]] ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** The credential's address for an endpoint, refused before any request unless it is an http(s) URL. */
export function baseUrlFrom(
	node: INode,
	credentials: ICredentialDataDecryptedObject,
	api: ApiBase,
	itemIndex = 0,
): string {
	const url = stripped(credentials, api);
	if (!HTTP_URL.test(url)) {
		throw invalidInput(
			node,
			FIELD_LABEL[api],
			'must be an http:// or https:// address',
			itemIndex,
			url,
		);
	}
	return url;
}

/**
 * The same check for a declarative request, whose base URL routing already resolved: names the
 * credential field it came from.
 */
export function checkResolvedBaseUrl(
	node: INode,
	credentials: ICredentialDataDecryptedObject,
	resolved: unknown,
	itemIndex: number,
): void {
	const url = typeof resolved === 'string' ? resolved : '';
	if (HTTP_URL.test(url)) return;
	const api: ApiBase = url !== '' && url === stripped(credentials, 'client') ? 'client' : 'base';
	throw invalidInput(
		node,
		FIELD_LABEL[api],
		'must be an http:// or https:// address',
		itemIndex,
		url,
	);
}
