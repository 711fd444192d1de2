/** The shape of a report in docs/evidence, as the runs write it and the page renders it. */
export interface Machine {
	cpu: string;
	cores: number;
	memoryGb: number;
	os: string;
	node: string;
	/** The 1-minute load average when the report was written: a shared machine's figures vary with it. */
	load?: number;
}

/** A goal with its figure and whether the run met it. */
export interface EvidenceGoal {
	goal: string;
	figure: string;
	result: 'pass' | 'miss';
}

/** A figure given for context, with no goal of its own. */
interface EvidenceFigure {
	what: string;
	figure: string;
}

/** The month's days, for its pictures. */
export interface MonthDays {
	/** Each n8n process: its RSS and its live heap after a full collection at each day's end (MB). */
	memory: Record<string, Array<{ day: number; rssMb: number; heapMb?: number }>>;
	traffic: Array<{ day: number; requests: number; answers429: number }>;
	executions: Array<{ day: number; runs: number; failed: number }>;
	faults: Array<{ day: number; kind: string }>;
}

/** A side-by-side ratio of the benchmark, and the bound its goal sets (absent for context). */
export interface BenchRatio {
	id: string;
	what: string;
	ratio: number;
	limit?: number;
}

export interface Evidence {
	/** The report's file name in docs/evidence, without .json. */
	name: string;
	title: string;
	/** The command that writes it. */
	command: string;
	/** When the run ended (ISO). */
	date: string;
	machine: Machine;
	/** The n8n version (or versions) the run measured. */
	n8n: string;
	seconds: number;
	goals: EvidenceGoal[];
	figures: EvidenceFigure[];
	days?: MonthDays;
	ratios?: BenchRatio[];
}
