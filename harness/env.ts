import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core reads its settings folder when first used; point it at a throwaway folder before that.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'ad-cabinet-harness-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
// Route every log line through the capturing logger.
import './logs';
