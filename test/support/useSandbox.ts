import { Sandbox, type SandboxOptions } from '../../sandbox';

/** Starts a sandbox for a test file and stops it afterwards; returns a getter for it. */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		// The nodes speak the spec's form for now; a test asks for the real form by passing platform.
		sandbox = await Sandbox.start({ platform: 'ext', ...options });
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
