import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { authFor, renewSession, SESSION, viewOf } from '../nodes/shared/auth';

// Both addresses are validated as http(s) URLs; a trailing slash is tolerated and stripped where used.
const HTTP_URL = '^https?://[^\\s/]+(/[^\\s]*)?$';

const method = (...values: string[]) => ({ show: { authMethod: values } });

export class AdCabinetApi implements ICredentialType {
	name = 'adCabinetApi';

	displayName = 'Ad Cabinet API';

	icon: Icon = {
		light: 'file:../nodes/shared/adCabinet.svg',
		dark: 'file:../nodes/shared/adCabinet.dark.svg',
	};

	documentationUrl = 'https://github.com/FILL_IN_OWNER/n8n-nodes-ad-cabinet#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Platform',
			name: 'platform',
			type: 'options',
			options: [
				{
					name: 'Telegram (Adstat)',
					value: 'telegram',
					description: 'The real service at client.adstat.pro and clientapi.adstat.pro',
				},
				{
					name: 'Generic',
					value: 'ext',
					description: "The API's generic form, for services that use ext in paths and fields",
				},
			],
			default: 'telegram',
			description: 'Telegram (Adstat) for Telegram Ads bought through Adstat, the usual choice',
		},
		{
			displayName: 'Sign-in Method',
			name: 'authMethod',
			type: 'options',
			options: [
				{
					name: 'Username and Password',
					value: 'password',
					description: 'n8n signs in and renews the access token by itself',
				},
				{
					name: 'Refresh Token',
					value: 'refreshToken',
					description:
						'Paste a refresh token, which Adstat gives with each sign-in and which lasts 30 days; n8n renews the access token with it',
				},
				{
					name: 'Access Token',
					value: 'accessToken',
					description:
						'Paste an access token, which Adstat gives with each sign-in; it is used as it is and not renewed, so on Adstat it stops working after 1 hour',
				},
			],
			default: 'password',
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			displayOptions: method('password'),
			description: 'The username (email) you sign in to the cabinet with',
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: method('password'),
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: method('refreshToken'),
			description:
				'The refresh_token that a sign-in to the API returns (POST /api/v2/login at Base URL with your username and password, sent as a form). It lasts 30 days, then sign in again for a new one.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			displayOptions: method('accessToken'),
			description:
				'The access_token that a sign-in to the API returns (POST /api/v2/login at Base URL with your username and password, sent as a form). On Adstat it lasts 1 hour.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: 'https://client.adstat.pro',
			placeholder: 'https://client.adstat.pro',
			description: 'Address of sign-in and the statistics, report and ad endpoints',
			typeOptions: {
				validationRules: [
					{
						type: 'regex',
						properties: {
							regex: HTTP_URL,
							errorMessage: 'Base URL must be an http:// or https:// address',
						},
					},
				],
			},
		},
		{
			displayName: 'Client API URL',
			name: 'clientApiUrl',
			type: 'string',
			required: true,
			default: 'https://clientapi.adstat.pro',
			placeholder: 'https://clientapi.adstat.pro',
			description: 'Address of the pixel event, KKTU, media upload and audience endpoints',
			typeOptions: {
				validationRules: [
					{
						type: 'regex',
						properties: {
							regex: HTTP_URL,
							errorMessage: 'Client API URL must be an http:// or https:// address',
						},
					},
				],
			},
		},
		{
			displayName: 'Rate Limit Requests',
			name: 'rateLimitRequests',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 10,
			description:
				'How many requests the API allows in each window for each user and URL path (Adstat: 10 in 60 seconds). n8n paces the requests of this credential to each path within it, waiting its turn instead of being blocked. 0 turns pacing off.',
		},
		{
			displayName: 'Rate Limit Window',
			name: 'rateLimitWindow',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 60,
			description: 'The length of that window, in seconds',
		},
		// What sign-in or refresh obtained. n8n renews the expirable access token by calling
		// preAuthentication when it is empty or the API answers 401, and stores what it returns.
		{
			displayName: 'Session Token',
			name: SESSION.token,
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Session Refresh Token',
			name: SESSION.refreshToken,
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		// A keyed fingerprint of the fields that obtained the session; both it and its random key are
		// password fields, so that n8n never shows them when the credential is opened.
		{
			displayName: 'Session Owner',
			name: SESSION.owner,
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName: 'Session Key',
			name: SESSION.key,
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		// A refused sign-in (when, until when, what the API said), read by every n8n process.
		{
			displayName: 'Session Refusal',
			name: SESSION.refusal,
			type: 'hidden',
			default: '',
		},
	];

	// Sign-in: POST {baseUrl}/api/v2/login (form body); refresh: GET {baseUrl}/api/v2/access-token.
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		return await renewSession.call(this, viewOf(credentials));
	}

	// Every request carries the bearer token, whichever of the two addresses it goes to: both check it.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		// A refused sign-in of these very username and password, within its pause, is thrown
		// instead: nothing is sent.
		return authFor(viewOf(credentials), requestOptions);
	}

	// GET /api/report/objects takes no parameters and needs only a valid token, so it tests nothing else. With
	// Username and Password or Refresh Token, n8n signs in or refreshes first (preAuthentication),
	// and a failure there is reported with its own message naming the step.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/report/objects',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The access token is invalid or expired: the API answered 401 Unauthorized to a read with it. With Sign-in Method Access Token, paste a new token or switch to Username and Password. With the other methods the sign-in or refresh succeeded and the same API then refused its token: a proxy between n8n and the API may drop the Authorization header, or the account may not be allowed to use the API; test again, and if it persists ask Adstat support.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The access token is valid but the API refused the read (403 Forbidden): the account may not use the API. Ask the cabinet owner for access.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Ad Cabinet API at this Base URL (GET /api/report/objects answered 404): check the address (https://client.adstat.pro for the real service)',
				},
			},
		],
	};
}
