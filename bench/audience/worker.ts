/**
 * Measurement 4: the Audiences node's file builder over 1,000,000 phone numbers in mixed formats
 * (normalize, drop duplicates, SHA-256 each), against the fastest bare node:crypto loop over the
 * same numbers already normalized and deduplicated.
 */
import * as crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type * as AudienceFileModule from '../../nodes/AdCabinetAudiences/resources/audience/audienceFile';
import { collectGarbage } from '../lib/measure';
import { serve } from '../lib/rpc';

// The built module, as n8n loads it.
const { buildAudienceFromValues } =
	require('../../dist/nodes/AdCabinetAudiences/resources/audience/audienceFile') as typeof AudienceFileModule;

/** crypto.hash (Node 20.12+) is the fastest one-shot digest node:crypto offers; createHash otherwise. */
const oneShot = (
	crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }
).hash;
const sha256Hex: (data: string | Uint8Array) => string = oneShot
	? (text) => oneShot('sha256', text, 'hex')
	: (text) => crypto.createHash('sha256').update(text).digest('hex');

/** The formats a column of phone numbers arrives in. */
const FORMATS: Array<(d: string) => string | number> = [
	(d) => `+${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5, 8)}-${d.slice(8, 10)}-${d.slice(10)}`,
	(d) => `(${d.slice(0, 3)})${d.slice(3)}`,
	(d) => d,
	(d) => Number(d),
	(d) => `+${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5, 8)}-${d.slice(8)}`,
	(d) => ` ${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5)} `,
];

interface Workload {
	values: Array<string | number>;
	/** The unique numbers as 12-digit strings: the input of the floor. */
	normalized: string[];
}

let workload: Workload | undefined;

function makeWorkload(count: number, duplicateShare: number): Workload {
	let seed = 12345;
	const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
	const values: Array<string | number> = new Array(count);
	const unique: string[] = [];
	const taken = new Set<number>();
	for (let i = 0; i < count; i++) {
		let digits: string;
		if (unique.length > 0 && random() < duplicateShare) {
			digits = unique[Math.floor(random() * unique.length)];
		} else {
			let key: number;
			do key = 998_000_000_000 + Math.floor(random() * 1e9);
			while (taken.has(key));
			taken.add(key);
			digits = String(key);
			unique.push(digits);
		}
		values[i] = FORMATS[i % FORMATS.length](digits);
	}
	// As the values of n8n items arrive: parsed from JSON, so every string is flat.
	return {
		values: JSON.parse(JSON.stringify(values)) as Array<string | number>,
		normalized: unique,
	};
}

/** An order-free checksum of hex digests, to check that both sides hashed the same numbers. */
function checksum(hexes: Iterable<string>): string {
	let sum = 0;
	let count = 0;
	for (const hex of hexes) {
		sum = (sum + parseInt(hex.slice(0, 8), 16)) % 4294967296;
		count++;
	}
	return `${count}:${sum}`;
}

serve({
	prepare: (raw) => {
		const { count, duplicateShare } = raw as { count: number; duplicateShare: number };
		workload = makeWorkload(count, duplicateShare);
		return {
			values: workload.values.length,
			unique: workload.normalized.length,
			hasOneShot: oneShot !== undefined,
		};
	},
	ours: () => {
		const { values } = workload as Workload;
		collectGarbage();
		const started = performance.now();
		const build = buildAudienceFromValues(values, { hash: true, maxBytes: Infinity });
		const ms = performance.now() - started;
		if (build.problem) throw new Error(`the builder refused the numbers: ${build.problem.message}`);
		return {
			ms,
			valid: build.report.valid,
			duplicates: build.report.duplicatesRemoved,
			checksum: checksum(build.content.split('\n')),
		};
	},
	/** Not a goal: the same numbers as 12 ASCII bytes in one reused buffer, as the builder hashes them. */
	floorBytes: () => {
		const { normalized } = workload as Workload;
		const bytes = normalized.map((text) => Buffer.from(text, 'latin1'));
		collectGarbage();
		const started = performance.now();
		const out = new Array<string>(bytes.length);
		for (let i = 0; i < bytes.length; i++) out[i] = sha256Hex(bytes[i]);
		const ms = performance.now() - started;
		return { ms, valid: out.length, checksum: checksum(out) };
	},
	/** Not a goal: the straightforward version a user would write in a Code node. */
	naive: () => {
		const { values } = workload as Workload;
		collectGarbage();
		const started = performance.now();
		const unique = new Set<string>();
		for (const value of values) unique.add(String(value).replace(/\D/g, ''));
		const out: string[] = [];
		for (const digits of unique) out.push(sha256Hex(digits));
		const content = out.join('\n');
		const ms = performance.now() - started;
		return { ms, valid: out.length, checksum: checksum(content.split('\n')) };
	},
	floor: () => {
		const { normalized } = workload as Workload;
		collectGarbage();
		const started = performance.now();
		const out = new Array<string>(normalized.length);
		for (let i = 0; i < normalized.length; i++) out[i] = sha256Hex(normalized[i]);
		const ms = performance.now() - started;
		return { ms, valid: out.length, checksum: checksum(out) };
	},
});
