import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { kktuForExecution, SELECTABLE_KKTU_LEVEL } from '../../../../shared/kktu';
import { invalidInput } from '../../../../shared/validation';
import type { AdBody } from './adBody';
import { labelOf } from '../fields/adFields';

const DOTTED_CODE = /^\d+(\.\d+)+$/;
const RULE = `only third-level categories (codes like 1.2.3) may be used on an ad`;

/**
 * The id of a third-level KKTU node (docs/api-rules.md#kktu-category), from an id or a dotted code such as `1.2.3`. A code
 * of the wrong depth is refused without any request; an id's level is read from the tree, which is
 * fetched once per execution.
 */
async function resolveKktuId(
	this: IExecuteSingleFunctions,
	value: string,
	label = labelOf('kktu_ids') as string,
): Promise<string> {
	const node = this.getNode();
	const itemIndex = this.getItemIndex();
	const isCode = DOTTED_CODE.test(value);
	if (isCode && value.split('.').length !== SELECTABLE_KKTU_LEVEL) {
		throw invalidInput(
			node,
			label,
			`"${value}" is a level-${value.split('.').length} code; ${RULE}`,
			itemIndex,
		);
	}
	const tree = await kktuForExecution.call(this);
	const match = tree.find((entry) => (isCode ? entry.code === value : entry.id === value));
	if (!match) {
		throw invalidInput(
			node,
			label,
			`no KKTU category has the ${isCode ? 'code' : 'ID'} "${value}"; choose one from the list`,
			itemIndex,
		);
	}
	if (match.level !== SELECTABLE_KKTU_LEVEL) {
		throw invalidInput(
			node,
			label,
			`"${value}" is the level-${match.level} category ${match.code} ${match.path.join(' / ')}; ${RULE}`,
			itemIndex,
		);
	}
	return match.id;
}

/** The body to send: the one KKTU value, once checked, as `kktu_ids` (the API uses one value). */
export async function completeAdBody(
	this: IExecuteSingleFunctions,
	{ body, kktu }: AdBody,
): Promise<IDataObject> {
	if (kktu !== undefined) body.kktu_ids = [await resolveKktuId.call(this, kktu)];
	return body;
}
