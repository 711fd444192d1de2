import type { INode } from 'n8n-workflow';
import type { CredentialView } from '../auth/credentialView';
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

/** The view's address for an endpoint: without surrounding spaces and trailing slashes. */
function stripped(view: CredentialView, api: ApiBase): string {
	return view[CREDENTIAL_FIELD[api]];
}

/** The credential's address for an endpoint, refused before any request unless it is an http(s) URL. */
export function baseUrlFrom(
	node: INode,
	view: CredentialView,
	api: ApiBase,
	itemIndex = 0,
): string {
	const url = stripped(view, api);
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
	view: CredentialView,
	resolved: unknown,
	itemIndex: number,
): void {
	const url = typeof resolved === 'string' ? resolved : '';
	if (HTTP_URL.test(url)) return;
	const api: ApiBase = url !== '' && url === stripped(view, 'client') ? 'client' : 'base';
	throw invalidInput(
		node,
		FIELD_LABEL[api],
		'must be an http:// or https:// address',
		itemIndex,
		url,
	);
}
