import { Sandbox, type SandboxOptions } from '../../sandbox';

/** Starts a sandbox for a test file and stops it afterwards; returns a getter for it. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await Sandbox.start(options);
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
