import { Sandbox, type SandboxOptions } from '../../sandbox';

/**
 * Starts a sandbox for a test file and stops it afterwards; returns a getter for it. It speaks the
 * real service's form (`telegram`) unless a test asks for the spec's (`platform: 'ext'`). Its rate
 * limit is off unless a test passes `rateLimit` (`undefined` for the form's default): the tests
 * send far more than 10 requests a minute to a path.
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await Sandbox.start({
			platform: 'telegram',
			...options,
			rateLimit: 'rateLimit' in options ? options.rateLimit : 'off',
		});
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	beforeEach(() => {
		sandbox?.faults.clear();
		sandbox?.clearLog();
	});
	return () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
}
