import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

type Section = 'headers' | 'qs' | 'body';

/**
 * Hands nodes the decrypted credential data a test gives, and applies a credential type's generic
 * `authenticate` block (resolving its `{{$credentials.…}}` expressions) the way n8n does.
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

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
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
