import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

type Section = 'headers' | 'qs' | 'body';

/**
 * Hands nodes the decrypted credential data a test gives, applies a credential type's
 * `authenticate` (resolving a generic block's `{{$credentials.…}}` expressions) and renews an
 * expiring credential through its preAuthentication, the way n8n does.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Map<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types.get(typeName);
		const options = requestOptions as IHttpRequestOptions;
		const auth = type?.authenticate;
		if (!auth) return options;
		if (typeof auth === 'function') return await auth(credentials, options);
		const resolve = (value: unknown): unknown => {
			if (typeof value !== 'string' || !value.startsWith('=')) return value;
			if (workflow && node) {
				return workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
			}
			return value
				.slice(1)
				.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, key: string) =>
					String(credentials[key] ?? ''),
				);
		};
		for (const section of ['headers', 'qs', 'body'] as Section[]) {
			const values = (auth.properties as Record<Section, Record<string, unknown> | undefined>)[
				section
			];
			if (!values) continue;
			const target = ((options[section] as Record<string, unknown> | undefined) ?? {}) as Record<
				string,
				unknown
			>;
			for (const [key, value] of Object.entries(values)) target[key] = resolve(value);
			(options as unknown as Record<Section, unknown>)[section] = target;
		}
		return options;
	}

	/**
	 * n8n's renewal of expiring credentials (the CLI's CredentialsHelper.preAuthentication): when
	 * the type has a hidden `expirable` property, its preAuthentication runs if that property is
	 * empty, after a 401 (`credentialsExpired`), and on every credential Test; every key it returns
	 * is stored for later requests (here: in the data the test gave, shared by the whole run and by
	 * later runs given the same object). As in n8n 2.x, it may only make plain HTTP requests.
	 */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.types.get(typeName);
		const expirable = type?.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!type || !expirable || typeof type.preAuthentication !== 'function') return undefined;
		// n8n applies the property's default ('') to data saved without it.
		const empty = (credentials[expirable.name] ?? '') === '';
		const testing = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (!empty && !credentialsExpired && !testing) return undefined;
		const restricted: IHttpRequestHelper = {
			helpers: { httpRequest: async (options) => await helpers.helpers.httpRequest(options) },
		};
		const output = (await type.preAuthentication.call(
			restricted,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		if (!node.credentials) return undefined;
		const stored = this.data[typeName];
		if (stored) {
			for (const [key, value] of Object.entries(output)) {
				if (key === expirable.name || !isExpression(stored[key])) stored[key] = value;
			}
		}
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.types.get(typeName);
		if (typeof type?.preAuthentication !== 'function') return undefined;
		return ((await type.preAuthentication.call(helpers, credentials)) ?? undefined) as
			ICredentialDataDecryptedObject | undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		return new Credentials({ id: nodeCredentials.id ?? null, name: nodeCredentials.name }, type);
	}

	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types.get(type)?.properties ?? [];
	}
}
