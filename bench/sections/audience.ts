/** Measurement 4: the audience file builder against a bare node:crypto loop. */
import { formatMs, median } from '../lib/measure';
import type { Line } from '../lib/report';
import { Child } from '../lib/rpc';
import { WrongData } from './stats';

interface AudienceOptions {
	count: number;
	repetitions: number;
}

interface Timing {
	ms: number;
	valid: number;
	checksum: string;
}

interface AudienceRaw {
	values: number;
	unique: number;
	ours: number[];
	floor: number[];
	floorBytes: number[];
	naive: number[];
}

export async function audienceBench(
	options: AudienceOptions,
	log: (text: string) => void,
): Promise<{ lines: Line[]; raw: AudienceRaw }> {
	log('4. Audience builder');
	const child = new Child('audience/worker.ts', { execArgv: ['--expose-gc'] });
	const raw: AudienceRaw = { values: 0, unique: 0, ours: [], floor: [], floorBytes: [], naive: [] };
	try {
		const prepared = await child.call<{ values: number; unique: number; hasOneShot: boolean }>(
			'prepare',
			{
				count: options.count,
				duplicateShare: 0.1,
			},
		);
		raw.values = prepared.values;
		raw.unique = prepared.unique;
		const subjects = ['ours', 'floor', 'floorBytes', 'naive'] as const;
		let reference: string | undefined;
		// One untimed round first: JIT and the first large allocations.
		for (const subject of subjects) await child.call<Timing>(subject);
		for (let rep = 0; rep < options.repetitions; rep++) {
			for (const subject of rep % 2 ? [...subjects].reverse() : subjects) {
				const timing = await child.call<Timing>(subject);
				reference ??= timing.checksum;
				if (timing.checksum !== reference || timing.valid !== prepared.unique) {
					throw new WrongData(
						`audience ${subject}: ${timing.valid} entries, checksum ${timing.checksum}; expected ${prepared.unique}, ${reference}`,
					);
				}
				raw[subject].push(timing.ms);
			}
		}
		log(
			`  ${prepared.values.toLocaleString('en-US')} values, ${prepared.unique.toLocaleString('en-US')} unique; ours ${raw.ours.map((ms) => formatMs(ms)).join(', ')}`,
		);
	} finally {
		await child.stop();
	}
	const ours = median(raw.ours);
	const floor = median(raw.floor);
	const size = `${raw.values.toLocaleString('en-US')} mixed-format numbers, ${(raw.values - raw.unique).toLocaleString('en-US')} duplicates`;
	return {
		raw,
		lines: [
			{
				id: '4',
				what: `buildAudienceFromValues, hash on (${size}): normalize, dedupe, SHA-256, join the file`,
				goal: '≤ 1.3× floor',
				measured: `${formatMs(ours)} vs ${formatMs(floor)}`,
				ratio: median(raw.ours.map((ms, i) => ms / raw.floor[i])),
				limit: 1.3,
			},
			{
				id: '4',
				what: 'floor: crypto.hash over the pre-normalized unique strings, hex into an array',
				goal: '',
				measured: formatMs(floor),
			},
			{
				id: '4',
				what: 'stricter floor: crypto.hash over the same numbers as 12 ASCII bytes (how ours hashes)',
				goal: '',
				measured: formatMs(median(raw.floorBytes)),
				ratio: median(raw.ours.map((ms, i) => ms / raw.floorBytes[i])),
			},
			{
				id: '4',
				what: "what a Code node would do: replace(/\\D/g, ''), a Set, crypto.hash, join",
				goal: '',
				measured: formatMs(median(raw.naive)),
				ratio: median(raw.ours.map((ms, i) => ms / raw.naive[i])),
			},
		],
	};
}
