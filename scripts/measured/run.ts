/** `npm run measured`: docs/measured.md and its pictures, rendered from the reports in docs/evidence. */
import { EVIDENCE_DIR } from '../lib/evidence';
import { readReports, writeMeasured } from '../lib/measuredPage';

const reports = readReports(EVIDENCE_DIR);
console.log(
	`${writeMeasured(EVIDENCE_DIR)}: ${reports.map((r) => r.name).join(', ') || 'no reports'}`,
);
