import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { routed, type RoutedOperation } from '../../nodes/shared/transport/routing';
import { NODE, credentials } from './fakeContext';

/**
 * A stand-in for the context n8n's RoutingNode hands a routed operation's pagination hook: each
 * routing request is answered by `answer` and recorded.
 */
export type RequestOptions = DeclarativeRestApiSettings.HttpRequestOptions;
export type Answer = (
	options: RequestOptions,
	call: number,
) => INodeExecutionData[] | Promise<INodeExecutionData[]>;

interface Routed {
	ctx: IExecutePaginationFunctions;
	makeRoutingRequest: jest.Mock;
	/** The request options of each routing request, in order. */
	sent: () => RequestOptions[];
}

export function routingContext(
	answer: Answer,
	options: {
		parameters?: IDataObject;
		continueOnFail?: boolean;
		itemIndex?: number;
		baseUrl?: string;
		/** Other fields of the credential (its platform). */
		credential?: IDataObject;
	} = {},
): Routed {
	let calls = 0;
	const makeRoutingRequest = jest.fn(
		async (requestData: DeclarativeRestApiSettings.ResultOptions) => {
			calls++;
			return await answer(requestData.options, calls);
		},
	);
	const parameters = options.parameters ?? {};
	const ctx = {
		getItemIndex: () => options.itemIndex ?? 0,
		getNode: () => NODE,
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials: async () =>
			credentials({
				...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
				...options.credential,
			}),
		getNodeParameter: (name: string, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback,
		makeRoutingRequest,
	} as unknown as IExecutePaginationFunctions;
	return {
		ctx,
		makeRoutingRequest,
		sent: () =>
			makeRoutingRequest.mock.calls.map(
				(call) => (call[0] as DeclarativeRestApiSettings.ResultOptions).options,
			),
	};
}

export function requestData(
	options: Partial<RequestOptions>,
): DeclarativeRestApiSettings.ResultOptions {
	return {
		options: {
			baseURL: 'https://api.example.test',
			url: '/api/x',
			method: 'GET',
			...options,
		} as RequestOptions,
		paginate: true,
		maxResults: 0,
	} as unknown as DeclarativeRestApiSettings.ResultOptions;
}

export async function run(
	operation: RoutedOperation,
	routing: Routed,
	data = requestData({}),
): Promise<INodeExecutionData[]> {
	const pagination = routed(operation).operations?.pagination as (
		this: IExecutePaginationFunctions,
		data: DeclarativeRestApiSettings.ResultOptions,
	) => Promise<INodeExecutionData[]>;
	return await pagination.call(routing.ctx, data);
}

export const items = (...ids: number[]) => ids.map((id) => ({ json: { id } }));
