import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

// Both addresses are validated as http(s) URLs; a trailing slash is tolerated and stripped where used.
const HTTP_URL = '^https?://[^\\s/]+(/[^\\s]*)?$';

export class AdCabinetApi implements ICredentialType {
	name = 'adCabinetApi';

	displayName = 'Ad Cabinet API';

	icon: Icon = {
		light: 'file:../nodes/shared/adCabinet.svg',
		dark: 'file:../nodes/shared/adCabinet.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-ad-cabinet#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The bearer token issued for your advertising cabinet',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://ads.example.com',
			description: 'Address of the statistics, report and ad endpoints ({base_url})',
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
			default: '',
			placeholder: 'https://client-api.example.com',
			description:
				'Address of the pixel event, KKTU, media upload and audience endpoints ({client_api_url})',
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
	];

	// spec 5 rule 1: every request carries the bearer token, whichever of the two addresses it goes to.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};

	// GET /api/report/objects takes no parameters and needs only a valid token (spec 4.3).
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
					message: 'The access token is invalid or expired (the API answered 401 Unauthorized)',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Ad Cabinet API at this Base URL (GET /api/report/objects answered 404): check the address',
				},
			},
		],
	};
}
