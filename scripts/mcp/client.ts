/**
 * The MCP client side of the stage: the official MCP TypeScript SDK's client over Streamable HTTP
 * (or SSE), with a Bearer token or none, and what a tool call returned as the client sees it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

type Transport = 'streamable-http' | 'sse';

/** What one tools/call gave the client: its error flag, its text and the JSON the text holds. */
export interface ToolAnswer {
	isError: boolean;
	text: string;
	/** The text parsed as JSON (n8n sends a tool's items as a JSON array), or undefined. */
	json: unknown;
	ms: number;
}

export class McpClient {
	private constructor(
		readonly client: Client,
		readonly transport: Transport,
	) {}

	/** Connects (initialize and the session) to the MCP Server Trigger's production URL. */
	static async connect(
		url: string,
		token: string | undefined,
		transport: Transport,
	): Promise<McpClient> {
		const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
		const client = new Client({ name: 'ad-cabinet-mcp-stage', version: '1.0.0' });
		const target = new URL(url);
		await client.connect(
			transport === 'sse'
				? new SSEClientTransport(target, {
						requestInit: { headers },
						eventSourceInit: {
							fetch: async (input, init) =>
								await fetch(input, {
									...init,
									headers: { ...(init?.headers as Record<string, string>), ...headers },
								}),
						},
					})
				: new StreamableHTTPClientTransport(target, { requestInit: { headers } }),
		);
		return new McpClient(client, transport);
	}

	async listTools() {
		return (await this.client.listTools()).tools;
	}

	/**
	 * One tools/call. The stage waits up to 180 s for an answer; `sdkTimeout` keeps the SDK's own
	 * request timeout (60 s, what an MCP client gives a tool by default), and a call it gives up on
	 * comes back as an error whose text is the SDK's.
	 */
	async call(
		name: string,
		args: Record<string, unknown> = {},
		{ sdkTimeout = false } = {},
	): Promise<ToolAnswer> {
		const started = Date.now();
		let result: Awaited<ReturnType<Client['callTool']>>;
		try {
			result = await this.client.callTool(
				{ name, arguments: args },
				undefined,
				sdkTimeout ? undefined : { timeout: 180_000 },
			);
		} catch (error) {
			if (!sdkTimeout) throw error;
			const text = `the MCP client gave up: ${(error as Error).message}`;
			return { isError: true, text, json: undefined, ms: Date.now() - started };
		}
		const ms = Date.now() - started;
		const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
		const text = content.map((part) => part.text ?? '').join('\n');
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		return { isError: result.isError === true, text, json, ms };
	}

	async close(): Promise<void> {
		await this.client.close();
	}
}
