import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import type { ApiBase } from '../constants';

const CREDENTIAL_FIELD: Record<ApiBase, 'baseUrl' | 'clientApiUrl'> = {
	base: 'baseUrl',
	client: 'clientApiUrl',
};

/** Expression for declarative `baseURL`: the credential's address without trailing slashes. */
export function baseUrlExpression(api: ApiBase): string {
	return `={{$credentials.${CREDENTIAL_FIELD[api]}.replace(/\\/+$/, "")}}`;
}

/** The same address for programmatic requests. */
export function baseUrlFrom(credentials: ICredentialDataDecryptedObject, api: ApiBase): string {
	return String(credentials[CREDENTIAL_FIELD[api]] ?? '').replace(/\/+$/, '');
}
