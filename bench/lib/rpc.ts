/**
 * A tiny request/answer protocol over Node's child-process IPC channel, so the bench can keep a
 * subject warm in its own process and call it once per repetition.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

type Handler = (args: unknown) => unknown;

interface Call {
	id: number;
	method: string;
	args: unknown;
}

interface Answer {
	id: number;
	result?: unknown;
	error?: string;
}

const TS_NODE = ['-r', 'ts-node/register/transpile-only'];

/** In a child: answers the parent's calls with `handlers`, then says it is ready. */
export function serve(handlers: Record<string, Handler>): void {
	if (!process.send) throw new Error('serve() must run in a forked child');
	process.on('message', (message: Call) => {
		void (async () => {
			let answer: Answer;
			try {
				const handler = handlers[message.method];
				if (!handler) throw new Error(`unknown method ${message.method}`);
				answer = { id: message.id, result: await handler(message.args) };
			} catch (error) {
				answer = {
					id: message.id,
					error:
						error instanceof Error
							? (error.stack ?? error.message)
							: typeof (error as { message?: unknown })?.message === 'string'
								? String((error as { message: string }).message)
								: String(error),
				};
			}
			process.send?.(answer);
		})();
	});
	// Without its parent (stopped, or interrupted) a child has nothing left to do, sandbox or not.
	process.on('disconnect', () => process.exit(0));
	process.send({ id: 0, result: 'ready' });
}

/** In the parent: a forked TypeScript child that answers calls. */
export class Child {
	private readonly process: ChildProcess;
	private readonly pending = new Map<
		number,
		{ resolve: (v: unknown) => void; reject: (e: Error) => void }
	>();
	private next = 1;
	private exited: Error | undefined;
	readonly ready: Promise<void>;

	constructor(file: string, options: { execArgv?: string[] } = {}) {
		this.process = fork(join(__dirname, '..', file), [], {
			execArgv: [...TS_NODE, ...(options.execArgv ?? [])],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		this.ready = new Promise((resolve, reject) => {
			this.pending.set(0, { resolve: () => resolve(), reject });
		});
		// A child that dies before its first call is reported by that call.
		this.ready.catch(() => undefined);
		this.process.on('message', (answer: Answer) => {
			const call = this.pending.get(answer.id);
			if (!call) return;
			this.pending.delete(answer.id);
			if (answer.error !== undefined) call.reject(new Error(`${file}: ${answer.error}`));
			else call.resolve(answer.result);
		});
		this.process.on('exit', (code, signal) => {
			this.exited = new Error(`${file} exited (${signal ?? `code ${code}`})`);
			for (const call of this.pending.values()) call.reject(this.exited);
			this.pending.clear();
		});
	}

	async call<T>(method: string, args?: unknown): Promise<T> {
		await this.ready;
		if (this.exited) throw this.exited;
		const id = this.next++;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
			this.process.send({ id, method, args } satisfies Call);
		});
	}

	async stop(): Promise<void> {
		if (this.exited) return;
		const gone = new Promise((resolve) => this.process.once('exit', resolve));
		this.process.disconnect();
		this.process.kill();
		await gone;
	}
}
